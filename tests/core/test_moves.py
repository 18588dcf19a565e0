"""Moves: UCI notation, legality cases from ../shared/corpus/san/move_legality.jsonl,
make/unmake, snapshots, check and mate (Laws Art. 3, 5.1, 5.2)."""

from __future__ import annotations

import json
from typing import Any

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chessarbiter.core import (
    IllegalMoveError,
    InvalidMoveError,
    Position,
    from_square,
    is_castle,
    make_move,
    parse_fen,
    promotion,
    to_square,
    uci,
)
from chessarbiter.core.moves import parse_uci_code, parse_uci_parts
from chessarbiter.core.squares import QUEEN, parse_square
from tests.corpus import CORPUS, corpus_path


def _cases() -> list[dict[str, Any]]:
    path = CORPUS / "san" / "move_legality.jsonl"
    if not path.exists():
        return [{"id": "corpus-missing"}]
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("case", _cases(), ids=lambda c: str(c["id"]))
def test_move_legality_case(case: dict[str, Any]) -> None:
    corpus_path("san", "move_legality.jsonl")
    c960 = bool(case.get("chess960"))
    pos = parse_fen(case["fen"], chess960=c960)
    board = chess.Board(case["fen"], chess960=c960)
    for san in case.get("moves_before", []):  # SAN via the oracle until notation lands
        pos.push(pos.parse_uci(board.uci(board.push_san(san))))
    legal = {pos.uci(m) for m in pos.legal_moves()}
    assert (case["uci"] in legal) == case["legal"], case.get("note")
    if not case["legal"]:
        with pytest.raises(IllegalMoveError):
            pos.parse_uci(case["uci"])


def test_move_encoding_round_trips() -> None:
    move = make_move(parse_square("e7"), parse_square("e8"), QUEEN)
    assert (from_square(move), to_square(move), promotion(move)) == (52, 60, QUEEN)
    assert uci(move) == "e7e8q"
    assert not is_castle(move)


def test_castling_in_uci_both_ways() -> None:
    pos = parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    short = pos.parse_uci("e1g1")
    assert is_castle(short) and pos.parse_uci("e1h1") == short
    assert uci(short) == "e1g1" and uci(short, chess960=True) == "e1h1"
    pos.push(short)
    assert pos.fen() == "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"
    pos.pop()
    assert pos.fen() == "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"


def test_chess960_king_step_is_not_castling() -> None:
    """In Chess960 ``f1g1`` is the king's step; castling is written king-takes-rook."""
    pos = parse_fen("4k3/8/8/8/8/8/8/5K1R w H - 0 1", chess960=True)
    step = pos.parse_uci("f1g1")
    assert not is_castle(step)
    castle = pos.parse_uci("f1h1")
    assert is_castle(castle)
    pos.push(castle)
    assert pos.fen() == "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"


@pytest.mark.parametrize(
    ("text", "error", "words"),
    [
        ("e2", InvalidMoveError, "4 or 5 characters"),
        ("e2e9", InvalidMoveError, "not a square"),
        ("e7e8x", InvalidMoveError, "promotion"),
        ("e7e8k", IllegalMoveError, "illegal"),
        ("e2e2", InvalidMoveError, "same"),
        ("e2e5", IllegalMoveError, "illegal"),
        ("e1g1", IllegalMoveError, "illegal"),
    ],
)
def test_bad_uci_input(text: str, error: type[Exception], words: str) -> None:
    pos = Position()
    with pytest.raises(error, match=words):
        pos.push_uci(text)
    assert pos.fen() == Position().fen()  # nothing changed


def test_check_mate_stalemate_and_checkers() -> None:
    fools = Position()
    for text in ("f2f3", "e7e5", "g2g4", "d8h4"):
        fools.push_uci(text)
    assert fools.is_check() and fools.is_checkmate() and not fools.is_stalemate()
    assert fools.checkers() == [parse_square("h4")]
    stalemate = parse_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stalemate.is_stalemate() and not stalemate.is_checkmate()
    double = parse_fen("4k3/8/8/8/8/3n4/8/r3K3 w - - 0 1")
    assert sorted(double.checkers()) == [0, parse_square("d3")]
    assert {double.uci(m) for m in double.legal_moves()} == {"e1e2", "e1d2"}


def test_snapshot_and_copy_are_independent() -> None:
    pos = Position()
    snap = pos.snapshot()
    other = pos.copy()
    pos.push_uci("e2e4")
    assert Position.from_snapshot(snap) == other != pos
    assert other.move_stack == [] and len(pos.move_stack) == 1
    assert hash(snap) == hash(Position().snapshot())


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10_000), max_size=60))
def test_push_then_pop_restores_everything(choices: list[int]) -> None:
    pos = Position()
    snaps = []
    for choice in choices:
        moves = pos.legal_moves()
        if not moves:
            break
        snaps.append((pos.snapshot(), pos.key()))
        pos.push(moves[choice % len(moves)])
    while snaps:
        pos.pop()
        snap, key = snaps.pop()
        assert pos.snapshot() == snap and pos.key() == key
        assert parse_fen(pos.fen()) == pos


def test_uci_codes_agree_with_parsing() -> None:
    """The looked-up codes of every from-to text and promotion equal the parsed ones; other
    texts are parsed, bad ones refused as by the parser."""
    names = [chr(97 + f) + str(r + 1) for r in range(8) for f in range(8)]
    texts = [a + b + p for a in names for b in names for p in ("", "q", "n", "k")]
    for text in texts:
        try:
            fr, to, promo = parse_uci_parts(text)
        except InvalidMoveError:
            with pytest.raises(InvalidMoveError):
                parse_uci_code(text)
            continue
        assert parse_uci_code(text) == fr | to << 6 | promo << 12, text
    for text in ("e2", "e7e8x", "E2E4", "e2e4qq"):
        with pytest.raises(InvalidMoveError):
            parse_uci_code(text)
