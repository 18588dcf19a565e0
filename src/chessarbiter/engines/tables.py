"""Piece values and piece-square tables for the evaluation, from the tuned weights.

Each table of :mod:`chessarbiter.engines.weights` is from White's point of view (square 0 is
a1); Black uses the mirrored square. The combined tables ``MG[piece][sq]`` and
``EG[piece][sq]`` hold material plus placement in centipawns, in a middlegame and an endgame
flavour that the evaluation blends by game phase, positive for White's pieces and negative
for Black's.
"""

from __future__ import annotations

from typing import Final

from chessarbiter.engines.weights import MATERIAL, PST

ORDER_VALUE: Final[tuple[int, ...]] = (0, 100, 310, 330, 500, 950, 20000)
"""Piece values for move ordering and pruning margins (the king: effectively infinite)."""

FULL_PHASE: Final = 24


def _combined(stage: int) -> tuple[tuple[int, ...], ...]:
    """``stage`` 0: the middlegame tables, 1: the endgame tables."""
    tables: list[tuple[int, ...]] = [()] * 16
    for kind in range(1, 7):
        white = tuple(MATERIAL[stage][kind] + PST[stage][kind][sq] for sq in range(64))
        tables[kind] = white
        tables[8 | kind] = tuple(-white[sq ^ 56] for sq in range(64))
    return tuple(tables)


MG: Final = _combined(0)
EG: Final = _combined(1)
