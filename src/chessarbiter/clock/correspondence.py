"""Correspondence chess: a deadline for each move, counted in days.

The Laws of Chess (FIDE, US Chess) say nothing of correspondence play; the rules summary
(R18) only notes that time controls are enforced there too ("50 days for every 10 moves", a
control :class:`~chessarbiter.clock.TimeControl` already writes). Online servers play it as a
per-move deadline: each player has N days for each move, the time left starts afresh at N
days after every move, and the flag falls when the deadline passes (lichess' "days per
turn": 1, 2, 3, 5, 7, 10 or 14; ICCF's server counts days per move too). That is a
:class:`Period` in :attr:`BonusMode.DEADLINE`, the whole control; its written form is
``Nd`` or ``corr Nd`` (``3d``, ``corr 14d``).
"""

from __future__ import annotations

import re
from typing import Final

from chessarbiter.clock.amounts import MINUTE
from chessarbiter.clock.controls import BonusMode, Period, TimeControl
from chessarbiter.clock.errors import TimeControlError, shown

DAY: Final = 24 * 60 * MINUTE
"""A day in milliseconds."""
DAYS_PER_TURN: Final = (1, 2, 3, 5, 7, 10, 14)
"""The days per move lichess offers (its ``daysPerTurn``)."""
MAX_DAYS: Final = 60
"""The longest deadline read: two months a move."""
_FORM = re.compile(r"(?:corr(?:espondence)?\s+)?(?P<days>\S+?)\s*(?:d|days?)", re.IGNORECASE)
_LOOKS = re.compile(r"\s*(corr|\S*\d\s*d(ays?)?\s*$)", re.IGNORECASE)


class CorrespondenceError(TimeControlError):
    """A correspondence control that is malformed: names the text and what was expected."""


def correspondence(days: int) -> TimeControl:
    """``days`` days for each move (1 to :data:`MAX_DAYS`)."""
    if not 1 <= days <= MAX_DAYS:
        raise CorrespondenceError(f"{days} days per move: expected 1 to {MAX_DAYS}")
    return TimeControl((Period(days * DAY, mode=BonusMode.DEADLINE),))


def deadline_ms(control: TimeControl | None) -> int | None:
    """The time for each move of a correspondence control; ``None`` for any other control
    (or none)."""
    if control is None or control.periods[0].mode is not BonusMode.DEADLINE:
        return None
    return control.periods[0].time_ms


def days_per_turn(control: TimeControl | None) -> int | None:
    """The whole days for each move of a correspondence control (a part of a day counts
    as a day); ``None`` for any other."""
    per_move = deadline_ms(control)
    return None if per_move is None else -(-per_move // DAY)


def looks_like_correspondence(text: str) -> bool:
    """Whether ``text`` is written as a correspondence control (``corr ...`` or a number of
    days), so that its errors are :func:`parse_correspondence`'s."""
    return _LOOKS.match(text) is not None


def parse_correspondence(text: str) -> TimeControl:
    """Read ``Nd``, ``N days`` or ``corr Nd`` (``3d``, ``corr 14d``): N whole days for each
    move; :class:`CorrespondenceError` naming the text otherwise."""
    match = _FORM.fullmatch(text.strip())
    if match is None:
        raise CorrespondenceError(
            f"{shown(text)}: expected days per move as 'Nd' or 'corr Nd' (e.g. '3d')")
    days = match["days"]
    if not (days.isascii() and days.isdigit()) or len(days) > 3:
        raise CorrespondenceError(
            f"{shown(text)}: {shown(days)}: expected a whole number of days (1 to {MAX_DAYS})")
    try:
        return correspondence(int(days))
    except CorrespondenceError as exc:
        raise CorrespondenceError(f"{shown(text)}: {exc}") from None


def format_correspondence(control: TimeControl) -> str:
    """The written form ``Nd`` of a correspondence control of whole days."""
    per_move = deadline_ms(control)
    if per_move is None or per_move % DAY:
        raise CorrespondenceError("expected a deadline of whole days per move")
    return f"{per_move // DAY}d"
