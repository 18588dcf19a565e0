"""Builds one :class:`RecordedGame` from its tags and movetext lines (PGN standard 8.2).

Moves are checked as they are read, on one :class:`Position` that follows the line being read:
a variation (``(``) takes back the move it replaces, its end (``)``) restores the line. A move
that cannot be read in the main line stops the game (its :class:`PgnError` names the line, the
move number and the text); in a variation, a lenient reader drops the rest of that variation
and notes it, since a variation is commentary, not the game.
"""

from __future__ import annotations

from typing import Final

from chessarbiter.core.errors import (
    AmbiguousMoveError,
    FenError,
    IllegalMoveError,
    InvalidMoveError,
    MoveError,
)
from chessarbiter.core.fen import parse_fen, write_fen
from chessarbiter.core.position import Position
from chessarbiter.notation.game import PgnError, RecordedGame, RecordedMove
from chessarbiter.notation.nags import GLYPHS, NAG_LIMIT
from chessarbiter.notation.pgn_tokens import (
    CHESS960_VARIANTS,
    CLOSE,
    COMMENT,
    DRAW_OFFER,
    GLYPH,
    LINE_COMMENT,
    NAG,
    NULL_MOVE,
    OPEN,
    OPEN_COMMENT,
    RESULT,
    RESULT_MARKERS,
    SKIP,
    STANDARD_VARIANTS,
    SUFFIX,
    SYMBOL,
    TOKEN,
    UNREADABLE,
    classify,
    split_comment,
)
from chessarbiter.notation.san import SanReader, resolve

_START: Final = Position().snapshot()
UNCLOSED_AT_END: Final = "comment not closed at the end of the game"
"""The error of a game whose ``{`` comment is still open where the text ends."""
_CACHE_LIMIT: Final = 100_000

Frame = tuple[list[RecordedMove], RecordedMove | None]
"""An open variation: the line it branches from, and the move it replaces (``None`` for a
variation being skipped that replaces nothing)."""


class Context:
    """What the games of one source share: the mode, the SAN reader, the symbol cache, the
    limits and the current line number."""

    def __init__(self, san: SanReader, max_moves: int, max_comment: int) -> None:
        self.strict = san.strict
        self.san = san
        self.max_moves = max_moves
        self.max_comment = max_comment
        self.symbols: dict[str, tuple[int, ...]] = {}
        self.lineno = 0

    def symbol(self, text: str) -> tuple[int, ...]:
        """A symbol's meaning (cached): a parsed move or a ``(code, value)`` pair."""
        found = self.symbols.get(text)
        if found is None:
            found = classify(text)
            if found is None:
                try:
                    found = self.san.read_text(text)
                except InvalidMoveError:
                    found = (UNREADABLE, 0)
            if len(self.symbols) >= _CACHE_LIMIT:
                self.symbols.clear()
            self.symbols[text] = found
        return found


class GameBuilder:
    """One game being read."""

    def __init__(self, context: Context, line: int) -> None:
        self.context = context
        self.game = RecordedGame(line=line)
        self.tags = self.game.tags
        self.started = False
        """Movetext has begun."""
        self.pos: Position | None = None
        self.current: list[RecordedMove] = self.game.moves
        self.stack: list[Frame] = []
        self.pending = ""
        self.comment_parts: list[str] | None = None
        self.comment_size = 0
        self.error: PgnError | None = None
        self.skipping = -1
        """Nesting inside a variation being dropped, -1 when none is."""
        self.plies = 0
        self.moves_read = 0
        self.marker: str | None = None

    # -- errors -------------------------------------------------------------------------

    def fail(self, message: str, kind: str, text: str = "") -> None:
        """Stop reading this game's moves; the first error is the one reported."""
        if self.error is None:
            self.error = PgnError(self.context.lineno, message, kind, text)
        self.started = True

    def _move_error(self, exc: MoveError, text: str) -> None:
        if self.stack and not self.context.strict:
            self.skipping = 0
            self.game.notes.append(
                f"line {self.context.lineno}: variation dropped from {text!r}: {exc}"
            )
            return
        kind = (
            "ambiguous" if isinstance(exc, AmbiguousMoveError)
            else "illegal" if isinstance(exc, IllegalMoveError)
            else "invalid"
        )
        pos = self.pos
        assert pos is not None
        main = not self.stack
        self.error = PgnError(
            self.context.lineno, str(exc), kind, text, self.plies + 1 if main else 0,
            pos.fullmove_number, pos.turn == 1,
        )

    # -- the starting position ----------------------------------------------------------

    def _tag(self, name: str) -> str | None:
        """A tag's value; a lenient reader also finds it under another case (``fEn``)."""
        value = self.tags.get(name)
        if value is None and not self.context.strict:
            lower = name.lower()
            for key, found in self.tags.items():
                if key.lower() == lower:
                    return found
        return value

    def _setup(self) -> Position | PgnError:
        """The starting position from the Variant, SetUp and FEN tags (PGN standard 9.7)."""
        game = self.game
        line = self.context.lineno
        variant = self._tag("Variant")
        if variant is not None:
            name = variant.strip().lower()
            if name in CHESS960_VARIANTS:
                game.chess960 = True
            elif name not in STANDARD_VARIANTS:
                return PgnError(
                    line, f"Variant {variant!r} is not chess under the Laws: game skipped",
                    "position",
                )
        fen = (self._tag("FEN") or "").strip()
        if self.context.strict and (self.tags.get("SetUp") == "1") != bool(fen):
            return PgnError(
                line, 'a FEN tag needs SetUp "1" and SetUp "1" needs a FEN tag (PGN 9.7)',
                "position",
            )
        if not fen:
            pos = Position.from_snapshot(_START)
            pos.chess960 = game.chess960
            return pos
        try:
            pos = parse_fen(fen, chess960=game.chess960, lenient=not self.context.strict)
        except FenError as exc:
            return PgnError(line, f"FEN tag: {exc}", "position")
        game.start_fen = write_fen(pos)
        return pos

    # -- movetext -----------------------------------------------------------------------

    def movetext(self, line: str) -> int:
        """Read a line of movetext; returns where the rest of the line starts when a
        termination marker ended the game there, else -1."""
        if not self.started:
            self.started = True
            found = self._setup()
            if isinstance(found, PgnError):
                self.error = found
            else:
                self.pos = found
        return self._tokens(line)

    def _tokens(self, line: str) -> int:
        context = self.context
        symbol_of = context.symbol
        for match in TOKEN.finditer(line):
            kind = match.lastindex
            if kind == SYMBOL:
                text = match.group(1)
                parsed = context.symbols.get(text) or symbol_of(text)
                code = parsed[0]
                if code == RESULT:
                    if self.error is not None or self.skipping >= 0 or not self.stack:
                        self.marker = RESULT_MARKERS[parsed[1]]
                        return match.end()
                    if context.strict:
                        self.fail("termination marker inside a variation", "syntax", text)
                elif self.error is not None or self.skipping >= 0:
                    continue
                elif code >= 0:
                    self._move(parsed, text)
                elif code == GLYPH:
                    self._nag(parsed[1], text)
                elif code == UNREADABLE:
                    try:
                        context.san.read_text(text)
                    except InvalidMoveError as exc:
                        self._move_error(exc, text)
                elif code == NULL_MOVE:
                    self._move_error(
                        IllegalMoveError(f"null move {text!r}: passing is not a move (Art. 1.1)"),
                        text,
                    )
                elif code == SKIP and context.strict and text[0] not in "0123456789.":
                    self.fail(f"{text!r} is not part of standard movetext", "syntax", text)
            elif kind == COMMENT:
                self._comment(match.group(2))
            elif kind == OPEN:
                self._open()
            elif kind == CLOSE:
                self._close()
            elif kind == NAG:
                digits = match.group(3)  # int() refuses more than 4,300 digits
                nag = int(digits) if len(digits.lstrip("0")) < 4 else NAG_LIMIT + 1
                self._nag(nag, match.group(0))
            elif kind == SUFFIX:
                glyph = GLYPHS.get(match.group(4))
                if glyph is not None:
                    self._nag(glyph, match.group(4))
                elif context.strict:
                    self.fail(f"unknown annotation {match.group(4)!r}", "syntax")
            elif kind == DRAW_OFFER:
                if self.current and self.error is None and self.skipping < 0:
                    self.current[-1].draw_offer = True
            elif kind == LINE_COMMENT:
                self._comment(match.group(8))
            elif kind == OPEN_COMMENT:
                self.comment_parts = [match.group(9)]
                self.comment_size = len(match.group(9))
            elif self.error is None and self.skipping < 0:
                text = match.group(0)
                self.fail(f"unexpected character {text!r} in movetext", "syntax", text)
        return -1

    def _move(self, parsed: tuple[int, ...], text: str) -> None:
        pos = self.pos
        assert pos is not None
        try:
            if self.context.strict:
                move = self.context.san.parse(pos, text)
            else:
                move = resolve(pos, parsed, text)
        except MoveError as exc:
            self._move_error(exc, text)
            return
        self.moves_read += 1
        if self.moves_read > self.context.max_moves:
            self.fail(f"more than {self.context.max_moves} moves in one game", "limit")
            return
        self.current.append(RecordedMove(move, [], "", self.pending, None, None, False, [], text))
        self.pending = ""
        if not self.stack:
            self.plies += 1
        pos.push(move)

    def _nag(self, nag: int, text: str) -> None:
        """A NAG: kept when in 0-255 after a move (PGN standard 10); else an error of a
        strict reader, dropped (with a note when out of range) by a lenient one."""
        if self.error is not None or self.skipping >= 0:
            return
        shown = text if len(text) <= 12 else f"{text[:8]}... ({len(text) - 1} digits)"
        if nag > NAG_LIMIT:
            if self.context.strict:
                self.fail(f"NAG {shown} out of the range $0-${NAG_LIMIT} (PGN 10)", "syntax",
                          text[:12])
            else:
                self.game.notes.append(f"line {self.context.lineno}: NAG {shown} out of the "
                                       f"range $0-${NAG_LIMIT} dropped")
        elif self.current:
            self.current[-1].nags.append(nag)
        elif self.context.strict:
            self.fail(f"annotation {shown!r} without a move to annotate", "syntax", text[:12])

    def _open(self) -> None:
        if self.error is not None:
            return
        if self.skipping >= 0:
            self.skipping += 1
            return
        if not self.current or self.pos is None:
            if self.context.strict:
                self.fail("a variation without a move it could replace", "syntax", "(")
                return
            self.game.notes.append(f"line {self.context.lineno}: variation before any move dropped")
            self.stack.append((self.current, None))
            self.current = []
            self.skipping = 0
            return
        last = self.current[-1]
        self.pos.pop()
        line: list[RecordedMove] = []
        last.variations.append(line)
        self.stack.append((self.current, last))
        self.current = line
        self.pending = ""

    def _close(self) -> None:
        if self.error is not None:
            return
        if self.skipping > 0:
            self.skipping -= 1
            return
        if not self.stack:
            if self.context.strict:
                self.fail("')' without a variation to close", "syntax", ")")
            else:
                self.game.notes.append(f"line {self.context.lineno}: stray ')' ignored")
            return
        self.skipping = -1
        parent, last = self.stack.pop()
        if last is not None:
            pos = self.pos
            assert pos is not None
            for _ in self.current:
                pos.pop()
            pos.push(last.move)
        self.current = parent
        self.pending = ""

    def _comment(self, raw: str) -> None:
        if self.error is not None or self.skipping >= 0:
            return
        if not self.current or (self.pending and self.stack):
            text = " ".join(raw.split())
            if self.stack:
                self.pending = f"{self.pending} {text}".strip()
            else:
                self.game.comment = f"{self.game.comment} {text}".strip()
            return
        record = self.current[-1]
        text, clock, emt, offer = split_comment(raw)
        if clock is not None:
            record.clock_ms = clock
        if emt is not None:
            record.emt_ms = emt
        if offer:
            record.draw_offer = True
        if text:
            record.comment = f"{record.comment} {text}" if record.comment else text

    def continue_comment(self, text: str) -> None:
        """Add a line to a comment that spans lines."""
        parts = self.comment_parts
        assert parts is not None
        self.comment_size += len(text)
        if self.comment_size > self.context.max_comment:
            self.comment_parts = None
            self.fail(
                f"comment longer than {self.context.max_comment} characters "
                "(a '{' without its '}'?)", "limit",
            )
            return
        parts.append(text)

    def end_comment(self) -> None:
        """The closing ``}`` of a comment that spans lines."""
        parts = self.comment_parts
        self.comment_parts = None
        if parts is not None:
            self._comment(" ".join(parts))

    # -- the end ------------------------------------------------------------------------

    def finish(self) -> RecordedGame:
        """The game read: result, notes and error settled."""
        game = self.game
        if self.comment_parts is not None:
            self.fail(UNCLOSED_AT_END, "syntax", "{")
        if not self.started:
            found = self._setup()
            if isinstance(found, PgnError):
                self.error = found
        if self.stack and self.error is None:
            game.notes.append("variation not closed at the end of the game")
        tag = game.tags.get("Result")
        if self.marker is not None:
            game.result = self.marker
            if tag is not None and tag != self.marker:
                game.notes.append(
                    f"Result tag {tag!r} differs from the termination marker {self.marker!r}"
                )
        else:
            if tag is not None and tag in RESULT_MARKERS:
                game.result = tag
            if self.error is None and self.started:
                game.notes.append("no game termination marker")
        game.error = self.error
        return game
