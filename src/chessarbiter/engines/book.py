"""The opening book: moves real players chose in the positions they reached most often.

``book.txt`` beside this module is built by ``bench/build_book.py`` from the corpus' real
games (lichess games of players rated 1500 or more, masters' games; see that script): per
position, the moves played with how often, the movers' points and how many centipawns
Stockfish at full strength scored each below its best (when the file was built: nothing
runs Stockfish here). A level plays a book move instantly when it is within the level's
tolerance (:func:`tolerance`), chosen at random by the points players scored with it (how
often it was played and how well it did), so that the engine varies its openings as
players do.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

from chessarbiter.core.moves import Move
from chessarbiter.core.position import Position

BOOK_FILE: Final = Path(__file__).with_name("book.txt")
BOOK_LOSS_CP: Final = 30
"""The most a book move may score below Stockfish's best for the full-strength level."""


@dataclass(frozen=True, slots=True)
class BookMove:
    """A move of the book: UCI text, games it was played in, the mover's points in them,
    and centipawns below Stockfish's best (at least that much beyond the build's margin)."""

    uci: str
    games: int
    points: float
    loss: int


def book_key(pos: Position) -> str:
    """The position as the book knows it: the FEN's placement, side to move, castling
    rights and en passant square (only when a capture there is legal), without counters."""
    return pos.fen(en_passant="legal").rsplit(" ", 2)[0]


def tolerance(noise_cp: int) -> int:
    """The loss a level accepts in a book move: :data:`BOOK_LOSS_CP`, or the level's score
    noise when larger (a level that errs by that much would play such a move anyway)."""
    return max(BOOK_LOSS_CP, noise_cp)


class Book:
    """Book moves by position (:func:`book_key`)."""

    def __init__(self, entries: dict[str, tuple[BookMove, ...]]) -> None:
        self.entries = entries

    @classmethod
    def parse(cls, text: str) -> Book:
        """A book from the text of a book file (``bench/build_book.py``)."""
        entries = {}
        for line in text.splitlines():
            if not line or line.startswith("#"):
                continue
            key, _, moves = line.partition("\t")
            entries[key] = tuple(
                BookMove(uci, int(games), float(points), int(loss))
                for uci, games, points, loss in (m.split(":") for m in moves.split())
            )
        return cls(entries)

    def moves(self, pos: Position) -> tuple[BookMove, ...]:
        """The book's moves in ``pos`` (none for a Chess960 game: castling differs)."""
        if pos.chess960:
            return ()
        return self.entries.get(book_key(pos), ())

    def pick(self, pos: Position, rng: random.Random, max_loss: int) -> Move | None:
        """A book move within ``max_loss`` centipawns of Stockfish's best, chosen by the
        points scored with it; ``None`` when the book has none (or only moves that scored
        nothing)."""
        choices = [m for m in self.moves(pos) if m.loss <= max_loss and m.points > 0]
        if not choices:
            return None
        chosen = rng.choices(choices, weights=[m.points for m in choices])[0]
        return pos.parse_uci(chosen.uci)


@cache
def shipped_book() -> Book:
    """The book shipped with the package (read once)."""
    return Book.parse(BOOK_FILE.read_text())
