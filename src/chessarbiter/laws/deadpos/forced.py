"""Forced moves: while the side to move has exactly one legal move, the game can only go
one way, so the analysis plays it (Ambrona's "trivial progress")."""

from __future__ import annotations

from chessarbiter.core.moves import Move
from chessarbiter.core.position import Position


def play_forced_moves(pos: Position) -> tuple[list[Move], bool]:
    """Play every forced move on ``pos`` (in place). Returns the moves played and whether a
    position repeated, in which case the forced sequence loops for ever."""
    played: list[Move] = []
    seen = {pos.key()}
    while True:
        moves = pos.legal_moves()
        if len(moves) != 1:
            return played, False
        pos.push(moves[0])
        played.append(moves[0])
        key = pos.key()
        if key in seen:
            return played, True
        seen.add(key)
