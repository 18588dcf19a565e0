"""The arbiter's questions about checkmating chances, answered by the laws package.

Two questions, asked at different rates:

* "can ``colour`` still checkmate?" on a flag (Art. 6.9), a resignation (F23 5.1.2) or a
  losing illegal move (F23 7.5.5): rare events, so the full dead-position analysis runs, within
  :data:`FLAG_BUDGET` positions and :data:`RULING_SECONDS`, and answers with a
  :class:`~chessarbiter.laws.deadpos.Verdict`: proved unwinnable, winnable, or undetermined
  (then the arbiter rules, as over the board);
* "is the position dead?" (Art. 5.2.2, S9.6) after every move (:data:`DeadCheck`): the cheap
  sound proofs of :func:`chessarbiter.laws.deadpos.proof.proved_dead` (material, forced
  replies, blocked pawn structures, and behind a tight gate a small exhaustive proof search,
  never a helpmate hunt); a reason when the position is proved dead, else ``None``.

The game records each answer in its log, so a replay reads the answer instead of asking again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from chessarbiter.core.position import Position
from chessarbiter.core.squares import Side
from chessarbiter.laws.deadpos import IllegalPositionError, Verdict, Winnability, can_checkmate
from chessarbiter.laws.deadpos.proof import proved_dead
from chessarbiter.laws.mating_material import may_checkmate

FLAG_BUDGET: Final = 1_000_000
"""Positions the full analysis may visit for one flag, resignation or illegal move, within
:data:`RULING_SECONDS` (about as many as the compiled build visits in them: the time bound,
not the budget, ends the hardest analyses; the first 200,000 are the default budget's work,
so nothing the default decides is lost)."""
RULING_SECONDS: Final = 5.0
"""Seconds the full analysis may take for one ruling; past them it is undetermined."""

MateOracle = Callable[[Position, Side], Verdict]
"""``oracle(position, colour)``: can ``colour`` still checkmate? UNWINNABLE only when proved,
UNDETERMINED when not decided (the arbiter then rules)."""
DeadCheck = Callable[[Position], str | None]
"""``check(position)``: the reason the position is proved dead (Art. 5.2.2), else ``None``."""


def mate_verdict(pos: Position, colour: Side) -> Verdict:
    """Whether ``colour`` may still checkmate by some series of legal moves (Art. 5.1.2, 6.9,
    7.5.5): the material rules, then the full dead-position analysis."""
    if not may_checkmate(pos, colour):
        return Verdict(Winnability.UNWINNABLE, colour, reason="material")
    try:
        return can_checkmate(pos, colour, "full", FLAG_BUDGET, seconds=RULING_SECONDS)
    except IllegalPositionError as exc:
        return Verdict(Winnability.UNDETERMINED, colour, reason=f"illegal position: {exc}")


dead_position_check: Final[DeadCheck] = proved_dead
"""Why neither side can ever checkmate (Art. 5.2.2), or None when not proved: the per-move
proof itself, not wrapped, since it runs after every move."""
