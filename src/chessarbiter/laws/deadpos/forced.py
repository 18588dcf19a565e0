"""Forced moves: while the side to move has exactly one legal move, the game can only go
one way, so the analysis plays it (Ambrona's "trivial progress")."""

from __future__ import annotations

from chessarbiter.core.attacks import KING_ATTACKS, attackers
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


def unforced(pos: Position) -> bool:
    """Whether the side to move has at least two legal moves (no forced move, no end of the
    game), read cheaply from two king steps to squares no enemy unit attacks (the king's own
    square left empty for the sliders' lines), else counted."""
    us = pos.turn
    king = pos.king(us)
    pieces = pos.pieces
    own = pos.occupied_co[us]
    occupied = (own | pos.occupied_co[us ^ 1]) ^ (1 << king)
    steps = KING_ATTACKS[king] & ~own
    safe = 0
    while steps:
        low = steps & -steps
        steps ^= low
        if not attackers(pieces, us ^ 1, low.bit_length() - 1, occupied):
            safe += 1
            if safe == 2:
                return True
    return pos.count_legal_moves() > 1
