"""The rules core (Laws Art. 2-3): squares, attacks, positions, legal moves, keys, FEN.

Quick tour::

    from chessarbiter.core import Position, parse_fen
    pos = Position()                      # the initial position (Art. 2.3)
    move = pos.parse_uci("e2e4")          # legal moves are ints (see core.moves)
    pos.push(move); pos.pop()
    pos.legal_moves(), pos.is_check(), pos.is_checkmate(), pos.key(), pos.fen()
    Position.from_setup(pos.snapshot())   # a Setup is plain data; from_setup checks it

FEN text reads into a :class:`Setup`, and only :meth:`Position.from_setup` makes a position
of one (``parse_fen`` and ``Position(fen)`` do both).
"""

from chessarbiter.core.errors import (
    AmbiguousMoveError,
    ChessError,
    FenError,
    IllegalMoveError,
    InvalidMoveError,
    MoveError,
)
from chessarbiter.core.fen import parse_epd, parse_fen, write_fen
from chessarbiter.core.moves import (
    Move,
    from_square,
    is_castle,
    king_destination,
    make_move,
    promotion,
    to_square,
    uci,
)
from chessarbiter.core.perft import divide, perft
from chessarbiter.core.position import STARTING_FEN, Position
from chessarbiter.core.setup import Setup

__all__ = [
    "STARTING_FEN",
    "AmbiguousMoveError",
    "ChessError",
    "FenError",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "MoveError",
    "Position",
    "Setup",
    "divide",
    "from_square",
    "is_castle",
    "king_destination",
    "make_move",
    "parse_epd",
    "parse_fen",
    "perft",
    "promotion",
    "to_square",
    "uci",
    "write_fen",
]
