"""The arbiter's questions about checkmating chances, answered by the laws package.

Two questions, asked at different rates:

* "can ``colour`` still checkmate?" on a flag (Art. 6.9), a resignation (F23 5.1.2) or a
  losing illegal move (F23 7.5.5): rare events, so the full dead-position analysis runs, within
  :data:`FLAG_BUDGET` positions, and answers "cannot" only when it has proved it;
* "is the position dead?" (Art. 5.2.2, S9.6) after every move: the cheap sound proofs of
  :func:`chessarbiter.laws.deadpos.proof.proved_dead` (material, forced replies, blocked pawn
  structures), never a helpmate search.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from chessarbiter.core.position import Position
from chessarbiter.laws.deadpos import IllegalPositionError, can_checkmate
from chessarbiter.laws.deadpos.proof import proved_dead
from chessarbiter.laws.mating_material import can_checkmate as material_can_checkmate

FLAG_BUDGET: Final = 20_000
"""Positions the full analysis may visit for one flag, resignation or illegal move."""

DeadCheck = Callable[[Position], str | None]
"""``check(position)``: a short reason only when the position is proved dead, else None."""


def helpmate_oracle(pos: Position, colour: int) -> bool:
    """Whether ``colour`` may still checkmate by some series of legal moves (False only when
    proved: Art. 5.1.2, 6.9, 7.5.5)."""
    if not material_can_checkmate(pos, colour):
        return False
    try:
        return not can_checkmate(pos, colour, "full", FLAG_BUDGET).unwinnable
    except IllegalPositionError:
        return True


def dead_position_check(pos: Position) -> str | None:
    """Why neither side can ever checkmate (Art. 5.2.2), or None when not proved."""
    return proved_dead(pos)
