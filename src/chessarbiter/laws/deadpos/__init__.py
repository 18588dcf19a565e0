"""Dead positions and "can this side still checkmate?" (Laws Art. 5.2.2, 6.9, 9.6).

``can_checkmate(pos, winner, mode, budget, *, seconds, clock) -> Verdict`` and
``is_dead_position(pos, mode, budget) -> Winnability``; see :mod:`.api`.
"""

from chessarbiter.laws.deadpos.api import (
    FULL_BUDGET,
    IllegalPositionError,
    Mode,
    can_checkmate,
    is_dead_position,
)
from chessarbiter.laws.deadpos.pipeline import QUICK_BUDGET
from chessarbiter.laws.deadpos.verdict import Verdict, Winnability

__all__ = [
    "FULL_BUDGET",
    "QUICK_BUDGET",
    "IllegalPositionError",
    "Mode",
    "Verdict",
    "Winnability",
    "can_checkmate",
    "is_dead_position",
]
