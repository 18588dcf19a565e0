"""Touch-move (Laws Art. 4.3-4.5, castling 4.4): which moves the touched pieces allow."""

from __future__ import annotations

from collections.abc import Sequence

from chessarbiter.core.moves import CASTLE_FLAG, Move
from chessarbiter.core.position import Position
from chessarbiter.core.squares import PAWN, ROOK


def touch_bound_moves(pos: Position, touched: Sequence[int], legal: Sequence[Move]) -> list[Move]:
    """The legal moves still allowed after the player having the move touched the pieces on
    ``touched`` (in order).

    * King, then a rook: castle with that rook if legal; else another king move, castling with
      the other rook included; else any move (4.4.1-4.4.3, S4.4a/c).
    * Own and enemy piece touched: capture the enemy piece with the own one (4.3.3) if legal.
    * Otherwise the first touched piece that can move (own) or be captured (enemy) must be;
      a rook touched before the king forbids castling with it (4.4.4, S4.4b).
    * Nothing touched can move or be taken: any legal move (4.5).
    """
    if not touched:
        return list(legal)
    board = pos.board
    us = pos.turn
    own = [sq for sq in touched if board[sq] >> 3 == us]
    enemy = [sq for sq in touched if board[sq] >> 3 != us]
    king = pos.king(us)
    if own and own[0] == king:
        rook = next((sq for sq in own[1:] if board[sq] & 7 == ROOK), None)
        if rook is not None:
            castles = [m for m in legal if m & CASTLE_FLAG and (m >> 6) & 63 == rook]
            king_moves = [m for m in legal if m & 63 == king]
            return castles or king_moves or list(legal)
    if own and enemy:
        captures = [m for m in legal if m & 63 == own[0] and _captured(pos, m) == enemy[0]]
        if captures:
            return captures
    before_king = own[: own.index(king)] if king in own else []
    for sq in touched:
        if board[sq] >> 3 == us:
            moves = [
                m for m in legal
                if m & 63 == sq and not (m & CASTLE_FLAG and (m >> 6) & 63 in before_king)
            ]
        else:
            moves = [m for m in legal if _captured(pos, m) == sq]
        if moves:
            return moves
    return list(legal)


def _captured(pos: Position, move: int) -> int:
    """The square of the piece ``move`` captures, -1 if none (en passant included)."""
    if move & CASTLE_FLAG:
        return -1
    to = (move >> 6) & 63
    if pos.board[to]:
        return to
    if to == pos.ep_square and pos.board[move & 63] & 7 == PAWN:
        return to ^ 8
    return -1

