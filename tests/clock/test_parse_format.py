"""The written forms of a time control: reading, writing, round trips, errors."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chessarbiter.clock import (
    BonusMode,
    NoControl,
    Period,
    TimeControl,
    TimeControlError,
    format_engine,
    format_human,
    format_pgn_tag,
    format_us,
    parse_engine,
    parse_human,
    parse_pgn_tag,
    parse_us,
)

S, MIN = 1000, 60_000
INC, DELAY, BRONSTEIN = BonusMode.INCREMENT, BonusMode.DELAY, BonusMode.BRONSTEIN


def control(*periods: Period) -> TimeControl:
    return TimeControl(periods)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("40/7200:3600", control(Period(7200 * S, 40), Period(3600 * S))),
        ("300+2", control(Period(300 * S, None, 2 * S, INC))),
        ("*180", control(Period(180 * S, mode=BonusMode.HOURGLASS))),
        ("?", NoControl.UNKNOWN),
        ("-", NoControl.UNTIMED),
        (
            "40/5400+30:1800+30",
            control(Period(5400 * S, 40, 30 * S, INC), Period(1800 * S, None, 30 * S, INC)),
        ),
        ("10/4320000", control(Period(50 * 86_400 * S, 10))),  # 50 days per 10 moves
        ("40/60+0.6", control(Period(60 * S, 40, 600, INC))),
        ("300+0", control(Period(300 * S))),
    ],
)
def test_pgn_tag(text: str, expected: TimeControl | NoControl) -> None:
    assert parse_pgn_tag(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("90+30", control(Period(90 * MIN, None, 30 * S, INC))),
        (
            "40/90+30, 30+30",
            control(Period(90 * MIN, 40, 30 * S, INC), Period(30 * MIN, None, 30 * S, INC)),
        ),
        ("5+3", control(Period(5 * MIN, None, 3 * S, INC))),
        ("3|2", control(Period(3 * MIN, None, 2 * S, INC))),
        ("0.5+0", control(Period(30 * S))),
        ("40/120, 20/60", control(Period(120 * MIN, 40), Period(60 * MIN, 20))),
    ],
)
def test_human(text: str, expected: TimeControl) -> None:
    assert parse_human(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("G/60;d5", control(Period(60 * MIN, None, 5 * S, DELAY))),
        ("G/60 d5", control(Period(60 * MIN, None, 5 * S, DELAY))),
        (
            "40/120, SD/60;d5",
            control(Period(120 * MIN, 40, 5 * S, DELAY), Period(60 * MIN, None, 5 * S, DELAY)),
        ),
        (
            "40/120;d0, SD/60;d5",
            control(Period(120 * MIN, 40), Period(60 * MIN, None, 5 * S, DELAY)),
        ),
        ("G/90+30", control(Period(90 * MIN, None, 30 * S, INC))),
        ("G/90;inc30", control(Period(90 * MIN, None, 30 * S, INC))),
        ("G/25;b5", control(Period(25 * MIN, None, 5 * S, BRONSTEIN))),
        ("G/30", control(Period(30 * MIN))),
    ],
)
def test_us(text: str, expected: TimeControl) -> None:
    assert parse_us(text) == expected


def test_engine() -> None:
    assert parse_engine("40/60+0.6") == control(Period(60 * S, 40, 600, INC))
    assert parse_engine("10+0.1") == control(Period(10 * S, None, 100, INC))
    assert format_engine(parse_engine("40/60+0.6")) == "40/60+0.6"


@pytest.mark.parametrize(
    ("parse", "text", "message"),
    [
        (parse_pgn_tag, "300+a", "'300+a' at 4: 'a': expected increment seconds"),
        (parse_pgn_tag, "600:20/180", "at 0: a rest-of-game period"),
        (parse_pgn_tag, "0/60", "'0': expected a positive move count"),
        (parse_pgn_tag, "60+0.0001", "expected increment seconds in whole milliseconds"),
        (parse_pgn_tag, "*x", "'x': expected hourglass seconds"),
        (parse_pgn_tag, "", "expected a TimeControl value"),
        (parse_human, "40/90+30, 30+x", "at 13: 'x': expected increment seconds"),
        (parse_human, "40/90,", "at 6: '': expected time"),
        (parse_us, "G/60;x5", "at 4: ';x5': expected ';d<seconds>'"),
        (parse_us, "Q/60", "'Q': expected a positive move count"),
        (parse_us, "G60", "'G60': expected 'G/min'"),
        (parse_engine, "40/60:30", "expected '[moves/]seconds[+increment]'"),
    ],
)
def test_errors_name_the_token(parse: object, text: str, message: str) -> None:
    assert callable(parse)
    with pytest.raises(TimeControlError, match=re.escape(message)):
        parse(text)


HUGE = "9" * 5000  # beyond Python's int-string limit


@pytest.mark.parametrize("parse", [parse_human, parse_pgn_tag, parse_engine, parse_us])
@pytest.mark.parametrize(
    ("template", "token"),
    [
        ("5+\u00b3", "\u00b3"),  # superscript digits: str.isdigit() yes, int() no
        ("\u2075+3", "\u2075"),
        ("\u00b3/5+3", "\u00b3"),
        ("\u0665+3", "\u0665"),  # Arabic-Indic digits: int() reads them, a control does not
        ("5+" + HUGE, "increment"),
        (HUGE + "+3", "of 5000 digits"),
        (HUGE + "/5", "of 5000 digits"),
        ("0" * 5000 + "1234567890/5", "of 10 digits"),
        ("5.1" + "0" * 5000 + "1+3", "whole milliseconds"),
    ],
)
def test_bad_numbers_are_time_control_errors(parse: object, template: str, token: str) -> None:
    assert callable(parse)
    text = "G/" + template if parse is parse_us and template[0] not in "\u00b30" else template
    with pytest.raises(TimeControlError):
        parse(text)
    if parse is not parse_us:  # the US form may reject the whole segment first
        with pytest.raises(TimeControlError, match=re.escape(token)):
            parse(text)


def test_numbers_up_to_nine_digits_with_leading_zeros_and_trailing_decimal_zeros() -> None:
    tc = parse_pgn_tag("0" * 5000 + "999999999/60+0.5" + "0" * 5000)
    assert tc == control(Period(60 * S, 999_999_999, 500, INC))
    assert parse_human("0.00005+0").periods == (Period(3, None, 0, BonusMode.NONE),)


def test_forms_that_cannot_express_a_control() -> None:
    delay = control(Period(MIN, None, 5 * S, DELAY))
    with pytest.raises(TimeControlError, match="PGN form cannot express a delay"):
        format_pgn_tag(delay)
    with pytest.raises(TimeControlError, match="human form"):
        format_human(delay)
    with pytest.raises(TimeControlError, match="one period"):
        format_engine(parse_human("40/90, 30"))
    with pytest.raises(TimeControlError, match="hourglass"):
        format_us(control(Period(MIN, mode=BonusMode.HOURGLASS)))
    with pytest.raises(TimeControlError, match="finite decimal"):
        format_human(control(Period(20 * S)))  # a third of a minute


def test_formats() -> None:
    assert format_pgn_tag(NoControl.UNKNOWN) == "?"
    assert format_human(parse_human("3|2")) == "3+2"
    assert format_us(parse_us("G/60 d5")) == "G/60;d5"
    assert format_us(parse_us("40/120, 20/60")) == "40/120, 20/60"
    assert format_us(control(Period(120 * MIN, 40, 5 * S, BRONSTEIN), Period(60 * MIN))) == (
        "40/120;b5, SD/60"
    )


_MODES = st.sampled_from([BonusMode.NONE, INC, DELAY, BRONSTEIN])


@st.composite
def periods(draw: st.DrawFn, unit: int, modes: st.SearchStrategy[BonusMode]) -> Period:
    mode = draw(modes)
    bonus = 0 if mode is BonusMode.NONE else draw(st.integers(1, 120)) * S
    return Period(draw(st.integers(0, 300)) * unit, draw(st.integers(1, 60)), bonus, mode)


@st.composite
def controls(draw: st.DrawFn, unit: int, modes: st.SearchStrategy[BonusMode]) -> TimeControl:
    body = draw(st.lists(periods(unit, modes), min_size=1, max_size=4))
    if draw(st.booleans()):
        last = body.pop()
        body.append(Period(last.time_ms, None, last.bonus_ms, last.mode))
    return TimeControl(tuple(body))


_FISCHER = st.sampled_from([BonusMode.NONE, INC])


@given(controls(S // 10, _FISCHER))
def test_pgn_round_trip(tc: TimeControl) -> None:
    assert parse_pgn_tag(format_pgn_tag(tc)) == tc


@given(controls(MIN // 2, _FISCHER))
def test_human_round_trip(tc: TimeControl) -> None:
    assert parse_human(format_human(tc)) == tc


@given(controls(MIN, _MODES))
def test_us_round_trip(tc: TimeControl) -> None:
    assert parse_us(format_us(tc)) == tc


@given(periods(S, _FISCHER))
def test_engine_round_trip(period: Period) -> None:
    tc = TimeControl((period,))
    assert parse_engine(format_engine(tc)) == tc


def test_long_text_is_cut_short_in_the_message() -> None:
    with pytest.raises(TimeControlError) as info:
        parse_human("40/" + HUGE + "+3")
    assert len(str(info.value)) < 200 and "(5005 characters)" in str(info.value)
