"""The best-first helpmate search and its estimate: minor-piece mates that need the loser's
pieces as blockers, a pawn wall, a winner's king shut in its corner, the budget, the
position left as it was; the estimate's corner, blocker and promotion terms."""

from __future__ import annotations

import pytest

from chessarbiter.core.fen import parse_fen
from chessarbiter.laws.deadpos.bestfirst import BestFirst, bestfirst_helpmate
from chessarbiter.laws.deadpos.bitboards import KNIGHT_DISTANCE
from chessarbiter.laws.deadpos.estimate import (
    Estimate,
    blockers_needed,
    promotion_moves,
)
from chessarbiter.laws.deadpos.strategy import Found, Spent
from tests.laws.lines import mates


@pytest.mark.parametrize(
    ("fen", "winner", "nodes"),
    [
        ("4kb2/8/8/8/8/8/8/3K1N2 w - - 0 1", 0, 5_000),  # K+N v K+B: a light corner
        ("4k3/8/8/8/8/8/8/4KNN1 w - - 0 1", 0, 10_000),  # K+NN v K
        ("4r2k/8/8/8/8/8/8/K4N2 w - - 0 1", 0, 10_000),  # K+N v K+R
        ("8/2k5/1n6/8/8/8/2KB4/8 w - - 0 1", 1, 5_000),  # K+N v K+B, the knight mates
        ("8/7k/4p1p1/3pP1Pp/3Pp2P/4Pp2/5P1K/6B1 b - - 0 1", 0, 5_000),  # a pawn wall
        ("k7/1b6/2b5/8/8/1pB5/pP6/K7 w - - 0 1", 0, 10_000),  # the winner's king shut in a1
        ("8/4b3/3b1k2/8/8/5Bp1/6Pp/7K w - - 0 1", 0, 10_000),  # and in h1: mate in a8
        ("1k6/bPp5/BpP4b/1P6/8/7B/8/5B1K b - - 0 1", 1, 10_000),  # blockers in a light corner
        ("1k6/8/1p1p1p1p/1P1P1P1P/3pB1K1/3Pb3/8/8 w - - 0 1", 1, 10_000),  # behind a wall
    ],
)
def test_best_first_finds_helpmates_the_guide_misses(fen: str, winner: int, nodes: int) -> None:
    pos = parse_fen(fen)
    line, used = bestfirst_helpmate(pos, winner, nodes)
    assert line and used <= nodes and mates(fen, line, winner)
    assert pos.fen() == fen


def test_a_paused_best_first_search_goes_on_as_if_never_stopped() -> None:
    fen = "4k3/8/8/8/8/8/8/4KNN1 w - - 0 1"
    at_once = bestfirst_helpmate(parse_fen(fen), 0, 10_000)
    search = BestFirst(parse_fen(fen), 0)
    assert search.run(300) == Spent(300) and search.nodes == 300 and not search.dry
    assert search.run(10_000 - 300) == Found(at_once[0], at_once[1] - 300)
    assert search.nodes == at_once[1]
    assert mates(fen, search.found, 0)


def test_best_first_stops_at_its_budget() -> None:
    fen = "3k1b2/8/8/8/B1B1B1B1/1B1B1B1B/B1B1B1B1/1B1K1B1B w - - 0 1"
    pos = parse_fen(fen)
    assert bestfirst_helpmate(pos, 0, 500) == ((), 500)
    assert pos.fen() == fen


def test_the_estimate_falls_as_the_mate_comes_near() -> None:
    estimate = Estimate(0)
    far = estimate.plies(parse_fen("4kb2/8/8/8/8/8/8/3K1N2 w - - 0 1"))
    near = estimate.plies(parse_fen("kb6/8/K7/8/8/3N4/8/8 w - - 0 1"))
    assert near < far and KNIGHT_DISTANCE[0][63] == 6


def test_a_shut_in_winner_king_keeps_the_loser_king_from_its_corner() -> None:
    estimate = Estimate(0)  # White's king cannot leave h1: the mate is in a8
    toward_a8 = estimate.plies(parse_fen("8/8/1k6/3B4/8/6p1/1b4Pp/2b4K b - - 0 1"))
    toward_h1 = estimate.plies(parse_fen("8/8/8/3B4/6k1/6p1/1b4Pp/2b4K b - - 0 1"))
    assert toward_a8 < toward_h1


def test_blockers_a_lone_bishop_needs_in_its_corner() -> None:
    bishops = 1 << 35  # d5, light: a8's dark flights a7 and b8 need the loser's units
    empty = parse_fen("k7/8/8/3B4/8/8/2b5/4K1b1 b - - 0 1")
    one = parse_fen("k7/b7/8/3B4/8/8/8/4K1b1 b - - 0 1")
    corners = 1 << 56 | 1 << 7
    assert blockers_needed(empty, 1, 56, corners, bishops) == 2
    assert blockers_needed(one, 1, 56, corners, bishops) == 1


def test_a_blocked_pawn_promotes_round_its_file() -> None:
    free = parse_fen("k7/8/8/8/8/8/4P3/4K3 w - - 0 1")
    blocked = parse_fen("k7/4p3/8/8/8/8/4P3/4K3 w - - 0 1")
    offered = parse_fen("k7/4p3/8/3n4/8/8/4P3/4K3 w - - 0 1")
    assert promotion_moves(free, 0) == 6
    assert promotion_moves(offered, 0) == 6 < promotion_moves(blocked, 0)
