"""The cheap proofs one move on: after each legal move, with the forced moves that follow.

Every series of legal moves from a position that is not over begins with one of its legal
moves, and from there, while the side to move has a single legal move, goes on with it. So
the winner cannot mate when, after every legal move and the forced moves after it, the game
has ended without the winner's mate (no legal move, and not the loser checkmated), the
forced moves loop for ever, or the material, the static analysis or the exploration of
pawn structures proves it there. This sees one-move tempo facts the phases cannot: a lone
piece whose only move is a capture, made as soon as the opponent's moves allow no other.
"""

from __future__ import annotations

from chessarbiter.core.position import Position
from chessarbiter.laws.deadpos.deadline import NEVER, Deadline
from chessarbiter.laws.deadpos.forced import play_forced_moves
from chessarbiter.laws.deadpos.material import cannot_mate_by_material
from chessarbiter.laws.deadpos.phases import phases_unwinnable
from chessarbiter.laws.deadpos.static import statically_unwinnable


def every_move_proved(pos: Position, winner: int, cap: int, deadline: Deadline = NEVER) -> bool:
    """Whether after every legal move of ``pos``, and the forced moves that follow it, the
    winner's mate is proved impossible; the pawn-structure explorations together see at
    most ``cap`` phases. ``pos`` is not changed."""
    left = cap
    for move in pos.legal_moves():
        work = Position.from_snapshot(pos.snapshot())
        deadline.pace()
        work.push(move)
        _, looped = play_forced_moves(work)
        if looped:
            continue
        if work.count_legal_moves() == 0:
            if work.is_check() and work.turn != winner:
                return False
            continue
        if cannot_mate_by_material(work.pieces, winner) or statically_unwinnable(work, winner):
            continue
        if left <= 0:
            return False
        proved, seen = phases_unwinnable(work, winner, left, deadline)
        left -= seen
        if not proved:
            return False
    return True
