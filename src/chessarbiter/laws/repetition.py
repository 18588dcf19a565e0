"""Repetition and the move-count rules (Laws Art. 9.2, 9.3, 9.6).

Positions are identified by :meth:`Position.key`, the identity of Art. 9.2.3: same player to
move, same pieces on the same squares, same castling rights, and an en passant square only
when an en passant capture is legal. A :class:`RepetitionTable` counts every position of the
game, so each check is one dictionary look-up (no scan of the history).
"""

from __future__ import annotations

from typing import Final

from chessarbiter.core.moves import Move
from chessarbiter.core.position import Position

THREEFOLD: Final = 3
"""Art. 9.2: a claim needs the same position for at least the third time."""
FIVEFOLD: Final = 5
"""F23 9.6.1: the fifth occurrence ends the game."""
FIFTY_MOVE_PLIES: Final = 100
"""Art. 9.3: the last 50 moves by each player without a capture or pawn move."""
SEVENTY_FIVE_MOVE_PLIES: Final = 150
"""F23 9.6.2: 75 moves by each player end the game (a mate on the last one stands)."""


class RepetitionTable:
    """How often each position (by key) has stood on the board in this game."""

    __slots__ = ("_counts",)

    def __init__(self) -> None:
        self._counts: dict[int, int] = {}

    def add(self, key: int) -> int:
        """Count one more occurrence of a position; returns its occurrences so far."""
        count = self._counts.get(key, 0) + 1
        self._counts[key] = count
        return count

    def count(self, key: int) -> int:
        """How often the position has occurred."""
        return self._counts.get(key, 0)

    def clear(self) -> None:
        """Forget every position: after a capture or pawn move none of them can stand again."""
        self._counts.clear()


def threefold_claim_correct(pos: Position, table: RepetitionTable, intended: Move | None) -> bool:
    """Art. 9.2: the position has appeared for the third time (9.2.2), or, with the claimant's
    ``intended`` move (legal, not yet played), is about to appear for the third time (9.2.1)."""
    if intended is None:
        return table.count(pos.key()) >= THREEFOLD
    pos.push(intended)
    try:
        return table.count(pos.key()) + 1 >= THREEFOLD
    finally:
        pos.pop()


def fifty_move_claim_correct(pos: Position, intended: Move | None) -> bool:
    """Art. 9.3: the last 50 moves by each player had no capture and no pawn move (9.3.2), or
    will have once the claimant's ``intended`` move (legal, not yet played) is made (9.3.1)."""
    if intended is None:
        return pos.halfmove_clock >= FIFTY_MOVE_PLIES
    pos.push(intended)
    try:
        return pos.halfmove_clock >= FIFTY_MOVE_PLIES
    finally:
        pos.pop()
