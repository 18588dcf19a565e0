"""The time bound of ``can_checkmate`` (rulings on flags, Art. 6.9, never wait for ever):
an injected clock, never a sleep."""

from __future__ import annotations

import pytest

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.squares import WHITE, Side
from chessarbiter.laws.deadpos import Winnability, can_checkmate
from chessarbiter.laws.deadpos.deadline import EVERY, Deadline, TimeUp

HARD = "k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - - 0 1"
"""A composed bishop wall the full analysis does not decide within its default budget."""


class FakeClock:
    """A clock that advances one second each time it is read."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return float(self.reads)


def test_past_the_deadline_the_verdict_is_undetermined() -> None:
    clock = FakeClock()
    verdict = can_checkmate(parse_fen(HARD), WHITE, "full", seconds=3, clock=clock)
    assert verdict.outcome is Winnability.UNDETERMINED
    assert verdict.reason == "time"
    assert clock.reads == 4  # set at 1, read at 2, 3 and 4 >= 1 + 3


def test_a_clock_that_stands_still_changes_no_verdict() -> None:
    pos = parse_fen("8/8/4k3/8/8/8/3QK3/8 w - - 0 1")
    timed = can_checkmate(pos, WHITE, seconds=0.5, clock=lambda: 0.0)
    assert timed == can_checkmate(pos, WHITE)
    assert timed.winnable


def test_the_deadline_reads_the_clock_every_so_many_nodes() -> None:
    clock = FakeClock()
    deadline = Deadline(10.0, clock)
    for _ in range(EVERY * 5):
        deadline.tick()
    assert clock.reads == 1 + 5
    with pytest.raises(TimeUp):
        for _ in range(EVERY * 10):
            deadline.tick()


@pytest.mark.parametrize("seconds", [-1.0, float("nan")])
def test_bad_seconds_are_refused(seconds: float) -> None:
    with pytest.raises(ValueError, match="seconds"):
        can_checkmate(parse_fen(HARD), WHITE, seconds=seconds)


def test_the_caged_kings_are_proved_for_both_sides_within_a_small_budget() -> None:
    # Both kings are caged; White has only pawn moves and runs out of them before Black can
    # promote and mate, and White needs Black's promotion first. The exploration of every
    # reachable position proves it for both sides (about 49,000 positions, after a smaller
    # probe and the progress search's first turn), which rulings on a flag (Art. 6.9) need
    # within their time bound.
    pos = parse_fen("8/3p1p1p/8/1p6/1P6/KP6/PP1P1P1P/k7 w - - 0 1")
    for side in Side:
        verdict = can_checkmate(pos, side, "full")
        assert verdict.unwinnable, verdict
        assert verdict.nodes < 76_000


def test_a_verdict_cut_short_reports_the_nodes_searched() -> None:
    # The clock is read when the deadline is set and every EVERY nodes or proof steps after:
    # the third reading after it ends the analysis, at most 3 * EVERY nodes in.
    verdict = can_checkmate(parse_fen(HARD), WHITE, "full", seconds=3, clock=FakeClock())
    assert verdict.reason == "time"
    assert 2 * EVERY < verdict.nodes <= 3 * EVERY


FOUND_LATE = "7k/8/8/3B4/8/6p1/1b4Pp/2b4K w - - 0 1"
"""White mates (the best-first search finds it after about 17,000 nodes)."""


@pytest.mark.parametrize("budget", [None, 600_000, 10**9])
def test_a_larger_budget_never_loses_a_verdict_to_the_deadline(budget: int | None) -> None:
    # The default budget decides it within 100 readings of the clock; a larger budget does
    # the same work first, so it decides it within them too (when its shares were taken
    # from the whole budget, the first search alone outlasted the deadline).
    pos = parse_fen(FOUND_LATE)
    default = can_checkmate(pos, WHITE, "full")
    verdict = can_checkmate(pos, WHITE, "full", budget, seconds=100, clock=FakeClock())
    assert verdict.winnable and verdict == default

