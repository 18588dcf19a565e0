"""The answer to "can this side still checkmate?" (Laws Art. 5.2.2, 6.9, 9.6)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from chessarbiter.core.moves import Move
from chessarbiter.core.squares import Side

SOLVER_VERSION: Final = "5"
"""Changes whenever the analysis may prove more or less: a game log names it, since a verdict
recorded in a log is read back, not recomputed."""


class Winnability(Enum):
    """Whether the intended winner can still checkmate by some series of legal moves."""

    WINNABLE = "winnable"
    """A helpmate exists; the verdict carries one."""
    UNWINNABLE = "unwinnable"
    """Proved: no series of legal moves ends with the intended winner giving checkmate."""
    UNDETERMINED = "undetermined"
    """Neither proved: the analysis (quick mode, or a spent budget) stopped first."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """An analysis result for one intended winner.

    ``line`` is a helpmate from the analysed position (empty unless winnable, and empty
    for a position that is already checkmate); ``nodes`` counts searched positions;
    ``reason`` says which stage decided.
    """

    outcome: Winnability
    winner: Side
    line: tuple[Move, ...] = ()
    nodes: int = 0
    reason: str = ""

    @property
    def winnable(self) -> bool:
        """Whether a helpmate was found."""
        return self.outcome is Winnability.WINNABLE

    @property
    def unwinnable(self) -> bool:
        """Whether checkmate by the intended winner was proved impossible."""
        return self.outcome is Winnability.UNWINNABLE
