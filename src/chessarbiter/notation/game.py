"""The recorded game: what a scoresheet holds (Laws Art. 8.1 and "The Scoresheet"), as a value.

A :class:`RecordedGame` is the tags (Event, Site, Date, Round, Board, White, Black, ratings,
teams, TimeControl, Result, ...), the starting position, and the main line of
:class:`RecordedMove` records. Each move keeps what a scoresheet or a PGN file may say about it:
comments, NAGs, the clock reading after it (``%clk``), the time it took (``%emt``), a draw
offer made with it (Art. 9.1.2.3 / Appendix E12 "(=)"), and alternative lines (variations).

The PGN reader builds these values; the PGN writer writes them; the arbiter can build them from
its own records (moves as :data:`chessarbiter.core.Move` ints) and export them. Moves are
stored as legal moves, not as text: SAN is computed when written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from chessarbiter.core.moves import Move
from chessarbiter.core.position import STARTING_FEN, Position

RESULTS: Final = ("1-0", "0-1", "1/2-1/2", "*")
"""The PGN game termination markers: White won, Black won, drawn, unknown or unfinished."""

SEVEN_TAG_ROSTER: Final = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
"""The tags every exported game carries, in this order (PGN standard 8.1.1)."""


@dataclass(slots=True)
class RecordedMove:
    """One move of a game or variation, with what was recorded about it."""

    move: Move
    """The legal move (``chessarbiter.core.moves`` encoding)."""
    nags: list[int] = field(default_factory=list)
    """Numeric annotation glyphs (``$1`` = ``!``, ...; see :mod:`chessarbiter.notation.nags`)."""
    comment: str = ""
    """Commentary after the move, whitespace-normalised, without ``%clk``/``%emt``/``(=)``."""
    pre_comment: str = ""
    """Commentary before the first move of a variation (the game's opening comment is
    :attr:`RecordedGame.comment`)."""
    clock_ms: int | None = None
    """The mover's clock reading after the move (``[%clk h:mm:ss]``), in milliseconds."""
    emt_ms: int | None = None
    """The time the move took (``[%emt h:mm:ss]``), in milliseconds."""
    draw_offer: bool = False
    """The mover offered a draw with this move (Art. 9.1.2.2-9.1.2.3; written ``{(=)}``)."""
    variations: list[list[RecordedMove]] = field(default_factory=list)
    """Alternative lines to this move, each starting with a move in its place."""
    san: str = field(default="", compare=False)
    """The move as written in the source, when it was read (not compared: the same move
    may be written several ways)."""


@dataclass(slots=True)
class RecordedGame:
    """A game as recorded: tags, starting position, main line and result."""

    tags: dict[str, str] = field(default_factory=dict)
    """Tag pairs in the order read; names are case-sensitive (``Event``, ``WhiteElo``, ...)."""
    moves: list[RecordedMove] = field(default_factory=list)
    """The main line."""
    start_fen: str = STARTING_FEN
    """The position before the first move (the ``FEN`` tag of a set-up game)."""
    chess960: bool = False
    """Chess960 castling rules (``Variant "Chess960"``; FIDE Guidelines II)."""
    result: str = "*"
    """The game termination marker: one of :data:`RESULTS`."""
    comment: str = ""
    """Commentary before the first move (or of a game without moves)."""
    line: int = field(default=0, compare=False)
    """The line of the source where the game starts (0 when not read from a file)."""
    error: PgnError | None = field(default=None, compare=False)
    """Why the game could not be read completely; its moves are those before the error."""
    notes: list[str] = field(default_factory=list, compare=False)
    """What the lenient reader repaired or dropped (a broken variation, a stray ``)``, a
    missing termination marker, ...)."""

    def start_position(self) -> Position:
        """A fresh position at the start of the game."""
        return Position(self.start_fen, chess960=self.chess960)

    def replay(self) -> Position:
        """The position after the main line (its ``move_stack`` holds the moves)."""
        pos = self.start_position()
        for record in self.moves:
            pos.push(record.move)
        return pos

    def mainline(self) -> list[Move]:
        """The moves of the main line."""
        return [record.move for record in self.moves]


@dataclass(frozen=True, slots=True)
class PgnError:
    """A problem that stopped a game from being read: where it is and what it is."""

    line: int
    """The line of the source (from 1)."""
    message: str
    kind: str
    """``syntax`` (unreadable text), ``invalid`` (unparseable move), ``illegal``,
    ``ambiguous``, ``position`` (bad FEN/SetUp/Variant), ``limit`` (size limits)."""
    text: str = ""
    """The offending token."""
    ply: int = 0
    """For a move of the main line: its half-move index from the game's start (1 = first),
    else 0."""
    move_number: int = 0
    """For a move: the scoresheet's move number (the position's fullmove number), else 0."""
    black: bool = False
    """For a move: whether it is Black's."""

    def __str__(self) -> str:
        if self.move_number:
            dots = "..." if self.black else "."
            return f"line {self.line}: move {self.move_number}{dots} {self.text}: {self.message}"
        return f"line {self.line}: {self.message}"
