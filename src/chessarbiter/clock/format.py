"""Writing time controls in the forms :mod:`chessarbiter.clock.parse` reads (round trips)."""

from __future__ import annotations

from chessarbiter.clock.amounts import MINUTE, SECOND, write_amount
from chessarbiter.clock.controls import BonusMode, Period, TimeControl
from chessarbiter.clock.errors import TimeControlError
from chessarbiter.clock.parse import NoControl


def _descriptor(period: Period, unit: int, form: str) -> str:
    if period.mode not in (BonusMode.NONE, BonusMode.INCREMENT):
        raise TimeControlError(f"the {form} form cannot express a {period.mode.value} period")
    text = write_amount(period.time_ms, unit)
    if period.moves is not None:
        text = f"{period.moves}/{text}"
    if period.bonus_ms:
        text += "+" + write_amount(period.bonus_ms, SECOND)
    return text


def format_pgn_tag(control: TimeControl | NoControl) -> str:
    """The PGN TimeControl tag value, in seconds (``40/7200:3600``, ``300+2``, ``*180``)."""
    if isinstance(control, NoControl):
        return control.value
    first = control.periods[0]
    if first.mode is BonusMode.HOURGLASS:
        if len(control.periods) > 1 or first.moves is not None:
            raise TimeControlError("the PGN tag only expresses a single rest-of-game hourglass")
        return "*" + write_amount(first.time_ms, SECOND)
    return ":".join(_descriptor(period, SECOND, "PGN") for period in control.periods)


def format_engine(control: TimeControl) -> str:
    """The engine-runner form ``[moves/]seconds[+increment]`` of a one-period control."""
    if len(control.periods) != 1:
        raise TimeControlError("the engine form expresses one period only")
    return _descriptor(control.periods[0], SECOND, "engine")


def _with_unit(ms: int) -> str:
    return f"{ms // MINUTE}m" if ms and not ms % MINUTE else write_amount(ms, SECOND) + "s"


def format_units(control: TimeControl) -> str:
    """The human form with every amount naming its unit (``10s+0.1s``, ``40/90m+30s, 30m+30s``):
    whole minutes in ``m``, anything else in ``s``."""
    for period in control.periods:
        if period.mode not in (BonusMode.NONE, BonusMode.INCREMENT):
            raise TimeControlError(f"the human form cannot express a {period.mode.value} period")
    return ", ".join(
        ("" if p.moves is None else f"{p.moves}/") + _with_unit(p.time_ms)
        + (f"+{_with_unit(p.bonus_ms)}" if p.bonus_ms else "")
        for p in control.periods
    )


def format_human(control: TimeControl) -> str:
    """The human form in minutes and increment seconds (``40/90+30, 30+30``)."""
    return ", ".join(_descriptor(period, MINUTE, "human") for period in control.periods)


_US_BONUS = {BonusMode.DELAY: ";d", BonusMode.BRONSTEIN: ";b", BonusMode.INCREMENT: "+"}


def _us_bonus(period: Period) -> str:
    if period.mode in (BonusMode.HOURGLASS, BonusMode.DEADLINE):
        raise TimeControlError(f"the US form cannot express a {period.mode.value} period")
    if period.mode is BonusMode.NONE:
        return ";d0"
    return _US_BONUS[period.mode] + write_amount(period.bonus_ms, SECOND)


def format_us(control: TimeControl) -> str:
    """The US Chess form (``G/60;d5``, ``40/120, SD/60;d5``); the last period's bonus is
    written once at the end and holds for earlier periods that write none."""
    last = control.periods[-1]
    segments = []
    for index, period in enumerate(control.periods, 1):
        time = write_amount(period.time_ms, MINUTE)
        if period.moves is not None:
            text = f"{period.moves}/{time}"
        else:
            text = ("G/" if len(control.periods) == 1 else "SD/") + time
        same = (period.mode, period.bonus_ms) == (last.mode, last.bonus_ms)
        if index == len(control.periods):
            text += "" if last.mode is BonusMode.NONE else _us_bonus(last)
        elif not same:
            text += _us_bonus(period)
        segments.append(text)
    return ", ".join(segments)
