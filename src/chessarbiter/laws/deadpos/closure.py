"""Exhaustive exploration of every position reachable from the analysed one.

Depth-first, each position once. A position whose material can never mate, or that the
static analysis proves unwinnable, is not expanded: no mate follows it. The static analysis
runs again only after a pawn move or capture: after any other move the pieces only moved
within the regions it computed before, so it seldom helps, and skipping it only forgoes a
pruning. For the same reason it backs off while it does not pay: each call that prunes
nothing doubles the number of structural moves skipped before the next (up to
:data:`MAX_GAP`), each that prunes resets it (in a caged-king pawn ending it never prunes
and would cost nine tenths of the time). If the exploration ends within its cap without
meeting the winner's checkmate, no series of legal moves leads to one: unwinnable.
"""

from __future__ import annotations

from typing import Final

from chessarbiter.core.moves import Move
from chessarbiter.core.position import Position
from chessarbiter.core.squares import PAWN
from chessarbiter.laws.deadpos.deadline import NEVER, Deadline
from chessarbiter.laws.deadpos.material import cannot_mate_by_material
from chessarbiter.laws.deadpos.static import statically_unwinnable
from chessarbiter.laws.deadpos.verdict import Outcome

MAX_GAP: Final = 255
"""The most structural moves the static analysis skips between two calls."""


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
    gap = skip = 0
    while stack:
        move = next(stack[-1], None)
        if move is None:
            stack.pop()
            if line:
                line.pop()
                pos.pop()
            continue
        structural = pos.board[(move >> 6) & 63] or pos.board[move & 63] & 7 == PAWN
        if structural and skip:
            skip -= 1
            structural = False
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
        elif not cannot_mate_by_material(pos.pieces, winner):
            if structural:
                if statically_unwinnable(pos, winner):
                    gap = skip = 0
                    pos.pop()
                    continue
                gap = skip = min(MAX_GAP, 2 * gap + 1)
            line.append(move)
            stack.append(iter(moves))
            continue
        pos.pop()
    while line:
        line.pop()
        pos.pop()
    return outcome, (), len(seen)
