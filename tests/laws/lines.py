"""Replays a helpmate line for the dead-position tests."""

from __future__ import annotations

from chessarbiter.core.fen import parse_fen


def mates(fen: str, line: tuple[int, ...], winner: int) -> bool:
    """Whether ``line`` is legal from ``fen`` and ends with ``winner`` giving mate."""
    pos = parse_fen(fen)
    for move in line:
        if move not in pos.legal_moves():
            return False
        pos.push(move)
    return pos.is_checkmate() and pos.turn != winner
