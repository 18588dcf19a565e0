"""SAN reading and writing against the corpus (Laws Appendix E; PGN standard 8.2.3)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from chessarbiter.core import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    MoveError,
    Position,
    parse_fen,
    uci,
)
from chessarbiter.notation.letters import FIGURINES, GERMAN, PieceLetters
from chessarbiter.notation.pgn_reader import read_pgn_file
from chessarbiter.notation.san import legal_san, parse_san, write_san
from tests.corpus import corpus_path


def cases(name: str) -> list[dict[str, Any]]:
    path = corpus_path("san", name)
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def outcome(pos: Position, text: str, strict: bool) -> str:
    try:
        return uci(parse_san(pos, text, strict=strict), pos.chess960)
    except AmbiguousMoveError:
        return "ambiguous"
    except IllegalMoveError:
        return "illegal"
    except InvalidMoveError:
        return "invalid"


@pytest.mark.parametrize("case", cases("san_parse.jsonl"), ids=lambda c: c["id"])
def test_san_parse_corpus(case: dict[str, Any]) -> None:
    pos = parse_fen(case["fen"], chess960=case.get("chess960", False))
    expected = case.get("uci") or case["error"]
    # "strict" cases bind every conforming reader, so the lenient one too.
    modes = (True, False) if case["mode"] == "strict" else (False,)
    for strict in modes:
        assert outcome(pos, case["san"], strict) == expected
    if case["mode"] == "permissive" and "uci" in case:
        assert outcome(pos, case["san"], True) == "invalid"
    if "fen_after" in case and "uci" in case:
        pos.push(parse_san(pos, case["san"]))
        # Chess960 cases write castling rights in Shredder-FEN: compare the other fields.
        fields = (0, 1, 3, 4, 5) if pos.chess960 else range(6)
        ours, theirs = pos.fen(en_passant="legal").split(), case["fen_after"].split()
        assert [ours[i] for i in fields] == [theirs[i] for i in fields]


@pytest.mark.parametrize("case", cases("san_render.jsonl"), ids=lambda c: c["id"])
def test_san_render_corpus(case: dict[str, Any]) -> None:
    pos = parse_fen(case["fen"])
    move = pos.parse_uci(case["uci"])
    assert write_san(pos, move) == case["san"]
    assert parse_san(pos, case["san"], strict=True) == move


@pytest.mark.parametrize("case", cases("legal_san_sets.jsonl"), ids=lambda c: c["id"])
def test_legal_san_sets(case: dict[str, Any]) -> None:
    assert sorted(legal_san(parse_fen(case["fen"]))) == sorted(case["legal_san"])


@pytest.mark.parametrize("case", cases("san_sequences.jsonl"), ids=lambda c: c["id"])
def test_san_sequences(case: dict[str, Any]) -> None:
    pos = parse_fen(case["fen"])
    for text in case["moves"]:
        pos.push(parse_san(pos, text, strict=True))
    assert pos.fen(en_passant="legal") == case["fen_after"]


def opening_lines() -> list[list[str]]:
    lines = []
    for path in sorted(corpus_path("san", "openings").glob("*.tsv")):
        for row in path.read_text().splitlines()[1:]:
            movetext = row.split("\t")[2]
            lines.append([t for t in movetext.split() if not t[0].isdigit()])
    return lines


def test_every_opening_line_reads_and_writes_back() -> None:
    """All 3,807 lichess opening lines: strict reading, and writing gives the same text."""
    lines = opening_lines()
    assert len(lines) == 3807
    for moves in lines:
        pos = Position()
        for text in moves:
            move = parse_san(pos, text, strict=True)
            assert write_san(pos, move) == text
            pos.push(move)


def test_every_eco_game_reads() -> None:
    """The ECO lines of pgn-extract, read strictly. The corpus counts 2,015 records (5,822
    with the lichess lines) because python-chess also yields the file's opening comment as a
    game; that comment has no tags and no moves, so it is no game here: 2,014 lines."""
    games = list(read_pgn_file(corpus_path("san", "openings", "pgn-extract_eco.pgn"),
                               strict=True))
    assert len(games) == 2014
    assert all(g.error is None and g.moves for g in games)


@pytest.mark.parametrize(
    ("fen", "text", "expected"),
    [
        (None, "Ng1-f3", "g1f3"),
        (None, "Ng1f3", "g1f3"),
        (None, "e2-e4", "e2e4"),
        (None, "♘f3", "g1f3"),
        (None, "Nf3+", "g1f3"),  # wrong check sign
        (None, "Nf3!?", "g1f3"),
        (None, "Nxf3", "g1f3"),  # superfluous x
        ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "0-0", "e1g1"),
        ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "o-o-o", "e1c1"),
        ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "O\u2013O", "e1g1"),  # en dash
        ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1", "e1g1"),  # castling in coordinates
        ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1a1", "e1c1"),  # king takes own rook
        ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8Q", "b7b8q"),
        ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8n", "b7b8n"),
        ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8=N+", "b7b8n"),  # wrong check sign
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "exd6e.p.", "e5d6"),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "ed6ep", "e5d6"),
    ],
)
def test_lenient_forms(fen: str | None, text: str, expected: str) -> None:
    pos = Position() if fen is None else parse_fen(fen)
    assert uci(parse_san(pos, text)) == expected
    with pytest.raises(InvalidMoveError):
        parse_san(pos, text, strict=True)


def test_national_letters() -> None:
    """E2: German letters K D T L S; a pawn has no letter (E3)."""
    pos = Position()
    assert uci(parse_san(pos, "Sf3", letters=GERMAN)) == "g1f3"
    with pytest.raises(InvalidMoveError):
        parse_san(pos, "Sf3")
    pos = parse_fen("4k3/8/8/8/8/8/3P4/2B1K3 w - - 0 1")
    assert uci(parse_san(pos, "Lb2", letters=GERMAN)) == "c1b2"
    assert write_san(pos, pos.parse_uci("c1b2"), GERMAN) == "Lb2"
    assert write_san(pos, pos.parse_uci("c1b2"), FIGURINES) == "♗b2"
    with pytest.raises(ValueError, match="different"):
        PieceLetters("K", "K", "R", "B", "N")


def test_ambiguity_lists_the_candidates() -> None:
    pos = parse_fen("8/8/1n6/3R1P2/1n6/2k2K2/3p4/r6r b - - 0 82")
    with pytest.raises(AmbiguousMoveError) as info:
        parse_san(pos, "Rf1")
    assert sorted(info.value.candidates) == ["Raf1+", "Rhf1+"]


@pytest.mark.parametrize("text", ["", "Q@e3", "Nf9", "Xe4", "e4 ", "e9=Q", "N", "O-O-O-O"])
def test_unparseable(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        parse_san(Position(), text)


@pytest.mark.parametrize(
    ("fen", "text", "why"),
    [
        (None, "e5", "no pawn"),
        (None, "Nxe5", "knight"),
        (None, "exd3", "nothing to capture"),
        ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8", "must promote"),
        ("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1", "b3=Q", "last rank"),
        ("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "Nf4", "no knight"),
        ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "O-O", "castling"),
    ],
)
def test_illegal_names_the_reason(fen: str | None, text: str, why: str) -> None:
    pos = Position() if fen is None else parse_fen(fen)
    with pytest.raises(IllegalMoveError, match=why):
        parse_san(pos, text)


def test_pinned_twin_does_not_disambiguate() -> None:
    """E9: only pieces that can legally go there count (the c6 knight is pinned)."""
    pos = parse_fen("r2qkbnr/ppp2ppp/2n5/1B2pQ2/4P3/8/PPP2PPP/RNB1K2R b KQkq - 3 7")
    move = parse_san(pos, "Ne7", strict=True)
    assert write_san(pos, move) == "Ne7"


def test_every_legal_move_round_trips_in_real_games() -> None:
    """Every legal move of every position of some real games: SAN out, SAN in, same move."""
    games = list(read_pgn_file(corpus_path("pgn", "chess.js", "benchmark.pgn")))[:10]
    for game in games:
        pos = game.start_position()
        for record in game.moves:
            for move in pos.legal_moves():
                assert parse_san(pos, write_san(pos, move), strict=True) == move
            pos.push(record.move)


def test_errors_are_move_errors() -> None:
    for error in (AmbiguousMoveError, IllegalMoveError, InvalidMoveError):
        assert issubclass(error, MoveError)
