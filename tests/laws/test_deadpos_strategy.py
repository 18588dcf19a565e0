"""One interface for every helpmate search (``strategy.Strategy``): the full mode's schedule
names only strategies, each run keeps to its budget, reports exactly the nodes the deadline
counted, and a strategy that resumes goes on where it stopped."""

from __future__ import annotations

import pytest

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.position import Position
from chessarbiter.core.squares import BLACK, WHITE
from chessarbiter.laws.deadpos import can_checkmate
from chessarbiter.laws.deadpos.api import SCHEDULE, SEARCHES, SECOND, _bishops_only
from chessarbiter.laws.deadpos.deadline import Deadline
from chessarbiter.laws.deadpos.search import CostSearch, _Helpmate
from chessarbiter.laws.deadpos.strategy import Found, Proved, Spent, Strategy
from tests.laws.lines import mates

KNIGHTS = "4k3/8/8/8/8/8/8/4KNN1 w - - 0 1"
"""K+NN v K: a helpmate every strategy but the staged search (pawns only) can find."""
PAWNS = "6kB/p3p1P1/2p3P1/p7/8/K3P3/P1P5/8 w - - 0 1"
"""A winner (Black) with nothing but pawns: the staged search's case."""
LOCKED = "k1b5/1p1p4/1P1P4/2K5/8/8/8/8 b - - 0 1"
"""A locked position: the exploration and the progress search prove it for White."""


def _strategies(pos: Position, winner: int) -> list[Strategy]:
    made: list[Strategy] = [make(pos, winner) for make in SEARCHES.values()]
    made.append(CostSearch(pos, winner, 12, stop_at_cut=False))
    return made


def test_the_schedule_names_only_strategies() -> None:
    for schedule in (SCHEDULE, SECOND):
        assert {name for name, _ in schedule} == set(SEARCHES)
        assert all(share >= 1 for _, share in schedule)


@pytest.mark.parametrize(
    ("fen", "winner", "expected"),
    [
        ("k1b1b3/8/8/1pBpBpBp/1PbPbPbP/8/8/K1B1B3 w - - 0 1", 1, True),
        ("k1b1b3/8/8/1pBpBpBp/1PbPbPbP/8/8/K1B1B3 w - - 0 1", 0, True),
        ("k1b1b3/8/8/1pBpBpBp/1PbPbPbP/8/8/K1B1N3 w - - 0 1", 0, False),
        ("k1b1b3/8/8/1pBpBpBp/1PbPbPbP/8/8/K1B1R3 w - - 0 1", 0, False),
        ("k1b1b3/8/8/1pBpBpBp/1PbPbPbP/8/8/K1B1Q3 w - - 0 1", 0, False),
        ("k7/8/8/1p6/1P6/8/8/K7 w - - 0 1", 0, False),
    ],
)
def test_the_second_round_leads_with_the_progress_search_only_for_bishops(
    fen: str, winner: int, expected: bool
) -> None:
    assert _bishops_only(parse_fen(fen), winner) is expected


@pytest.mark.parametrize(("fen", "winner"), [(KNIGHTS, 0), (PAWNS, 1), (LOCKED, 0)])
def test_each_run_keeps_to_its_budget_and_counts_exactly(fen: str, winner: int) -> None:
    for strategy in _strategies(parse_fen(fen), winner):
        deadline = Deadline()
        total = 0
        for budget in (200, 3_000, 20_000):
            outcome = strategy.run(budget, deadline)
            assert 0 <= outcome.nodes <= budget, (type(strategy).__name__, outcome)
            total += outcome.nodes
            assert deadline.nodes == total, type(strategy).__name__
            if isinstance(outcome, Found):
                assert mates(fen, outcome.line, winner), type(strategy).__name__
            if isinstance(outcome, Proved):
                assert fen == LOCKED, type(strategy).__name__
            if not isinstance(outcome, Spent):
                break
        if strategy.resumes:
            assert strategy.nodes == total


def test_the_searches_find_and_prove_through_one_interface() -> None:
    found = {type(s).__name__ for s in _strategies(parse_fen(KNIGHTS), 0)
             if isinstance(s.run(20_000, Deadline()), Found)}
    assert {"BestFirst", "GuidedSearch", "Progress"} <= found, found
    proved = {type(s).__name__ for s in _strategies(parse_fen(LOCKED), 0)
              if isinstance(s.run(20_000, Deadline()), Proved)}
    assert "Exploration" in proved, proved


def test_a_verdict_counts_the_nodes_whether_it_finishes_or_not() -> None:
    # The deadline counts every node of every search; a verdict reports that count, so a
    # clock that never runs out and no clock at all give the same count.
    pos = parse_fen("7k/8/8/3B4/8/6p1/1b4Pp/2b4K w - - 0 1")
    plain = can_checkmate(pos, WHITE)
    timed = can_checkmate(pos, WHITE, seconds=10.0, clock=lambda: 0.0)
    assert plain == timed and plain.winnable and plain.nodes > 0


@pytest.mark.parametrize(
    ("fen", "nodes"),
    [
        # the walk of quiet moves plays six plies and finds no seventh: its six, then the
        # search's seven
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6 + 7),
        (KNIGHTS, 7),
    ],
)
def test_the_quick_proof_search_meets_its_first_cut_within_seven_nodes(
    fen: str, nodes: int
) -> None:
    # cost 6 allows six moves of cost 1, taken first: the seventh node's is the cut (the
    # cheapest moves first took 20 and 22 nodes)
    outcome = CostSearch(parse_fen(fen), WHITE, 6, stop_at_cut=True).run(400)
    assert outcome == Spent(nodes)


@pytest.mark.parametrize(
    ("fen", "nodes"),
    [
        (KNIGHTS, 7),  # the cut: six plies of cost 1 and one more
        # the kings boxed in, the other units' moves walk six plies, then none is quiet
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6),
        ("7k/8/8/8/8/pp6/PPp5/KB6 w - - 0 1", 0),  # White cannot move without capturing
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0),  # no mating material: no cut
    ],
)
def test_a_walk_of_quiet_moves_meets_the_cut_without_a_list_of_moves(fen: str, nodes: int) -> None:
    pos = parse_fen(fen)
    helper = _Helpmate(pos, WHITE, 400, True, Deadline())
    assert helper.quiet_walk(6) is (nodes == 7)
    assert helper.nodes == nodes
    assert pos.fen() == fen


@pytest.mark.parametrize(
    ("fen", "winner", "nodes"),
    [
        # Black's king on a8 or b8 has no step away from the mating corner: White's king
        # steps nearer it at a cost of 0 (d1-c1), so eight moves spend the cost
        ("1k2r3/8/8/8/3K4/8/8/8 w - - 0 1", BLACK, 8),
        # Black's king has nothing but captures at first: Kxh2 costs 2
        ("8/8/8/8/8/6pk/6NN/6K1 w - - 0 1", WHITE, 6),
    ],
)
def test_the_walk_takes_a_free_move_or_a_losers_capture_where_no_move_of_cost_1_is_left(
    fen: str, winner: int, nodes: int
) -> None:
    pos = parse_fen(fen)
    helper = _Helpmate(pos, winner, 400, True, Deadline())
    assert helper.quiet_walk(6)
    assert helper.nodes == nodes
    assert pos.fen() == fen


def test_the_walk_never_comes_back_to_a_position() -> None:
    # the kings could shuffle to and fro, but the search's table passes over a position
    # seen before with as much cost left: every line is exhausted, for both sides
    pos = parse_fen("k1b5/1p1p4/1P1P4/1P6/KP6/1P6/PP6/8 w - - 0 1")
    for winner in (WHITE, BLACK):
        assert not _Helpmate(pos, winner, 400, True, Deadline()).quiet_walk(6)
        verdict = can_checkmate(pos, winner, "quick")
        assert (verdict.unwinnable, verdict.reason) == (True, "search")
