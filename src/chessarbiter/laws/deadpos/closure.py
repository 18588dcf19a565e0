"""Exhaustive exploration of every position reachable from the analysed one.

Depth-first, each position once. A position whose material can never mate, or that the
static analysis proves unwinnable, is not expanded: no mate follows it. The static analysis
runs again only after a pawn move or capture: after any other move the pieces only moved
within the regions it computed before, so it seldom helps, and skipping it only forgoes a
pruning. If the exploration ends within its cap without meeting the winner's checkmate, no
series of legal moves leads to one: unwinnable.
"""

from __future__ import annotations

from chessarbiter.core.moves import Move
from chessarbiter.core.position import Position
from chessarbiter.core.squares import PAWN
from chessarbiter.laws.deadpos.deadline import NEVER, Deadline
from chessarbiter.laws.deadpos.material import cannot_mate_by_material
from chessarbiter.laws.deadpos.static import statically_unwinnable
from chessarbiter.laws.deadpos.verdict import Outcome


def explore(
    pos: Position, winner: int, cap: int, deadline: Deadline = NEVER
) -> tuple[Outcome, tuple[Move, ...], int]:
    """Explore up to ``cap`` positions: WINNABLE with a helpmate, UNWINNABLE when every
    reachable position was seen without one, else UNDETERMINED; and the positions seen.
    ``pos`` is restored afterwards (not when ``deadline`` raises)."""
    loser = winner ^ 1
    seen = {pos.key()}
    line: list[Move] = []
    stack = [iter(pos.legal_moves())]
    outcome = Outcome.UNWINNABLE
    while stack:
        move = next(stack[-1], None)
        if move is None:
            stack.pop()
            if line:
                line.pop()
                pos.pop()
            continue
        structural = pos.board[(move >> 6) & 63] or pos.board[move & 63] & 7 == PAWN
        pos.push(move)
        key = pos.key()
        if key in seen:
            pos.pop()
            continue
        seen.add(key)
        deadline.tick()
        moves = pos.legal_moves()
        if not moves:
            if pos.turn == loser and pos.is_check():
                found = (*line, move)
                while line:
                    line.pop()
                    pos.pop()
                pos.pop()
                return Outcome.WINNABLE, found, len(seen)
        elif len(seen) > cap:
            outcome = Outcome.UNDETERMINED
            pos.pop()
            break
        elif not cannot_mate_by_material(pos.pieces, winner) and not (
            structural and statically_unwinnable(pos, winner)
        ):
            line.append(move)
            stack.append(iter(moves))
            continue
        pos.pop()
    while line:
        line.pop()
        pos.pop()
    return outcome, (), len(seen)
