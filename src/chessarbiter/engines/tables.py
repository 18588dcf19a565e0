"""Piece values and piece-square tables for the evaluation, built from simple formulas.

Each table is from White's point of view (square 0 is a1); Black uses the mirrored square.
Values are centipawns, in a middlegame and an endgame flavour that the evaluation blends by
game phase. The combined tables ``MG[piece][sq]`` and ``EG[piece][sq]`` hold material plus
placement, positive for White's pieces and negative for Black's.
"""

from __future__ import annotations

from typing import Final

from chessarbiter.core.squares import BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK

MG_VALUE: Final = (0, 90, 320, 335, 480, 960, 0)
EG_VALUE: Final = (0, 115, 290, 320, 530, 980, 0)
ORDER_VALUE: Final = (0, 100, 310, 330, 500, 950, 20000)
"""Piece values for move ordering and pruning margins (the king: effectively infinite)."""

PHASE_WEIGHT: Final = (0, 0, 1, 1, 2, 4, 0)
FULL_PHASE: Final = 24


def _centre(sq: int) -> float:
    """0 on the rim, 3 on the four centre squares."""
    file, rank = sq & 7, sq >> 3
    return 3.5 - max(abs(file - 3.5), abs(rank - 3.5))


def _pawn(sq: int, endgame: bool) -> int:
    file, rank = sq & 7, sq >> 3
    if rank in (0, 7):
        return 0
    if endgame:
        return (0, 0, 5, 12, 25, 45, 80, 0)[rank]
    advance = (0, 0, 3, 8, 15, 25, 45, 0)[rank]
    central = 12 if file in (3, 4) and rank in (3, 4) else 0
    blocked_start = -12 if file in (3, 4) and rank == 1 else 0
    return advance + central + blocked_start


def _knight(sq: int, endgame: bool) -> int:
    score = round(12 * _centre(sq)) - 25
    if not endgame and (sq >> 3) == 0:
        score -= 10  # undeveloped
    return score


def _bishop(sq: int, endgame: bool) -> int:
    file, rank = sq & 7, sq >> 3
    score = round(6 * _centre(sq)) - 10
    if not endgame and (file == rank or file + rank == 7):
        score += 8  # the long diagonals
    if not endgame and rank == 0:
        score -= 8
    return score


def _rook(sq: int, endgame: bool) -> int:
    file, rank = sq & 7, sq >> 3
    if endgame:
        return 0
    return (20 if rank == 6 else 0) + (6 if file in (3, 4) else 0) - (5 if file in (0, 7) else 0)


def _queen(sq: int, endgame: bool) -> int:
    score = round(4 * _centre(sq)) - 6
    if not endgame and (sq >> 3) >= 5:
        score -= 5  # early raids into the enemy camp
    return score


def _king(sq: int, endgame: bool) -> int:
    file, rank = sq & 7, sq >> 3
    if endgame:
        return round(14 * _centre(sq)) - 20
    shelter = (25, 30, 15, -5, 0, -5, 30, 20)[file]
    return shelter - 35 * rank if rank < 2 else -25 - 20 * rank


_PLACEMENT: Final = {
    PAWN: _pawn, KNIGHT: _knight, BISHOP: _bishop, ROOK: _rook, QUEEN: _queen, KING: _king,
}


def _combined(endgame: bool) -> tuple[tuple[int, ...], ...]:
    values = EG_VALUE if endgame else MG_VALUE
    tables: list[tuple[int, ...]] = [()] * 16
    for kind, place in _PLACEMENT.items():
        white = tuple(values[kind] + place(sq, endgame) for sq in range(64))
        tables[kind] = white
        tables[8 | kind] = tuple(-white[sq ^ 56] for sq in range(64))
    return tuple(tables)


MG: Final = _combined(endgame=False)
EG: Final = _combined(endgame=True)
