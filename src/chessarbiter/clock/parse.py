"""Reading time controls: the PGN TimeControl tag, human, US Chess and engine-runner forms.

Errors are :class:`TimeControlError` naming the text, the offset and the token.
"""

from __future__ import annotations

import re
from enum import Enum

from chessarbiter.clock.amounts import MINUTE, SECOND, read_amount, read_count
from chessarbiter.clock.controls import BonusMode, Period, TimeControl
from chessarbiter.clock.errors import TimeControlError, shown


class NoControl(Enum):
    """PGN TimeControl tag values that are no time control."""

    UNKNOWN = "?"
    UNTIMED = "-"


def _split(text: str, separator: str) -> list[tuple[str, int]]:
    """Split ``text`` on ``separator``, keeping each part's offset; parts are stripped."""
    parts, start = [], 0
    for raw in text.split(separator):
        stripped = raw.strip()
        offset = start + (raw.index(stripped) if stripped else 0)
        parts.append((stripped, offset))
        start += len(raw) + len(separator)
    return parts


def _moves(token: str, text: str, at: int) -> int:
    moves = read_count(token, text, at, "a positive move count")
    if moves == 0:
        raise TimeControlError(
            f"{shown(text)} at {at}: {shown(token)}: expected a positive move count"
        )
    return moves


UNITS = {"s": SECOND, "m": MINUTE, "h": 60 * MINUTE}
"""The unit letters an amount of the human and US forms may carry: ``10s``, ``1m``, ``2h``."""


def _amount(token: str, unit: int, text: str, at: int, what: str, units: bool) -> int:
    """``token`` in ``unit`` as milliseconds, or in its own unit when ``units`` allows one
    (``10s``, ``1.5m``, ``2h``)."""
    if units and token[-1:] in UNITS and token[-2:-1].isdigit():
        return read_amount(token[:-1], UNITS[token[-1]], text, at, what)
    form = "digits, a unit s, m or h may follow: '10s'" if units else "digits"
    return read_amount(token, unit, text, at, what, form)


def _descriptor(part: str, at: int, text: str, unit: int, units: bool = False) -> Period:
    """``[moves/]time[+increment]`` with time in ``unit`` and increment in seconds unless
    ``units`` lets an amount name its own."""
    moves: int | None = None
    if "/" in part:
        head, part = part.split("/", 1)
        moves = _moves(head, text, at)
        at += len(head) + 1
    time_token, plus, bonus_token = part.partition("+")
    if not plus and "|" in part:
        time_token, plus, bonus_token = part.partition("|")
    time_ms = _amount(time_token, unit, text, at, "time", units)
    bonus = 0
    if plus:
        at += len(time_token) + 1
        bonus = _amount(bonus_token, SECOND, text, at, "increment seconds", units)
    return Period(time_ms, moves, bonus, BonusMode.INCREMENT if bonus else BonusMode.NONE)


def _rest_last(periods: list[Period], offsets: list[int], text: str) -> TimeControl:
    for period, at in zip(periods[:-1], offsets, strict=False):
        if period.moves is None:
            raise TimeControlError(
                f"{shown(text)} at {at}: a rest-of-game period: expected 'moves/time' before "
                "the last"
            )
    return TimeControl(tuple(periods))


def parse_pgn_tag(text: str) -> TimeControl | NoControl:
    """Read a PGN TimeControl tag value in seconds: ``40/7200:3600``, ``300+2``, ``*180``
    (hourglass), ``?`` (unknown), ``-`` (untimed); decimals such as ``40/60+0.6`` are allowed."""
    if text in ("?", "-"):
        return NoControl(text)
    if text.startswith("*"):
        return TimeControl(
            (
                Period(
                    read_amount(text[1:], SECOND, text, 1, "hourglass seconds"),
                    mode=BonusMode.HOURGLASS,
                ),
            )
        )
    if not text:
        raise TimeControlError("'': expected a TimeControl value")
    parts = _split(text, ":")
    periods = [_descriptor(part, at, text, SECOND) for part, at in parts]
    return _rest_last(periods, [at for _, at in parts], text)


def parse_engine(text: str) -> TimeControl:
    """Read an engine-runner control, ``[moves/]seconds[+increment]`` (e.g. ``40/60+0.6``,
    ``10+0.1``); a move count repeats."""
    stripped = text.strip()
    if not stripped or ":" in stripped or stripped[0] in "*?-":
        raise TimeControlError(f"{shown(text)}: expected '[moves/]seconds[+increment]'")
    return TimeControl((_descriptor(stripped, text.index(stripped), text, SECOND),))


_CUTECHESS = re.compile(
    r"(?:(?P<moves>[^/]*)/)?(?:(?P<minutes>[^:/+]*):)?(?P<seconds>[^:/+]*)(?:\+(?P<inc>.*))?"
)


def parse_cutechess(text: str) -> TimeControl | None:
    """Read a cutechess-cli / fastchess ``tc=`` value, in seconds: ``[moves/]time[+increment]``
    with the time as seconds or ``minutes:seconds`` (``10+0.1``, ``40/60+0.6``, ``40/1:30``);
    a move count repeats; ``inf`` is no clock (``None``). A control no clock can play is
    refused as by :func:`require_playable`."""
    stripped = text.strip()
    if stripped.lower() == "inf":
        return None
    match = _CUTECHESS.fullmatch(stripped)
    if match is None or not stripped:
        raise TimeControlError(
            f"{shown(text)}: expected '[moves/][minutes:]seconds[+increment]' or 'inf'")
    at = text.index(stripped)
    moves = None if match["moves"] is None else _moves(match["moves"], text, at)
    time_ms = read_amount(match["seconds"], SECOND, text, at + match.start("seconds"),
                          "seconds")
    if match["minutes"] is not None:
        time_ms += MINUTE * read_count(match["minutes"], text, at + match.start("minutes"),
                                       "minutes")
    bonus = 0 if match["inc"] is None else read_amount(
        match["inc"], SECOND, text, at + match.start("inc"), "increment seconds")
    period = Period(time_ms, moves, bonus, BonusMode.INCREMENT if bonus else BonusMode.NONE)
    return require_playable(TimeControl((period,)), text)


def require_playable(control: TimeControl, text: str) -> TimeControl:
    """``control`` when a clock can play it, else ``TimeControlError`` saying why.

    The first move needs time before the flag falls: the first period's time, or a simple
    delay (it runs before the main time). An increment or a Bronstein bonus is credited only
    once the move is made (Art. 6.2), so with no time the flag falls at the start. Later
    periods may add no time: the saved time carries into them.
    """
    first = control.periods[0]
    if first.time_ms == 0 and first.mode is not BonusMode.DELAY:
        why = {
            BonusMode.INCREMENT: "an increment is added only after a move",
            BonusMode.BRONSTEIN: "a Bronstein delay is given back only after a move",
            BonusMode.HOURGLASS: "an hourglass only gains the time the opponent uses",
        }.get(first.mode, "and no bonus")
        raise TimeControlError(
            f"{shown(text)}: no time for the first move ({why}), so the flag would fall at "
            "once: expected a first period with time, or a delay (e.g. 'G/0;d5')"
        )
    return control


UNTIMED_WORDS = ("none", "-", "untimed")
"""What ``parse_control`` reads as an untimed game."""


def parse_control(text: str) -> TimeControl | None:
    """A time control a clock can play, in the human (``5+3``, ``40/90+30, 30+30``,
    ``10s+0.1s``) or US Chess (``G/60;d5``) forms; ``None`` for an untimed game
    (:data:`UNTIMED_WORDS`); ``TimeControlError`` otherwise (the human form's error when
    neither form reads)."""
    if text.strip().lower() in UNTIMED_WORDS:
        return None
    try:
        control = parse_human(text)
    except TimeControlError as human_error:
        try:
            control = parse_us(text)
        except TimeControlError:
            raise human_error from None
    return require_playable(control, text)


def parse_human(text: str) -> TimeControl:
    """Read the usual human form in minutes with increments in seconds, periods separated by
    commas: ``90+30``, ``40/90+30, 30+30``, ``5+3``, ``3|2``, ``40/120, 20/60`` (repeating).

    Any amount may name its unit instead, ``s``, ``m`` or ``h`` right after the number:
    ``10s+0.1s`` is ten seconds and a tenth of a second a move, ``1m+1s``, ``90m+30s``."""
    parts = _split(text, ",")
    periods = [_descriptor(part, at, text, MINUTE, units=True) for part, at in parts]
    return _rest_last(periods, [at for _, at in parts], text)


_US_SEGMENT = re.compile(r"(?:(?P<kind>G|SD)|(?P<moves>[^/]*))/(?P<time>[^;+\s]*)(?P<bonus>.*)")
_US_BONUS = re.compile(r"\s*(?:;\s*|\s)(?P<name>d|b|inc)\s*(?P<amount>\S*)|\s*\+(?P<inc>\S*)")
_US_MODES = {"d": BonusMode.DELAY, "b": BonusMode.BRONSTEIN, "inc": BonusMode.INCREMENT}


def _us_segment(part: str, at: int, text: str) -> tuple[Period, bool]:
    """One US segment; also tells whether it wrote a bonus of its own."""
    match = _US_SEGMENT.fullmatch(part)
    if match is None:
        raise TimeControlError(
            f"{shown(text)} at {at}: {shown(part)}: expected 'G/min', 'SD/min' or 'moves/min'"
        )
    moves = None if match["kind"] else _moves(match["moves"], text, at)
    time_ms = _amount(match["time"], MINUTE, text, at + match.start("time"), "minutes", True)
    if not match["bonus"]:
        return Period(time_ms, moves), False
    bonus = _US_BONUS.fullmatch(match["bonus"])
    bonus_at = at + match.start("bonus")
    if bonus is None:
        raise TimeControlError(
            f"{shown(text)} at {bonus_at}: {shown(match['bonus'])}: expected ';d<seconds>' "
            "(delay), ';b<seconds>' (Bronstein) or '+<seconds>' / ';inc<seconds>' (increment)"
        )
    mode = BonusMode.INCREMENT if bonus["inc"] is not None else _US_MODES[bonus["name"]]
    amount = bonus["amount"] if bonus["inc"] is None else bonus["inc"]
    ms = _amount(amount, SECOND, text, bonus_at, "bonus seconds", True)
    return Period(time_ms, moves, ms, mode if ms else BonusMode.NONE), True


def parse_us(text: str) -> TimeControl:
    """Read a US Chess form in minutes: ``G/60;d5``, ``40/120, SD/60;d5``, ``G/90+30``;
    amounts may name their unit as in :func:`parse_human` (``G/10s;d2s``).

    ``d`` is a simple delay, ``b`` a Bronstein delay, ``+`` or ``inc`` an increment. As on US
    delay clocks, a bonus written on the last segment applies to the whole game: every earlier
    segment that writes none gets it too (``;d0`` writes "no bonus" explicitly).
    """
    parts = _split(text, ",")
    read = [_us_segment(part, at, text) for part, at in parts]
    last = read[-1][0]
    periods = [
        period
        if own or last.mode is BonusMode.NONE
        else Period(period.time_ms, period.moves, last.bonus_ms, last.mode)
        for period, own in read
    ]
    return _rest_last(periods, [at for _, at in parts], text)
