"""The tempo search (:mod:`chessarbiter.laws.deadpos.tempo`): the idle units behind a wall,
the composed helpmate a ruling's bound left undetermined before, and on a corpus sample it
never contradicts a label."""

from __future__ import annotations

import pytest

from chessarbiter.arbiter.oracles import FLAG_BUDGET
from chessarbiter.core.fen import parse_fen
from chessarbiter.core.squares import WHITE, Side, parse_square
from chessarbiter.laws.deadpos import can_checkmate
from chessarbiter.laws.deadpos.strategy import Found, Spent
from chessarbiter.laws.deadpos.tempo import TempoSearch, idle_units
from tests.laws.corpus_lines import labelled_positions, winnable_label
from tests.laws.lines import mates, python_chess_mates

PASSING = "BbK1kb2/b1p1p1p1/1pP1P1P1/1P6/8/8/8/1B2b2B b - - 0 1"
"""White mates with Bf7 on e8, but its a8 bishop passes e8 on the way: Black's king steps off
and back, White's king off c8 and back, the bishops below the wall giving the tempi (22
plies). Undetermined at a ruling's bound before the tempo search (CHA: 3.7 million nodes)."""


def _squares(names: str) -> int:
    return sum(1 << parse_square(name) for name in names.split())


@pytest.mark.parametrize(
    ("fen", "winner", "idle"),
    [
        (PASSING, WHITE, "b1 e1 h1"),  # below the wall of blocked pawns
        # a pawn that is not a wall (h2) could promote and go anywhere: nothing is idle
        ("BbK1kb2/b1p1p1p1/1pP1P1P1/1P6/8/8/7P/1B2b2B b - - 0 1", WHITE, ""),
        ("4k3/8/8/8/8/8/8/4KNN1 w - - 0 1", WHITE, ""),  # no wall
        # the castling rook and king move together: nothing is idle
        ("BbK1k2r/b1p1p1p1/1pP1P1P1/1P6/8/8/8/1B2b2B b k - 0 1", WHITE, ""),
    ],
)
def test_the_idle_units_are_those_a_wall_shuts_away(fen: str, winner: int, idle: str) -> None:
    assert idle_units(parse_fen(fen, lenient=True), winner) == _squares(idle)


def test_the_helpmate_past_the_losers_king_is_found_with_one_tempo_move_a_side() -> None:
    search = TempoSearch(parse_fen(PASSING), WHITE)
    found = search.run(5_000)
    assert isinstance(found, Found) and len(found.line) == 22, found
    assert mates(PASSING, found.line, WHITE)
    assert search.run(5_000) == Found(found.line, 0)  # decided: nothing more to do
    # a budget too small leaves it spent, and the next run goes on to find it
    short = TempoSearch(parse_fen(PASSING), WHITE)
    assert short.run(1_000) == Spent(1_000)
    assert isinstance(short.run(5_000), Found) and short.nodes <= 5_000


def test_a_ruling_decides_it_and_python_chess_replays_the_mate() -> None:
    pos = parse_fen(PASSING)
    verdict = can_checkmate(pos, WHITE, "full", FLAG_BUDGET)
    assert verdict.winnable and verdict.reason == "tempo search", verdict
    assert verdict.nodes <= 60_000
    assert python_chess_mates(PASSING, verdict.line, WHITE)


def test_without_idle_units_it_does_not_search() -> None:
    search = TempoSearch(parse_fen("4k3/8/8/8/8/8/8/4KNN1 w - - 0 1"), WHITE)
    assert search.run(10_000) == Spent(0) and search.nodes == 0


def test_it_never_contradicts_the_corpus() -> None:
    found = 0
    for label, pos in labelled_positions("chasolver-positions.txt", 4):
        for side in Side:
            if not idle_units(pos, side):
                continue
            ran = TempoSearch(pos, side).run(3_000)
            assert ran.nodes <= 3_000
            if isinstance(ran, Found):
                found += 1
                assert winnable_label(label, side), pos.fen()
                assert mates(pos.fen(), ran.line, side), pos.fen()
    assert found >= 3, found
