"""The forms engine testers write: amounts that name their unit (``10s+0.1s``, ``1m+1s``,
``90m+30s``) wherever a control is given, and cutechess-cli's ``tc=`` value in seconds
(``10+0.1``, ``40/60+0.6``, ``40/1:30``, ``inf``). The minute forms stay as they were."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chessarbiter.clock import (
    BonusMode,
    Period,
    TimeControl,
    TimeControlError,
    format_engine,
    format_human,
    format_units,
    parse_control,
    parse_cutechess,
    parse_human,
    parse_us,
)

S, MIN, HOUR = 1000, 60_000, 3_600_000
INC, DELAY = BonusMode.INCREMENT, BonusMode.DELAY


def one(time_ms: int, bonus_ms: int = 0, moves: int | None = None,
        mode: BonusMode = INC) -> TimeControl:
    return TimeControl((Period(time_ms, moves, bonus_ms, mode if bonus_ms else BonusMode.NONE),))


@pytest.mark.parametrize(("text", "expected"), [
    ("10s+0.1s", one(10 * S, 100)),
    ("10s+0.1", one(10 * S, 100)),  # a bare increment is seconds, as always
    ("1m+1s", one(MIN, S)),
    ("90m+30s", one(90 * MIN, 30 * S)),
    ("2h", one(2 * HOUR)),
    ("0.5m|2s", one(30 * S, 2 * S)),
    ("1.5s+0s", one(1500)),
    ("40/90m+30s, 30m+30s", TimeControl((Period(90 * MIN, 40, 30 * S, INC),
                                          Period(30 * MIN, None, 30 * S, INC)))),
    ("10+0.1", one(10 * MIN, 100)),  # the human form is unchanged: ten minutes
    ("5+3", one(5 * MIN, 3 * S)),
])
def test_amounts_name_their_unit_in_the_human_form(text: str, expected: TimeControl) -> None:
    assert parse_human(text) == expected
    assert parse_control(text) == expected


def test_the_us_form_takes_units_too() -> None:
    assert parse_us("G/30s;d2s") == one(30 * S, 2 * S, mode=DELAY)
    assert parse_control("G/30s;d2s") == one(30 * S, 2 * S, mode=DELAY)
    assert parse_us("G/60;d5") == one(60 * MIN, 5 * S, mode=DELAY)


@pytest.mark.parametrize(("text", "token"), [
    ("10x+0.1s", "'10x'"),
    ("10s+0.1x", "'0.1x'"),
    ("s+1", "'s'"),
    ("10S+1", "'10S'"),  # units are lower case
    ("10 s+1", "'10 s'"),  # and written right after the number
    ("10s+0.0001s", "'0.0001'"),
])
def test_a_bad_amount_is_named(text: str, token: str) -> None:
    with pytest.raises(TimeControlError) as info:
        parse_human(text)
    assert f"{text!r} at " in str(info.value) and f"{token}:" in str(info.value)


def test_a_seconds_control_with_no_time_is_not_playable() -> None:
    with pytest.raises(TimeControlError, match="no time for the first move"):
        parse_control("0s+1s")


@pytest.mark.parametrize(("text", "expected"), [
    ("10+0.1", one(10 * S, 100)),
    ("40/60+0.6", one(60 * S, 600, 40)),
    ("40/1:30", one(90 * S, 0, 40)),
    ("2:00+1", one(2 * MIN, S)),
    (" 60 ", one(60 * S)),
    ("0.5+0.05", one(500, 50)),
])
def test_cutechess_values_are_seconds(text: str, expected: TimeControl) -> None:
    assert parse_cutechess(text) == expected


def test_cutechess_inf_is_no_clock() -> None:
    assert parse_cutechess("inf") is None


@pytest.mark.parametrize(("text", "message"), [
    ("", "expected '[moves/][minutes:]seconds[+increment]' or 'inf'"),
    ("1:2:3", "expected '[moves/][minutes:]seconds[+increment]' or 'inf'"),
    ("40/1:x", "'x': expected seconds"),
    ("0/60", "'0': expected a positive move count"),
    ("x:30", "'x': expected minutes"),
    ("10+y", "'y': expected increment seconds"),
    ("0+0.1", "no time for the first move"),
    ("10s+0.1s", "'10s': expected seconds"),
])
def test_bad_cutechess_values_are_named(text: str, message: str) -> None:
    with pytest.raises(TimeControlError) as info:
        parse_cutechess(text)
    assert str(info.value).startswith(repr(text)) and message in str(info.value)


@st.composite
def fischer(draw: st.DrawFn, max_moves: int = 60) -> TimeControl:
    def period(last: bool) -> Period:
        time = draw(st.integers(1, 10 * HOUR))
        bonus = draw(st.sampled_from([0, draw(st.integers(1, 5 * MIN))]))
        moves = draw(st.none() | st.integers(1, max_moves)) if last else draw(
            st.integers(1, max_moves))
        return Period(time, moves, bonus, INC if bonus else BonusMode.NONE)

    count = draw(st.integers(1, 3))
    return TimeControl(tuple(period(i == count - 1) for i in range(count)))


@given(fischer())
def test_units_round_trip(control: TimeControl) -> None:
    text = format_units(control)
    assert parse_human(text) == control
    assert parse_control(text) == control


@given(fischer())
def test_the_unit_form_reads_as_the_minute_form_where_that_is_exact(
    control: TimeControl,
) -> None:
    try:
        minutes = format_human(control)
    except TimeControlError:  # a time no decimal of minutes writes (e.g. 10 s)
        return
    assert parse_human(minutes) == parse_human(format_units(control))


@given(st.integers(1, 10 * HOUR), st.integers(0, 5 * MIN), st.none() | st.integers(1, 60))
def test_cutechess_round_trip(time_ms: int, bonus_ms: int, moves: int | None) -> None:
    control = one(time_ms, bonus_ms, moves)
    assert parse_cutechess(format_engine(control)) == control


@given(st.integers(0, 600), st.integers(0, 59), st.integers(0, 999))
def test_minutes_and_seconds_are_seconds(minutes: int, seconds: int, ms: int) -> None:
    if minutes == seconds == ms == 0:
        return
    fraction = f".{ms:03d}" if ms else ""
    assert parse_cutechess(f"{minutes}:{seconds}{fraction}") == parse_cutechess(
        f"{minutes * 60 + seconds}{fraction}")
