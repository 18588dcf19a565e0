"""Squares, colours and pieces (Laws Art. 2): the board as 64 numbered squares.

Square 0 is a1, 7 is h1, 56 is a8 and 63 is h8. A bitboard is an int whose bit ``sq`` is set
when square ``sq`` is in the set. A piece is ``colour << 3 | piece type``.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final


class Side(IntEnum):
    """A colour (Art. 2.1): a player, his pieces, his clock display. The one colour type of
    the package; equal to 0 and 1, so it indexes per-colour tables and makes piece codes."""

    WHITE = 0
    BLACK = 1

    @property
    def opponent(self) -> Side:
        """The other side."""
        return Side.BLACK if self is Side.WHITE else Side.WHITE


WHITE: Final = Side.WHITE
BLACK: Final = Side.BLACK
SIDES: Final = (Side.WHITE, Side.BLACK)
"""``SIDES[colour]``: the side of a colour computed as a plain int (``piece >> 3``, ``us ^ 1``),
the form the rules core's hot paths compute with."""
COLOUR_NAMES: Final = ("white", "black")

PAWN: Final = 1
KNIGHT: Final = 2
BISHOP: Final = 3
ROOK: Final = 4
QUEEN: Final = 5
KING: Final = 6
PIECE_TYPES: Final = (PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING)
PIECE_NAMES: Final = ("", "pawn", "knight", "bishop", "rook", "queen", "king")

EMPTY: Final = 0
NO_SQUARE: Final = -1
FULL: Final = (1 << 64) - 1

FILE_NAMES: Final = "abcdefgh"
RANK_NAMES: Final = "12345678"
SQUARE_NAMES: Final = tuple(f + r for r in RANK_NAMES for f in FILE_NAMES)
_SQUARE_INDEX: Final = {name: sq for sq, name in enumerate(SQUARE_NAMES)}

PIECE_SYMBOLS: Final = " PNBRQK  pnbrqk"
"""``PIECE_SYMBOLS[piece]`` is the FEN letter of a piece (upper case for White)."""

FILES: Final = tuple(0x0101010101010101 << f for f in range(8))
RANKS: Final = tuple(0xFF << (8 * r) for r in range(8))
BACK_RANKS: Final = (RANKS[0], RANKS[7])


def piece(colour: int, piece_type: int) -> int:
    """The piece code of a colour and a piece type."""
    return colour << 3 | piece_type


def square(file: int, rank: int) -> int:
    """The square on a file (0-7, a-h) and rank (0-7, 1-8)."""
    return rank * 8 + file


def parse_square(name: str) -> int:
    """The square named like ``e4``; ``ValueError`` for anything else."""
    try:
        return _SQUARE_INDEX[name]
    except KeyError:
        raise ValueError(f"not a square: {name!r} (expected a file a-h and a rank 1-8)") from None


def squares_of(bb: int) -> list[int]:
    """The squares of a bitboard, lowest first."""
    out = []
    while bb:
        low = bb & -bb
        out.append(low.bit_length() - 1)
        bb ^= low
    return out


_LOW_62: Final = (1 << 62) - 1


def popcount(bb: int) -> int:
    """The number of squares of a bitboard, as ``bb.bit_count()``, which compiled code calls
    as a Python method: here the two highest squares are counted apart and the others with
    ints small enough to stay native."""
    high = bb >> 62
    low = bb & _LOW_62
    n = high - (high >> 1)
    while low:
        low &= low - 1
        n += 1
    return n
