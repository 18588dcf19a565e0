"""Time management under every clock mode, and games on a slow machine's clock (time
driven by the nodes searched, no sleeping) that never flag."""

from __future__ import annotations

import pytest

from chessarbiter.clock import BonusMode, Clock, Period, TimeControl, parse_human
from chessarbiter.clock.parse import parse_control, parse_us
from chessarbiter.clock.records import Side
from chessarbiter.core.position import Position
from chessarbiter.engines.builtin import BuiltinEngine
from chessarbiter.engines.search import CHECK_EVERY, Limits, Searcher
from chessarbiter.engines.timeman import (
    EMERGENCY_MS,
    INCREMENT_MIN_MOVES_LEFT,
    INCREMENT_MOVES_LEFT,
    INCREMENT_SPENT_BY,
    MIN_THINK_MS,
    MOVE_OVERHEAD_MS,
    OVERHEAD_SAMPLES,
    Budget,
    Timekeeper,
    budget,
    budget_for,
    increment_moves_left,
)
from tests.engines.helpers import NodeTime, TickingTime


def test_sudden_death_spreads_the_clock_over_the_moves_to_come() -> None:
    b = budget(60_000)
    assert 1_500 <= b.target <= 2_500
    assert b.target < b.maximum <= 30_000


def test_less_time_gives_a_smaller_budget() -> None:
    assert budget(10_000).target < budget(60_000).target


def test_an_increment_is_mostly_spent() -> None:
    with_inc = budget(60_000, BonusMode.INCREMENT, 2_000, overhead_ms=0)
    assert with_inc.target - 60_000 // INCREMENT_MOVES_LEFT == 1_500


def test_an_increment_is_not_spent_before_it_is_given() -> None:
    b = budget(1_000, BonusMode.INCREMENT, 10_000)
    assert b.maximum <= 500
    assert b.target <= b.maximum


@pytest.mark.parametrize("mode", [BonusMode.DELAY, BonusMode.BRONSTEIN])
def test_a_delay_is_free_time(mode: BonusMode) -> None:
    b = budget(1_000, mode, 5_000)
    assert b.target >= 5_000
    assert b.maximum <= 500 + 5_000


def test_hourglass_spends_sparingly() -> None:
    b = budget(60_000, BonusMode.HOURGLASS)
    assert b.target < budget(60_000).target
    assert b.maximum <= 15_000


def test_moves_to_go_share_the_period() -> None:
    assert 9_000 <= budget(100_000, moves_to_go=10).target <= 10_000
    assert budget(100_000, moves_to_go=5).target > budget(100_000, moves_to_go=20).target


def test_the_last_move_before_the_control_keeps_a_reserve() -> None:
    b = budget(100_000, moves_to_go=1)
    assert b.maximum <= 50_000
    assert b.target == b.maximum


def test_an_empty_clock_still_allows_a_minimal_think() -> None:
    assert budget(0) == Budget(MIN_THINK_MS, MIN_THINK_MS)


@pytest.mark.parametrize(("remaining", "bonus", "to_go"), [(-1, 0, None), (1000, -5, None),
                                                            (1000, 0, 0)])
def test_bad_input_is_refused(remaining: int, bonus: int, to_go: int | None) -> None:
    with pytest.raises(ValueError, match="expected"):
        budget(remaining, BonusMode.INCREMENT, bonus, to_go)


def test_budget_for_a_multi_period_control() -> None:
    control = TimeControl((
        Period(7_200_000, 40),
        Period(1_800_000, None, 30_000, BonusMode.INCREMENT),
    ))
    assert budget_for(control, 39, 600_000) == budget(600_000, moves_to_go=1)
    assert budget_for(control, 0, 7_200_000) == budget(7_200_000, moves_to_go=40)
    assert budget_for(control, 40, 900_000) == budget(900_000, BonusMode.INCREMENT, 30_000,
                                                      moves_made=40)


def test_budget_for_a_parsed_blitz_control() -> None:
    assert budget_for(parse_human("3+2"), 10, 150_000) == budget(
        150_000, BonusMode.INCREMENT, 2_000, moves_made=10
    )


def test_under_an_increment_the_own_time_is_spent_by_the_middlegame() -> None:
    assert increment_moves_left(None) == increment_moves_left(0) == INCREMENT_MOVES_LEFT
    assert increment_moves_left(INCREMENT_SPENT_BY - 15) == 15
    assert increment_moves_left(INCREMENT_SPENT_BY) == INCREMENT_MIN_MOVES_LEFT
    assert increment_moves_left(200) == INCREMENT_MIN_MOVES_LEFT
    later = budget(5_000, BonusMode.INCREMENT, 100, moves_made=INCREMENT_SPENT_BY - 5)
    assert later.target > budget(5_000, BonusMode.INCREMENT, 100, moves_made=5).target
    assert later.target == (5_000 - MOVE_OVERHEAD_MS) // INCREMENT_MIN_MOVES_LEFT + 75


def test_the_moves_made_change_no_budget_without_an_increment() -> None:
    assert budget(10_000, moves_made=35) == budget(10_000)
    assert budget(1_000, BonusMode.DELAY, 2_000, moves_made=35) == budget(
        1_000, BonusMode.DELAY, 2_000)


@pytest.mark.parametrize("remaining", [100, 250, 400, 600, 900])
def test_an_emergency_spends_less_than_the_increment(remaining: int) -> None:
    b = budget(remaining, BonusMode.INCREMENT, 100)
    assert b.target < 100 - MOVE_OVERHEAD_MS // 2  # the clock grows back
    assert b.maximum <= max(remaining // 4, MIN_THINK_MS)


def test_outside_an_emergency_most_of_the_increment_is_spent() -> None:
    assert budget(EMERGENCY_MS + MOVE_OVERHEAD_MS, BonusMode.INCREMENT, 100).target >= 100


def test_move_overhead_is_kept_back_for_every_move_to_come() -> None:
    assert budget(10_000, overhead_ms=100).target == (10_000 - 100 - 29 * 100) // 30
    assert budget(10_000, BonusMode.INCREMENT, 100, overhead_ms=100).target == (
        (10_000 - 100) // INCREMENT_MOVES_LEFT + 75)
    assert budget(100, overhead_ms=100) == Budget(MIN_THINK_MS, MIN_THINK_MS)


def test_a_delay_with_no_time_of_its_own_keeps_a_margin_inside_the_delay() -> None:
    b = budget(0, BonusMode.DELAY, 1_000)
    assert 500 <= b.target <= b.maximum <= 1_000 - MOVE_OVERHEAD_MS - 200


@pytest.mark.parametrize("moves_known", [False, True])
def test_a_slowed_player_never_flags_at_ten_seconds_and_a_tenth(moves_known: bool) -> None:
    """A player that loses its overhead and 20 ms more every move, and on every tenth move
    spends its whole maximum and loses 100 ms more, still has time after 300 moves at
    10 s + 0.1 s: the emergency mode lets the clock grow back."""
    clock = 10_000
    lowest = clock
    for move in range(300):
        think = budget(clock, BonusMode.INCREMENT, 100, moves_made=move if moves_known else None)
        spent = (think.maximum + 100 if move % 10 == 0 else think.target) + MOVE_OVERHEAD_MS + 20
        assert spent < clock
        clock += 100 - spent
        lowest = min(lowest, clock)
    assert lowest > 300


class _Game:
    """The built-in engine playing itself on a real clock driven by a slow machine's time:
    ``ms_per_node`` for each node searched and ``latency_ms`` more per move outside the
    search (two moves in ten three times as much). Each side's budget comes from a
    :class:`Timekeeper`, the way the players use it."""

    def __init__(self, control: TimeControl, ms_per_node: float, latency_ms: int) -> None:
        self.time = NodeTime(ms_per_node)
        self.engine = BuiltinEngine(now=self.time, tt_entries=1 << 14)
        self.time.attach(self.engine.searcher)
        self.keepers = [Timekeeper(now=self.time) for _ in range(2)]
        self.clock = Clock(control, now=self.time)
        self.control = control
        self.latency_ms = latency_ms

    def play(self, plies: int) -> int:
        """Play up to ``plies`` moves; the lowest display seen after a move."""
        pos = Position()
        self.clock.start()
        lowest = self.clock.remaining(Side.WHITE)
        for ply in range(plies):
            side = Side(pos.turn)
            remaining = self.clock.remaining(side)
            think = self.keepers[pos.turn].budget_for(self.control, ply // 2, remaining)
            move = self.engine.choose(pos, budget=think).move
            if move is None:
                break
            self.time()  # the nodes searched since the search last read the time
            self.keepers[pos.turn].moved()
            self.time.wait(self.latency_ms * (3 if ply % 10 < 2 else 1))
            assert not self.clock.flags, f"flag at ply {ply}"
            self.clock.complete_move(side)
            lowest = min(lowest, self.clock.remaining(side))
            pos.push(move)
        return lowest


@pytest.mark.parametrize(
    ("control", "plies", "ms_per_node", "latency_ms"),
    [("0.1667+0.1", 160, 1.0, 40), ("0.1667+0.1", 160, 1.0, 60), ("G/0;d1", 60, 3.0, 40),
     ("0.1+0", 100, 1.0, 40), ("10/0.1, 0.1+0.05", 100, 1.0, 40)],
)
def test_the_engine_never_flags_on_a_slow_machine(
    control: str, plies: int, ms_per_node: float, latency_ms: int
) -> None:
    """Seconds-long controls at 1,000 nodes/s or less with 40 or 60 ms lost every move
    (three times as much on some): no flag falls, whether under an increment, a delay with
    no time of its own, sudden death or moves to go."""
    tc = parse_us(control) if control.startswith("G/") else parse_control(control)
    assert tc is not None
    lowest = _Game(tc, ms_per_node, latency_ms).play(plies)
    assert lowest >= 0 if tc.periods[0].mode is BonusMode.DELAY else lowest > 0


def test_the_hard_maximum_is_kept_to_within_a_few_nodes() -> None:
    time = NodeTime(ms_per_node=2.0)
    searcher = Searcher(now=time)
    time.attach(searcher)
    searcher.search(Position(), Limits(soft_ms=10_000, hard_ms=300))
    time()
    assert 300 <= time.ms <= 300 + CHECK_EVERY * 2.0


def test_a_timekeeper_learns_the_time_lost_outside_the_search() -> None:
    time = TickingTime(step=0)
    keeper = Timekeeper(floor_ms=50, now=time)
    assert keeper.budget(10_000, BonusMode.INCREMENT, 100, move_number=0) == budget(
        10_000, BonusMode.INCREMENT, 100, None, 50)
    time.ms += 200  # thinks 200 ms; the clock shows 300 ms less than that explains
    keeper.moved()
    think = keeper.budget(10_000 - 200 + 100 - 300, BonusMode.INCREMENT, 100, move_number=1)
    assert keeper.overhead_ms == 300
    assert think == budget(9_600, BonusMode.INCREMENT, 100, None, 300)


def test_a_timekeeper_forgets_old_losses_and_skips_unrelated_moves() -> None:
    time = TickingTime(step=0)
    keeper = Timekeeper(floor_ms=50, now=time)
    keeper.budget(10_000, move_number=0)
    keeper.moved()
    keeper.budget(9_000, move_number=1)  # 1,000 ms lost
    assert keeper.overhead_ms == 1_000
    keeper.moved()
    keeper.budget(5_000, move_number=5)  # not the next move: nothing learnt
    assert keeper.overhead_ms == 1_000
    for move in range(6, 6 + OVERHEAD_SAMPLES):
        keeper.moved()
        keeper.budget(5_000 - 10 * (move - 5), move_number=move)  # 10 ms lost each
    assert keeper.overhead_ms == 50


def test_a_timekeeper_counts_a_think_beyond_the_maximum_as_lost() -> None:
    time = TickingTime(step=0)
    keeper = Timekeeper(floor_ms=50, now=time)
    think = keeper.budget(5_000, BonusMode.INCREMENT, 100, move_number=0)
    time.ms += think.maximum + 700  # a starved search
    keeper.moved()
    keeper.budget(5_000 - think.maximum - 700 + 100, BonusMode.INCREMENT, 100, move_number=1)
    assert keeper.overhead_ms == 700
