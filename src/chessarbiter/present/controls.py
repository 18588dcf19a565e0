"""Time controls in words, as a command shows them back before a game: ``5 minutes + 3
seconds per move``, ``10 seconds + 0.1 seconds per move``, ``40 moves in 90 minutes + 30
seconds per move, then 30 minutes + 30 seconds per move`` (Laws Art. 6.2: periods, and a
bonus per move as increment or delay)."""

from __future__ import annotations

from chessarbiter.clock.amounts import SECOND, write_amount
from chessarbiter.clock.controls import BonusMode, Period, TimeControl


def _count(number: int | str, unit: str) -> str:
    return f"{number} {unit}{'' if number in (1, '1') else 's'}"


def duration_words(ms: int) -> str:
    """A duration in words, exact to the millisecond: ``90 minutes``, ``2 hours``, ``10
    seconds``, ``0.1 seconds``, ``1 minute 30.5 seconds``; ``no time`` for none. Whole hours
    and minutes are named as such; a part of a minute is given in seconds."""
    if ms == 0:
        return "no time"
    minutes, rest = divmod(ms, 60 * SECOND)
    hours, left = divmod(minutes, 60)
    parts = []
    if minutes and not rest and not left:
        parts.append(_count(hours, "hour"))
    elif minutes:
        parts.append(_count(minutes, "minute"))
    if rest:
        parts.append(_count(write_amount(rest, SECOND), "second"))
    return " ".join(parts)


def deadline_words(ms: int) -> str:
    """A deadline's time in days and hours, to the hour below (``2 days 3 hours``, ``5
    hours``), in minutes under an hour (``less than a minute`` under one)."""
    hours, rest = divmod(max(ms, 0), 60 * 60 * SECOND)
    days, hours = divmod(hours, 24)
    parts = [_count(n, unit) for n, unit in ((days, "day"), (hours, "hour")) if n]
    if parts:
        return " ".join(parts)
    minutes = rest // (60 * SECOND)
    return _count(minutes, "minute") if minutes else "less than a minute"


def _bonus(period: Period) -> str:
    bonus = duration_words(period.bonus_ms)
    if period.mode is BonusMode.INCREMENT:
        return f" + {bonus} per move"
    if period.mode is BonusMode.DELAY:
        return f" with a delay of {bonus} per move"
    if period.mode is BonusMode.BRONSTEIN:
        return f" with a Bronstein delay of {bonus} per move"
    if period.mode is BonusMode.HOURGLASS:
        return " on an hourglass (the time one player uses goes to the other)"
    return ""


def _period(period: Period) -> str:
    if period.mode is BonusMode.DEADLINE:
        return f"{deadline_words(period.time_ms)} per move (correspondence)"
    time = duration_words(period.time_ms)
    text = time if period.moves is None else f"{_count(period.moves, 'move')} in {time}"
    return text + _bonus(period)


def control_words(control: TimeControl | None) -> str:
    """A time control in words; ``no clock`` for an untimed game. Periods are joined by
    ``then``; a last period with a move count repeats (``..., repeated``)."""
    if control is None:
        return "no clock"
    text = ", then ".join(_period(period) for period in control.periods)
    return text + (", repeated" if control.periods[-1].moves is not None else "")
