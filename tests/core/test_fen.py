"""FEN reading and writing against ../shared/corpus/fen/fen_cases.jsonl and the standard.

Policy where the case sources disagree (the corpus README lists the points):
- fullmove number 0: the FEN standard says the number starts at 1, so strict reading
  rejects it (as chess.js does); lenient reading takes it as 1 (as python-chess does).
- castling letters out of order (``kqKQ``): the standard fixes no order for reading, so
  both modes accept them (as chess.js does); writing is always canonical ``KQkq``.
- a position without both kings is rejected in both modes: no legal move, check or
  mate can be decided without them (python-chess keeps such boards; we do not).
- the en passant square is written after every double step, as the PGN standard's FEN
  says; ``en_passant="legal"`` writes it only when a capture is legal (X-FEN, lichess).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from chessarbiter.core.errors import FenError
from chessarbiter.core.fen import MAX_COUNTER, parse_epd, parse_fen, write_fen
from chessarbiter.core.moves import is_castle
from chessarbiter.core.squares import SQUARE_NAMES
from tests.corpus import CORPUS, corpus_path

FIELDS = {
    "text",
    "piece placement",
    "side to move",
    "castling",
    "en passant",
    "halfmove clock",
    "fullmove number",
}


def _cases() -> list[dict[str, Any]]:
    path = CORPUS / "fen" / "fen_cases.jsonl"
    if not path.exists():
        return [{"id": "corpus-missing", "fen": "", "expect": "reject"}]
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("case", _cases(), ids=lambda c: str(c["id"]))
def test_corpus_case(case: dict[str, Any]) -> None:
    corpus_path("fen", "fen_cases.jsonl")
    fen = case["fen"]
    if case["expect"] == "reject":
        with pytest.raises(FenError) as info:
            parse_fen(fen)
        assert info.value.field in FIELDS
        assert info.value.reason and info.value.field in str(info.value)
        if case.get("chess960_expect") == "accept":
            assert parse_fen(fen, chess960=True).fen() == fen
        return
    pos = parse_fen(fen)
    if case.get("roundtrip") or case.get("category") == "roundtrip":
        assert pos.fen() == fen
    if "ep_square" in case:
        assert SQUARE_NAMES[pos.ep_square] == case["ep_square"]
    if "legal_castling_moves" in case:
        castles = [pos.uci(m) for m in pos.legal_moves() if is_castle(m)]
        assert castles == case["legal_castling_moves"]
    # Every accepted FEN reads back to the same position.
    assert parse_fen(pos.fen()) == pos


def test_lenient_cleans_castling_rights_like_the_case_says() -> None:
    """fen_cases-148: rights ``KQkq`` where only the a1 rook can castle."""
    fen = "1r2k3/8/8/8/8/8/8/R3KR2 w KQkq - 0 1"
    with pytest.raises(FenError, match="castling"):
        parse_fen(fen)
    assert parse_fen(fen, lenient=True).fen() == "1r2k3/8/8/8/8/8/8/R3KR2 w Q - 0 1"


def test_fullmove_zero_policy() -> None:
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0"
    with pytest.raises(FenError, match="fullmove number"):
        parse_fen(fen)
    assert parse_fen(fen, lenient=True).fullmove_number == 1


def test_castling_letters_in_any_order_are_written_canonically() -> None:
    pos = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w kqKQ - 0 1")
    assert pos.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_missing_kings_rejected_even_when_lenient() -> None:
    with pytest.raises(FenError, match="exactly one king"):
        parse_fen("8/8/8/pP6/8/8/8/8 w - a6 0 1", lenient=True)


def test_lenient_accepts_epd_style_and_extra_whitespace() -> None:
    pos = parse_fen("  4k3/8/8/8/8/8/8/4K3   w  - -  ", lenient=True)
    assert pos.fen() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    with pytest.raises(FenError, match="6 fields"):
        parse_fen("4k3/8/8/8/8/8/8/4K3 w - -")


def test_en_passant_written_after_every_double_step_by_default() -> None:
    pos = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    pos.push_uci("e2e4")
    assert pos.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    assert write_fen(pos, en_passant="legal").split()[3] == "-"
    pos.push_uci("d7d5")
    pos.push_uci("e4e5")
    pos.push_uci("f7f5")
    assert write_fen(pos, en_passant="legal").split()[3] == "f6"


def test_chess960_castling_fields() -> None:
    """X-FEN letters for the outermost rook, file letters otherwise; Shredder on request."""
    fen = "rk2r3/8/8/8/8/8/8/RK2R3 w KQkq - 0 1"
    pos = parse_fen(fen, chess960=True)
    assert pos.fen() == fen
    assert write_fen(pos, castling="shredder").split()[2] == "EAea"
    assert parse_fen("rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1", chess960=True) == pos
    inner = parse_fen("4k3/8/8/8/8/8/8/RR2K3 w B - 0 1", chess960=True)
    assert inner.fen().split()[2] == "B"
    with pytest.raises(FenError, match="castling"):
        parse_fen(fen)  # king on b1 cannot castle in standard chess


@pytest.mark.parametrize(
    ("fen", "field", "words"),
    [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move", "'x'"),
        ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement", "9"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e5 0 1", "en passant", "rank 6"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - a 1", "halfmove clock", "'a'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1", "castling", "'z'"),
        ("4k3/8/8/8/8/8/8/4K2R w KK - 0 1", "castling", "repeated"),
        ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "en passant", "double step"),
    ],
)
def test_errors_name_field_and_reason(fen: str, field: str, words: str) -> None:
    with pytest.raises(FenError) as info:
        parse_fen(fen)
    assert info.value.field == field
    assert words in str(info.value)


def test_non_string_input() -> None:
    with pytest.raises(FenError, match="expected a string"):
        parse_fen(None)  # type: ignore[arg-type]


def test_epd_operations_and_clocks() -> None:
    pos, ops = parse_epd('4k3/8/8/8/8/8/8/4K3 w - - hmvc 12; fmvn 40; id "K v K";')
    assert (pos.halfmove_clock, pos.fullmove_number) == (12, 40)
    assert ops["id"] == "K v K"
    with pytest.raises(FenError, match="4 position fields"):
        parse_epd("4k3/8/8/8/8/8/8/4K3 w")


KINGS = "4k3/8/8/8/8/8/8/4K3 w - -"


@pytest.mark.parametrize("lenient", [False, True])
@pytest.mark.parametrize(
    ("counters", "field"),
    [
        (f"0 {'9' * 5000}", "fullmove number"),  # beyond Python's int-string limit
        (f"{'9' * 5000} 1", "halfmove clock"),
        ("1000000000 1", "halfmove clock"),
        ("0 1000000000", "fullmove number"),
        ("0 ⁵", "fullmove number"),  # str.isdigit() accepts superscripts, int() does not
        ("٣ 1", "halfmove clock"),  # Arabic-Indic digits: not FEN
    ],
)
def test_counters_are_ascii_numbers_up_to_a_maximum(counters: str, field: str,
                                                    lenient: bool) -> None:
    with pytest.raises(FenError) as info:
        parse_fen(f"{KINGS} {counters}", lenient=lenient)
    assert info.value.field == field
    assert len(str(info.value)) < 300  # a long FEN is quoted cut short
    if "0000" in counters or "9999" in counters:
        assert f"at most {MAX_COUNTER}" in str(info.value)


def test_counters_up_to_the_maximum_are_read() -> None:
    pos = parse_fen(f"{KINGS} {MAX_COUNTER} {MAX_COUNTER}")
    assert (pos.halfmove_clock, pos.fullmove_number) == (MAX_COUNTER, MAX_COUNTER)
    assert parse_fen(f"{KINGS} {'0' * 5000}12 {'0' * 20}3").fullmove_number == 3


def test_epd_clock_operations_are_checked_like_fen_counters() -> None:
    with pytest.raises(FenError) as info:
        parse_epd(f"{KINGS} hmvc 1; fmvn {'9' * 5000};")
    assert info.value.field == "fullmove number"
