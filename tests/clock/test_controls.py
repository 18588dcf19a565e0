"""Periods, time controls and FIDE's classification."""

from __future__ import annotations

import pytest

from chessarbiter.clock import (
    BonusMode,
    Category,
    Period,
    TimeControl,
    TimeControlError,
    classify,
    parse_human,
    parse_pgn_tag,
)

MIN = 60_000


def test_period_validation() -> None:
    with pytest.raises(TimeControlError, match="expected >= 0"):
        Period(-1)
    with pytest.raises(TimeControlError, match="positive count"):
        Period(1000, moves=0)
    with pytest.raises(TimeControlError, match="positive bonus"):
        Period(1000, bonus_ms=5, mode=BonusMode.NONE)
    with pytest.raises(TimeControlError, match="positive bonus"):
        Period(1000, bonus_ms=0, mode=BonusMode.DELAY)
    with pytest.raises(TimeControlError, match="positive bonus"):
        Period(1000, bonus_ms=5, mode=BonusMode.HOURGLASS)


def test_control_validation() -> None:
    with pytest.raises(TimeControlError, match="at least one"):
        TimeControl(())
    with pytest.raises(TimeControlError, match="period 1 is for the rest of the game"):
        TimeControl((Period(MIN), Period(MIN)))


def test_period_index_and_repeat() -> None:
    control = parse_human("40/120, 20/60")
    assert control.repeats
    assert control.period_index(0) == (0, 0)
    assert control.period_index(39) == (0, 39)
    assert control.period_index(40) == (1, 0)
    assert control.period_index(59) == (1, 19)
    assert control.period_index(60) == (1, 0)
    assert control.period_index(85) == (1, 5)
    sudden = parse_human("40/90+30, 30+30")
    assert not sudden.repeats
    assert sudden.period_index(1000) == (1, 960)


def test_time_for_moves() -> None:
    assert parse_human("90+30").time_for_moves(60) == 90 * MIN + 60 * 30_000
    # 40 moves in 90 min, then 30 min: the second period starts within 60 moves.
    assert parse_human("40/90+30, 30+30").time_for_moves(60) == 120 * MIN + 60 * 30_000
    # A period that starts only after the 40th move does not count for 40 moves.
    assert parse_human("40/90, 30").time_for_moves(40) == 90 * MIN
    assert parse_human("40/90, 30").time_for_moves(41) == 120 * MIN


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("5+3", Category.BLITZ),  # 5 + 3 min = 8 min
        ("3+2", Category.BLITZ),
        ("10", Category.BLITZ),  # exactly 10 min: blitz (B.1 "10 minutes or less")
        ("10+1", Category.RAPID),  # 11 min
        ("15+10", Category.RAPID),  # 25 min
        ("59", Category.RAPID),
        ("30+30", Category.STANDARD),  # exactly 60 min: not "less than 60"
        ("60", Category.STANDARD),
        ("40/90+30, 30+30", Category.STANDARD),
    ],
)
def test_fide_classification(text: str, category: Category) -> None:
    """FIDE Laws Appendix A.1 (rapid) and B.1 (blitz), by the time for 60 moves."""
    assert classify(parse_human(text)) == category


def test_classification_of_delay_and_hourglass() -> None:
    assert classify(TimeControl((Period(9 * MIN, None, 2000, BonusMode.DELAY),))) == (
        Category.RAPID
    )
    hourglass = parse_pgn_tag("*180")
    assert isinstance(hourglass, TimeControl)
    assert classify(hourglass) == Category.BLITZ


def test_sudden_death_property() -> None:
    """S10.1: the rest of the game with no time added per move: no increment, no delay (S6.2's
    "incremental mode"; USCF 14H); an hourglass adds none of its own."""
    assert Period(MIN).sudden_death
    assert Period(MIN, None, mode=BonusMode.HOURGLASS).sudden_death
    assert not Period(MIN, None, 5000, BonusMode.DELAY).sudden_death
    assert not Period(MIN, None, 5000, BonusMode.BRONSTEIN).sudden_death
    assert not Period(MIN, None, 5000, BonusMode.INCREMENT).sudden_death
    assert not Period(MIN, 40).sudden_death
