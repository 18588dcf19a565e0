"""The exploration of pawn structures with pieces abstracted to regions (``deadpos.phases``)."""

from __future__ import annotations

import pytest

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.position import Position
from chessarbiter.laws.deadpos import can_checkmate
from chessarbiter.laws.deadpos.phases import phases_unwinnable
from chessarbiter.laws.deadpos.static import statically_unwinnable
from tests.laws.corpus_lines import labelled_positions, winnable_label

SHUFFLES = (
    # bishops shuffle behind locked pawns; the black pawn on a2 is held by the king on a1
    "k1b5/Pp1b4/1P6/8/8/1p6/pP1B4/K1B5 w - - 0 1",
    "k1b1b1b1/Pp1b1b1b/1P6/8/8/1p6/pP1B1B1B/K1B1B1B1 w - - 0 1",
)


@pytest.mark.parametrize("fen", SHUFFLES)
def test_proves_what_the_static_analysis_misses(fen: str) -> None:
    pos = parse_fen(fen)
    for side in (0, 1):
        assert not statically_unwinnable(pos, side)
        assert phases_unwinnable(pos, side, 100)[0]
        verdict = can_checkmate(pos, side, "full", 2_000)
        assert verdict.unwinnable and verdict.reason == "pawn structures"
        assert can_checkmate(pos, side, "quick", 1).unwinnable


def test_a_capture_opens_the_wall() -> None:
    # white can win only after the knight or a pawn capture changes the structure
    pos = parse_fen("8/1k5B/7b/8/1p1p1p1p/1PpP1P1P/2P3K1/N3b3 b - - 0 1")
    assert phases_unwinnable(pos, 0, 100) == (True, 8)
    assert phases_unwinnable(pos, 0, 3) == (False, 3)


@pytest.mark.parametrize(
    "fen",
    [
        "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/2B1KN2 w - - 0 1",
        "7k/5K2/8/8/8/8/8/6N1 b - - 0 1",
    ],
)
def test_never_claims_a_mating_side(fen: str) -> None:
    assert not phases_unwinnable(parse_fen(fen), 0, 5_000)[0]


def test_castling_rights_are_not_analysed() -> None:
    assert phases_unwinnable(Position(), 0, 5_000) == (False, 0)


@pytest.mark.parametrize("name", ["chasolver-positions.txt", "d3chess-test-vector.txt"])
def test_corpus_sample_is_never_wrong(name: str) -> None:
    proved = 0
    for label, pos in labelled_positions(name, 7):
        for side in (0, 1):
            if phases_unwinnable(pos, side, 500)[0]:
                assert not winnable_label(label, side), (pos.fen(), side)
                proved += 1
    assert proved > 0
