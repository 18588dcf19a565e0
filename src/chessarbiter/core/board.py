"""What decides the legal moves (Laws Art. 2-3): the pieces on the squares, the side to move
and the rights of castling and en passant, as move generation reads them
(:mod:`chessarbiter.core.movegen`, which takes a :class:`Board` and so needs no position).
"""

from __future__ import annotations

from chessarbiter.core.squares import Side


class Board:
    """The state move generation reads; :class:`chessarbiter.core.position.Position` holds
    it, with the clocks, the position key and the move history, and is what is built.

    ``board[sq]`` is the piece on a square (0 if empty), ``pieces[piece]`` its bitboard,
    ``occupied_co[colour]`` all squares of a colour. ``castling_rights`` is the bitboard of
    rooks that may still castle. ``ep_square`` is the square passed by the last double step
    (``-1`` if none), as FEN records it. ``turn`` is the side to move; the rules core's hot
    paths read it as the plain int ``_turn`` kept beside it (arithmetic on an ``IntEnum`` is
    slower).
    """

    __slots__ = ("_turn", "board", "castling_rights", "ep_square", "occupied_co", "pieces", "turn")
    board: list[int]
    pieces: list[int]
    occupied_co: list[int]
    turn: Side
    _turn: int
    castling_rights: int
    ep_square: int

    def colour_to_move(self) -> int:
        """The side to move as a plain int (0 White, 1 Black), as hot paths outside the
        core compute with it (:attr:`turn` is the same side as a :class:`Side`)."""
        return self._turn
