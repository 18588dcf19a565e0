"""The board as lines of text (Laws Art. 2.1: the light square at each player's near right),
seen from either side, with unicode pieces or an ASCII fallback."""

from __future__ import annotations

from typing import Final

from chessarbiter.core.position import Position
from chessarbiter.core.squares import FILE_NAMES, PIECE_SYMBOLS, WHITE

_UNICODE: Final = {
    "K": "♔", "Q": "♕", "R": "♖", "B": "♗", "N": "♘", "P": "♙",
    "k": "♚", "q": "♛", "r": "♜", "b": "♝", "n": "♞", "p": "♟",
}


def piece_glyph(piece: int, unicode: bool = True) -> str:
    """The character for a piece (FEN letter in ASCII)."""
    letter = PIECE_SYMBOLS[piece]
    return _UNICODE.get(letter, letter) if unicode else letter


def board_lines(
    pos: Position, *, orientation: int = WHITE, unicode: bool = True
) -> list[str]:
    """Rank lines with coordinates, the ``orientation`` side at the bottom. Empty squares
    are ``·`` on dark and blank on light squares in unicode, ``.`` and blank in ASCII."""
    ranks = range(7, -1, -1) if orientation == WHITE else range(8)
    files = range(8) if orientation == WHITE else range(7, -1, -1)
    dark = "·" if unicode else "."
    lines = []
    for rank in ranks:
        cells = []
        for file in files:
            piece = pos.board[rank * 8 + file]
            if piece:
                cells.append(piece_glyph(piece, unicode))
            else:
                cells.append(dark if (rank + file) % 2 == 0 else " ")
        lines.append(f"{rank + 1} " + " ".join(cells))
    lines.append("  " + " ".join(FILE_NAMES[f] for f in files))
    return lines

