"""Piece letters for SAN (Laws Appendix E1-E3; PGN standard 8.2.3).

E1 names the pieces by their initial in English (K Q R B N); E2 lets players use the initials
of their own language; the pawn has no letter (E3). Figurines (the Unicode chess symbols) are
the usual language-neutral form in print.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from chessarbiter.core.squares import BISHOP, KING, KNIGHT, QUEEN, ROOK


@dataclass(frozen=True, slots=True)
class PieceLetters:
    """One letter (or symbol) for each piece but the pawn (E1-E3)."""

    king: str
    queen: str
    rook: str
    bishop: str
    knight: str

    def __post_init__(self) -> None:
        letters = self.by_type()[2:]
        if any(len(letter) != 1 or letter in "abcdefgh12345678xX=+#-O0" for letter in letters):
            raise ValueError(
                f"piece letters {letters}: expected one character each, not a file, rank, "
                "or SAN sign"
            )
        if len(set(letters)) != 5:
            raise ValueError(f"piece letters {letters}: expected five different letters")

    def by_type(self) -> tuple[str, ...]:
        """The letters indexed by piece type (index 0 and the pawn, 1, are empty)."""
        return ("", "", self.knight, self.bishop, self.rook, self.queen, self.king)

    def to_type(self) -> dict[str, int]:
        """Letter -> piece type."""
        return {
            self.king: KING,
            self.queen: QUEEN,
            self.rook: ROOK,
            self.bishop: BISHOP,
            self.knight: KNIGHT,
        }


ENGLISH: Final = PieceLetters("K", "Q", "R", "B", "N")
"""E1 and the PGN standard (the only letters allowed in export format)."""
GERMAN: Final = PieceLetters("K", "D", "T", "L", "S")
"""König, Dame, Turm, Läufer, Springer."""
FRENCH: Final = PieceLetters("R", "D", "T", "F", "C")
"""Roi, Dame, Tour, Fou, Cavalier."""
SPANISH: Final = PieceLetters("R", "D", "T", "A", "C")
"""Rey, Dama, Torre, Alfil, Caballo (Italian uses the same letters)."""
DUTCH: Final = PieceLetters("K", "D", "T", "L", "P")
"""Koning, Dame, Toren, Loper, Paard."""
FIGURINES: Final = PieceLetters("♔", "♕", "♖", "♗", "♘")
"""The white figurines, as print uses them for both colours."""

LANGUAGES: Final = {
    "en": ENGLISH,
    "de": GERMAN,
    "fr": FRENCH,
    "es": SPANISH,
    "it": SPANISH,
    "nl": DUTCH,
    "figurine": FIGURINES,
}
"""Letter sets by language code, for command-line options."""

FIGURINE_TYPES: Final = {
    "♔": KING, "♕": QUEEN, "♖": ROOK, "♗": BISHOP, "♘": KNIGHT,
    "♚": KING, "♛": QUEEN, "♜": ROOK, "♝": BISHOP, "♞": KNIGHT,
}
"""Figurines of both colours -> piece type (the pawn figurines ♙ ♟ are dropped when read)."""
