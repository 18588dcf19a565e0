"""The arbiter's questions about checkmating chances, answered by the laws package.

Two questions, asked at different rates:

* "can ``colour`` still checkmate?" on a flag (Art. 6.9), a resignation (F23 5.1.2) or a
  losing illegal move (F23 7.5.5): rare events, so the full dead-position analysis runs, within
  :data:`FLAG_BUDGET` positions, and answers "cannot" only when it has proved it;
* "is the position dead?" (Art. 5.2.2, S9.6) after every move: the material rules always,
  and the quick dead-position analysis whenever material or the pawn structure has just
  changed (a capture or a pawn move, where a position can turn dead) and after the first
  move of a game (a start position may be dead already).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from chessarbiter.core.position import Position
from chessarbiter.laws.deadpos import IllegalPositionError, Outcome, can_checkmate
from chessarbiter.laws.deadpos import is_dead_position as analyse_dead_position
from chessarbiter.laws.mating_material import can_checkmate as material_can_checkmate

FLAG_BUDGET: Final = 20_000
"""Positions the full analysis may visit for one flag, resignation or illegal move."""
MOVE_BUDGET: Final = 1
"""Positions the quick analysis may search after a move: its material and static tests
(locked pawn walls, bishops of one colour, shut-in kings) are what find dead positions in
play; a search is left to the rare flag."""

DeadCheck = Callable[[Position, bool], bool]
"""``check(position, thorough)``: True only when the position is proved dead."""


def helpmate_oracle(pos: Position, colour: int) -> bool:
    """Whether ``colour`` may still checkmate by some series of legal moves (False only when
    proved: Art. 5.1.2, 6.9, 7.5.5)."""
    if not material_can_checkmate(pos, colour):
        return False
    try:
        return not can_checkmate(pos, colour, "full", FLAG_BUDGET).unwinnable
    except IllegalPositionError:
        return True


def dead_position_check(pos: Position, thorough: bool) -> bool:
    """Whether neither side can ever checkmate (Art. 5.2.2): material rules, and with
    ``thorough`` the quick dead-position analysis."""
    if not material_can_checkmate(pos, 0) and not material_can_checkmate(pos, 1):
        return True
    if not thorough:
        return False
    try:
        return analyse_dead_position(pos, "quick", MOVE_BUDGET) is Outcome.UNWINNABLE
    except IllegalPositionError:
        return False
