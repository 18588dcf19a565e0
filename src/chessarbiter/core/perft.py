"""Perft: the number of leaf nodes of the legal-move tree, the standard check of a move
generator against published counts."""

from __future__ import annotations

from collections.abc import Callable

from chessarbiter.core.movegen import count_moves, legal_moves
from chessarbiter.core.position import Position

EVERY_DEPTH = 3
"""``every`` is called before each subtree this deep or deeper (a few thousand leaves each)."""


def perft(pos: Position, depth: int, *, bulk: bool = True,
          every: Callable[[], object] | None = None) -> int:
    """Leaf nodes at ``depth`` plies. ``bulk`` counts the last ply's moves without making them.
    ``every`` is called before each subtree of :data:`EVERY_DEPTH` plies or more: compiled,
    the count never returns to the interpreter, so an interpreted ``every`` is where Python
    runs its signal handlers (Ctrl-C stops the count there)."""
    if every is None or depth < EVERY_DEPTH:
        return _count(pos, depth, bulk)
    every()
    nodes = 0
    for move in legal_moves(pos):
        pos.push(move)
        nodes += perft(pos, depth - 1, bulk=bulk, every=every)
        pos.pop()
    return nodes


def _count(pos: Position, depth: int, bulk: bool) -> int:
    """:func:`perft` without ``every``: the hot loop, as lean as it can be."""
    if depth <= 0:
        return 1
    if bulk and depth == 1:
        return count_moves(pos)
    nodes = 0
    push = pos.push
    pop = pos.pop
    for move in legal_moves(pos):
        push(move)
        nodes += _count(pos, depth - 1, bulk)
        pop()
    return nodes


def divide(pos: Position, depth: int,
           every: Callable[[], object] | None = None) -> list[tuple[str, int]]:
    """Perft split by the first move: ``(uci, nodes)`` for each legal move; ``every`` as
    for :func:`perft`."""
    out = []
    for move in legal_moves(pos):
        pos.push(move)
        out.append((pos_uci(pos, move), perft(pos, depth - 1, every=every)))
        pos.pop()
    return out


def pos_uci(pos: Position, move: int) -> str:
    """UCI of a move in the position's notation (Chess960 style when it is Chess960)."""
    return pos.uci(move)
