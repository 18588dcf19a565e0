"""Time management under every clock mode."""

from __future__ import annotations

import pytest

from chessarbiter.clock import BonusMode, Period, TimeControl, parse_human
from chessarbiter.engines.timeman import MIN_THINK_MS, Budget, budget, budget_for


def test_sudden_death_spreads_the_clock_over_the_moves_to_come() -> None:
    b = budget(60_000)
    assert 1_500 <= b.target <= 2_500
    assert b.target < b.maximum <= 30_000


def test_less_time_gives_a_smaller_budget() -> None:
    assert budget(10_000).target < budget(60_000).target


def test_an_increment_is_mostly_spent() -> None:
    plain, with_inc = budget(60_000), budget(60_000, BonusMode.INCREMENT, 2_000)
    assert with_inc.target - plain.target == 1_500


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
    assert budget_for(control, 40, 900_000) == budget(900_000, BonusMode.INCREMENT, 30_000)


def test_budget_for_a_parsed_blitz_control() -> None:
    assert budget_for(parse_human("3+2"), 10, 150_000) == budget(
        150_000, BonusMode.INCREMENT, 2_000
    )
