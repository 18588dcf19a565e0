"""Replays a helpmate line for the dead-position tests."""

from __future__ import annotations

import chess

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.moves import uci


def mates(fen: str, line: tuple[int, ...], winner: int) -> bool:
    """Whether ``line`` is legal from ``fen`` and ends with ``winner`` giving mate."""
    pos = parse_fen(fen)
    for move in line:
        if move not in pos.legal_moves():
            return False
        pos.push(move)
    return pos.is_checkmate() and pos.turn != winner


def python_chess_mates(fen: str, line: tuple[int, ...], winner: int) -> bool:
    """:func:`mates` by python-chess, the test-only oracle."""
    board = chess.Board(fen)
    for code in map(uci, line):
        move = chess.Move.from_uci(code)
        if move not in board.legal_moves:
            return False
        board.push(move)
    return board.is_checkmate() and board.turn != (winner == 0)
