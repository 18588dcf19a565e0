"""Correspondence: a per-move deadline in days, its written form and its clock."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chessarbiter.clock import (
    DAYS_PER_TURN,
    BonusMode,
    Clock,
    CorrespondenceError,
    Flag,
    Period,
    Side,
    Start,
    TimeControl,
    TimeControlError,
    correspondence,
    days_per_turn,
    deadline_ms,
    format_correspondence,
    format_human,
    format_pgn_tag,
    format_us,
    parse_correspondence,
    parse_human,
)
from chessarbiter.clock.correspondence import DAY, looks_like_correspondence
from chessarbiter.present.controls import control_words, deadline_words
from tests.clock.fake_time import FakeTime

HOUR = 3_600_000
W, B = Side.WHITE, Side.BLACK


@pytest.mark.parametrize("text, days", [
    ("3d", 3), ("corr 3d", 3), ("Corr 14d", 14), ("1 day", 1), ("10 days", 10),
    ("  correspondence 5d ", 5), ("60d", 60),
])
def test_written_forms(text: str, days: int) -> None:
    control = parse_correspondence(text)
    assert control == correspondence(days)
    assert (days_per_turn(control), deadline_ms(control)) == (days, days * DAY)
    assert format_correspondence(control) == f"{days}d"
    assert parse_correspondence(format_correspondence(control)) == control
    assert looks_like_correspondence(text)


@pytest.mark.parametrize("text, says", [
    ("0d", "0 days per move: expected 1 to 60"),
    ("61d", "61 days per move"),
    ("3.5d", "'3.5': expected a whole number of days"),
    ("-2d", "'-2': expected a whole number of days"),
    ("corr 3", "expected days per move as 'Nd' or 'corr Nd'"),
    ("3h", "expected days per move"),
    ("", "expected days per move"),
])
def test_bad_forms_name_the_text(text: str, says: str) -> None:
    with pytest.raises(CorrespondenceError, match=says.replace(".", r"\.")) as caught:
        parse_correspondence(text)
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, TimeControlError)
    assert repr(text) in str(caught.value)


def test_clock_forms_are_not_correspondence() -> None:
    for text in ("5+3", "G/60;d5", "40/90+30, 30+30", "2h", "10s+0.1s"):
        assert not looks_like_correspondence(text)
        assert days_per_turn(parse_human(text.replace("G/60;d5", "60"))) is None
    assert days_per_turn(None) is None
    assert DAYS_PER_TURN == (1, 2, 3, 5, 7, 10, 14)


def test_deadline_periods_are_checked() -> None:
    with pytest.raises(TimeControlError, match="expected a time for each move"):
        Period(DAY, moves=10, mode=BonusMode.DEADLINE)
    with pytest.raises(TimeControlError, match="expected a time for each move"):
        Period(0, mode=BonusMode.DEADLINE)
    with pytest.raises(TimeControlError, match="bonus"):
        Period(DAY, bonus_ms=5, mode=BonusMode.DEADLINE)
    with pytest.raises(TimeControlError, match="whole control"):
        TimeControl((Period(DAY, 40), Period(DAY, mode=BonusMode.DEADLINE)))
    with pytest.raises(CorrespondenceError):
        format_correspondence(parse_human("5+3"))
    with pytest.raises(CorrespondenceError, match="whole days"):
        format_correspondence(TimeControl((Period(36 * HOUR, mode=BonusMode.DEADLINE),)))


def test_other_forms_refuse_a_deadline() -> None:
    """No PGN, human or US form writes a deadline: each says so (the PGN scoresheet then
    leaves the TimeControl tag out)."""
    control = correspondence(3)
    for write in (format_pgn_tag, format_human, format_us):
        with pytest.raises(TimeControlError, match="deadline"):
            write(control)


def test_words() -> None:
    assert control_words(correspondence(3)) == "3 days per move (correspondence)"
    assert control_words(correspondence(1)) == "1 day per move (correspondence)"
    assert deadline_words(2 * DAY + 3 * HOUR + 59 * 60_000) == "2 days 3 hours"
    assert deadline_words(5 * HOUR) == "5 hours"
    assert deadline_words(59 * 60_000 + 999) == "59 minutes"
    assert deadline_words(30_000) == "less than a minute"
    assert deadline_words(-5) == "less than a minute"


def test_the_time_left_starts_afresh_after_each_move() -> None:
    """Each move has the whole deadline, used or not: nothing is saved, nothing is lost."""
    now = FakeTime()
    clock = Clock(correspondence(3), now)
    clock.start()
    assert clock.readings() == (3 * DAY, 3 * DAY)
    now.advance(2 * DAY + 5 * HOUR)
    assert clock.readings() == (DAY - 5 * HOUR, 3 * DAY)
    assert clock.time_to_flag() == DAY - 5 * HOUR
    press = clock.press(W)
    assert (press.white_ms, press.black_ms, press.used_ms) == (3 * DAY, 3 * DAY, 53 * HOUR)
    assert press.bonus_ms == 53 * HOUR  # the used time given back: the deadline restarts
    now.advance(HOUR)
    assert clock.press(B).black_ms == 3 * DAY  # a quick move saves nothing
    assert clock.readings() == (3 * DAY, 3 * DAY)
    assert clock.time_to_flag() == 3 * DAY
    assert clock.flags == ()


def test_the_flag_falls_when_the_deadline_passes() -> None:
    now = FakeTime()
    clock = Clock(correspondence(1), now)
    clock.start()
    now.advance(DAY - 1)
    clock.press(W)
    now.advance(DAY - 1)
    assert not clock.flags
    now.advance(1)
    assert clock.time_to_flag() == 0
    started = now.ms - DAY
    now.advance(7 * HOUR)  # the flag is dated when the deadline passed, not when seen
    assert clock.flags == (Flag(B, started + DAY, 1, DAY),)
    assert clock.remaining(B) == -7 * HOUR


def test_untimed_opening_presses_carry_no_deadline() -> None:
    """Under a profile whose clocks start once both have moved (lichess), the first two
    moves have no deadline; the third has the whole of it."""
    now = FakeTime()
    clock = Clock(correspondence(2), now, start=Start.BOTH_MOVED)
    assert clock.time_to_flag() is None
    now.advance(10 * DAY)
    clock.press(W)
    now.advance(10 * DAY)
    clock.press(B)
    assert clock.readings() == (2 * DAY, 2 * DAY)
    now.advance(2 * DAY)
    assert clock.flags == (Flag(W, now.ms, 2, 2 * DAY),)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 4 * DAY), max_size=30), st.sampled_from(DAYS_PER_TURN))
def test_every_move_has_the_whole_deadline(waits: list[int], days: int) -> None:
    """Whatever the players take, after each move both displays show the whole deadline,
    and the first flag falls on the first move that took longer."""
    now = FakeTime()
    clock = Clock(correspondence(days), now)
    clock.start()
    late = next((i for i, wait in enumerate(waits) if wait >= days * DAY), None)
    for number, wait in enumerate(waits[:late]):
        now.advance(wait)
        press = clock.press(W if number % 2 == 0 else B)
        assert (press.white_ms, press.black_ms) == (days * DAY, days * DAY)
    if late is not None:
        now.advance(waits[late])
        assert [f.side for f in clock.flags] == [W if late % 2 == 0 else B]
    else:
        assert clock.flags == ()
