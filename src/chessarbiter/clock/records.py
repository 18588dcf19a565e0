"""What the clock records: each press, each flag, for a side (the board's :class:`Side`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from chessarbiter.core.squares import Side

__all__ = ["Flag", "Press", "Side", "Start"]


class Start(Enum):
    """When the clock starts."""

    BLACK_STARTS_WHITE = "black-starts-white"
    """Black starts White's clock at the start of the game (Art. 6.5): call ``Clock.start``."""
    WHITE_FIRST_MOVE = "white-first-move"
    """White's first move is untimed; its press starts Black's clock."""
    BOTH_MOVED = "both-moved"
    """Both first moves are untimed; Black's first press starts White's clock (as lichess)."""


class Press(NamedTuple):
    """A completed move (Art. 6.7): the scoresheet's ``%emt`` (``used_ms``) and ``%clk``
    readings after it (``white_ms``, ``black_ms``), bonus and new period's time included.
    (A named tuple: one is made on every move, and a frozen dataclass costs five times as
    much to build.)"""

    side: Side
    move: int
    """The mover's move number, from 1."""
    at_ms: int
    used_ms: int
    bonus_ms: int
    """Increment added, or time given back by a Bronstein or simple delay or a deadline's
    new start."""
    added_ms: int
    """The next period's time, added when this move ended a period (Art. 6.2)."""
    white_ms: int
    black_ms: int

    @property
    def clock_ms(self) -> int:
        """The mover's reading after the press (his ``%clk``)."""
        return self.white_ms if self.side is Side.WHITE else self.black_ms


@dataclass(frozen=True, slots=True)
class Flag:
    """A flag fall (Art. 6.1 "expiration"): only a reading; what it means is the arbiter's."""

    side: Side
    at_ms: int
    """The time source's reading when the side's time ran out."""
    move: int
    """The move the side was making, from 1."""
    opponent_ms: int
    """The other display at that moment."""
