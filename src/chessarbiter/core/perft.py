"""Perft: the number of leaf nodes of the legal-move tree, the standard check of a move
generator against published counts."""

from __future__ import annotations

from chessarbiter.core.movegen import count_moves, legal_moves
from chessarbiter.core.position import Position


def perft(pos: Position, depth: int, *, bulk: bool = True) -> int:
    """Leaf nodes at ``depth`` plies. ``bulk`` counts the last ply's moves without making them."""
    if depth <= 0:
        return 1
    if bulk and depth == 1:
        return count_moves(pos)
    nodes = 0
    push = pos.push
    pop = pos.pop
    for move in legal_moves(pos):
        push(move)
        nodes += perft(pos, depth - 1, bulk=bulk)
        pop()
    return nodes


def divide(pos: Position, depth: int) -> list[tuple[str, int]]:
    """Perft split by the first move: ``(uci, nodes)`` for each legal move."""
    out = []
    for move in legal_moves(pos):
        pos.push(move)
        out.append((pos_uci(pos, move), perft(pos, depth - 1)))
        pos.pop()
    return out


def pos_uci(pos: Position, move: int) -> str:
    """UCI of a move in the position's notation (Chess960 style when it is Chess960)."""
    return pos.uci(move)
