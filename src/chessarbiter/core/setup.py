"""A setup: the six things a FEN records, as plain data, not necessarily a legal position.

Text becomes a :class:`Setup` (:func:`chessarbiter.core.fenfields.read_setup`) and a setup
becomes a position only through :meth:`chessarbiter.core.position.Position.from_setup`,
which checks it; :meth:`~chessarbiter.core.position.Position.snapshot` gives a position's.
"""

from __future__ import annotations

from typing import NamedTuple

from chessarbiter.core.squares import Side


class Setup(NamedTuple):
    """The pieces, side to move, castling rights, en passant square and clocks of a position
    (immutable, hashable, comparable; a named tuple, the cheapest record to build, since
    every FEN read and written builds one).

    ``board[sq]`` is the piece on square ``sq`` (0 to 63, a1 first; 0 if empty; a piece is
    ``colour << 3 | type``, :mod:`chessarbiter.core.squares`). ``castling_rights`` is the
    bitboard of the rooks that may still castle (Art. 3.8.2), ``ep_square`` the square a
    double step passed (``-1`` if none), as FEN records it; ``chess960`` says how castling
    letters are read and written (FIDE Guidelines II).
    """

    board: tuple[int, ...]
    turn: Side
    castling_rights: int
    ep_square: int
    halfmove_clock: int
    fullmove_number: int
    chess960: bool
