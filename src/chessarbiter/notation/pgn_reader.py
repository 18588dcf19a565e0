"""A streaming PGN reader (PGN standard import format, and the messy real world).

:func:`read_pgn` yields one :class:`RecordedGame` per game, reading the source line by line in
bounded memory, so files of any size can be read. A game that cannot be read is still yielded,
with :attr:`RecordedGame.error` set (line, kind, move number, text) and the moves before the
error; callers skip it or report it. The next game is never lost: a game ends at its
termination marker, at the next tag section (also without a blank line before it), or where
movetext starts again at move 1 after a blank line. A blank line inside movetext does not end
a game.

Accepted besides the standard: a UTF-8 byte-order mark, CRLF or CR line ends, leading blanks,
several tags to a line, tags and moves on one line, a tag value without its closing quote,
``½-½`` and en/em-dash results, lenient SAN (:mod:`chessarbiter.notation.san`), suffix
annotations and evaluation symbols (read as NAGs), ``e.p.`` marks, ``(=)`` draw offers, a
``FEN`` tag without ``SetUp``, ``SetUp`` without ``FEN`` (the initial position), tag names in
another case (``fEn``), and Chess960 (``Variant "Chess960"``). ``strict=True`` reads the
standard only: strict SAN, ``SetUp "1"`` exactly with ``FEN``, no stray tokens.

Other variants (crazyhouse, antichess, ...) are not chess under the Laws: such games are
reported with an error of kind ``position``. Null moves (``--``) are errors too: passing is
not a move (Art. 1.1).
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Final, cast

from chessarbiter.notation.game import RecordedGame
from chessarbiter.notation.letters import ENGLISH, PieceLetters
from chessarbiter.notation.pgn_builder import Context, GameBuilder
from chessarbiter.notation.pgn_tokens import RESTART, parse_tags, unescape_tag_value
from chessarbiter.notation.san import SanReader

_INVISIBLE: Final = dict.fromkeys(map(ord, "\ufeff\u200b\u200c\u200d\u200e\u200f\u2060"), " ")
"""Zero-width characters that web pages and editors leave in PGN, read as blanks."""
_FORUM_TAG: Final = re.compile(r"\s*\[/?pgn\]", re.IGNORECASE)
"""The ``[pgn]...[/pgn]`` delimiters of forum posts."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds that keep memory and time finite on hostile input."""

    line_chars: int = 1 << 20
    """The longest line read; a longer line is an error of its game (and is not kept)."""
    comment_chars: int = 1 << 20
    """The longest comment."""
    moves: int = 100_000
    """Moves per game, variations included (the longest game the Laws allow has fewer
    than 12,000 half-moves)."""


DEFAULT_LIMITS = Limits()


def read_pgn(
    source: IO[str] | IO[bytes],
    *,
    strict: bool = False,
    letters: PieceLetters = ENGLISH,
    headers_only: bool = False,
    limits: Limits = DEFAULT_LIMITS,
    first_line: int = 1,
) -> Iterator[RecordedGame]:
    """Yield the games of a PGN stream: text, or bytes read as UTF-8 (undecodable bytes
    become U+FFFD). A game that cannot be read completely is yielded too, with its ``error``.

    ``headers_only`` skips movetext (much faster): the games have tags and no moves; a game
    ends where a tag section follows movetext or repeats a tag name, so games without tags
    are not listed. ``first_line`` numbers the stream's first line (for a part of a file).
    """
    text: IO[str]
    if isinstance(source.read(0), bytes):
        text = io.TextIOWrapper(cast(IO[bytes], source), encoding="utf-8", errors="replace")
    else:
        text = cast(IO[str], source)
    chunks = _chunks(text, limits.line_chars)
    if headers_only:
        return _headers(chunks, first_line)
    context = Context(SanReader(strict=strict, letters=letters), limits.moves, limits.comment_chars)
    context.lineno = first_line - 1
    return _games(_lines(chunks, limits.line_chars), context, limits.line_chars)


def read_pgn_text(
    text: str, *, strict: bool = False, letters: PieceLetters = ENGLISH,
    headers_only: bool = False, limits: Limits = DEFAULT_LIMITS,
) -> list[RecordedGame]:
    """Every game of a PGN text."""
    return list(read_pgn(io.StringIO(text), strict=strict, letters=letters,
                         headers_only=headers_only, limits=limits))


def read_pgn_file(
    path: str | os.PathLike[str], *, strict: bool = False, letters: PieceLetters = ENGLISH,
    headers_only: bool = False, limits: Limits = DEFAULT_LIMITS,
) -> Iterator[RecordedGame]:
    """Yield the games of a PGN file (read as UTF-8), closing it at the end."""
    with open(path, encoding="utf-8", errors="replace") as stream:
        yield from read_pgn(stream, strict=strict, letters=letters,
                            headers_only=headers_only, limits=limits)


_CHUNK: Final = 1 << 16
_TAG_LINE: Final = re.compile(
    r'^[ \t]*\[([^\s"\[\]]+)\s*"([^"\\]*(?:\\.[^"\\]*)*)"\s*\][ \t]*$', re.MULTILINE
)
"""A line that is exactly one tag pair (headers-only reading takes blocks of them)."""
_TAG_BLOCK: Final = re.compile(r'(?:\[[A-Za-z0-9_]+ "[^"\\\n]*"\]\n)+')
"""A block of tag pairs as export format writes them (no escapes), read at C speed."""
_FAST_TAG: Final = re.compile(r'\[([A-Za-z0-9_]+) "([^"\\\n]*)"\]\n')


def _chunks(stream: IO[str], limit: int) -> Iterator[str | None]:
    """The text in pieces that end at line ends, with CRLF and CR turned into LF, a leading
    byte-order mark dropped and other zero-width characters read as blanks; ``None`` stands
    for a line over ``limit`` characters, whose text is dropped as it is read."""
    tail = ""
    dropping = False
    chunk = stream.read(_CHUNK)
    if chunk[:1] == "\ufeff":
        chunk = chunk[1:]
    while chunk:
        if "\r" in chunk:
            while chunk[-1] == "\r":
                more = stream.read(1)
                if not more:
                    break
                chunk += more
            chunk = chunk.replace("\r\n", "\n").replace("\r", "\n")
        if not chunk.isascii():
            chunk = chunk.translate(_INVISIBLE)
        cut = chunk.rfind("\n")
        if dropping and cut >= 0:
            yield None
            dropping = False
            chunk = chunk[chunk.find("\n") + 1 :]
            cut = chunk.rfind("\n")
        if dropping:
            pass
        elif cut < 0:
            tail += chunk
        else:
            yield tail + chunk[: cut + 1]
            tail = chunk[cut + 1 :]
        if len(tail) > limit:
            tail = ""
            dropping = True
        chunk = stream.read(_CHUNK)
    if dropping:
        yield None
    elif tail:
        yield tail


def _lines(chunks: Iterator[str | None], limit: int) -> Iterator[str | None]:
    """The lines of the chunks; ``None`` for a line over ``limit`` characters."""
    for piece in chunks:
        if piece is None:
            yield None
            continue
        lines = piece.split("\n")
        if not lines[-1]:
            lines.pop()
        for line in lines:
            yield line if len(line) <= limit else None


def _is_tag_line(line: str) -> bool:
    first = line[:1]
    return first == "[" or ((first == " " or first == "\t") and line.lstrip()[:1] == "[")


class _Headers:
    """The game being collected by headers-only reading."""

    def __init__(self) -> None:
        self.tags: dict[str, str] = {}
        self.start = 0
        self.moves = False

    def add(self, pairs: list[tuple[str, str]], lineno: int) -> RecordedGame | None:
        """Add a line's tag pairs; returns the previous game when they start a new one."""
        done = None
        tags = self.tags
        if self.moves or (tags and any(name in tags for name, _ in pairs)):
            done = RecordedGame(tags, line=self.start)
            tags = self.tags = {}
            self.moves = False
        if not tags:
            self.start = lineno
        tags.update(pairs)
        return done

    def gap(self, text: str, lineno: int, in_comment: bool) -> list[RecordedGame]:
        """Text between tag blocks: movetext, or tag lines with movetext after them; a tag
        line inside a ``{`` comment is comment text unless a blank line comes before it."""
        done = []
        blank = False
        for line in text.split("\n"):
            if _is_tag_line(line) and (not in_comment or blank):
                pairs, rest = parse_tags(line)
                if pairs:
                    in_comment = False
                    game = self.add(pairs, lineno)
                    if game is not None:
                        done.append(game)
                    line = line[rest:]
            if line and not line.isspace():
                self.moves = True
                in_comment = _comment_open(line, in_comment)
                blank = False
            else:
                blank = True
            lineno += 1
        return done

    def finish(self) -> list[RecordedGame]:
        return [RecordedGame(self.tags, line=self.start)] if self.tags or self.moves else []


def _next_tag_line(text: str, pos: int) -> int:
    """Where the next line starting with ``[`` begins at or after ``pos``; -1 if none."""
    if pos == 0 and text[:1] == "[":
        return 0
    found = text.find("\n[", pos - 1 if pos else 0)
    return found + 1 if found >= 0 else -1


def _comment_open(gap: str, was_open: bool) -> bool:
    """Whether a ``{`` comment is open after the movetext ``gap`` (comments do not nest: a
    ``}`` closes whatever is open; a ``;`` comment hides braces to the end of its line)."""
    opening = gap.rfind("{")
    closing = gap.rfind("}")
    if opening < closing:
        return False
    if opening < 0:
        return was_open
    if ";" not in gap:
        return True
    at = 0
    open_now = was_open
    while True:
        if open_now:
            at = gap.find("}", at)
            if at < 0:
                return True
            open_now = False
        else:
            brace = gap.find("{", at)
            semicolon = gap.find(";", at, brace if brace >= 0 else len(gap))
            if semicolon >= 0:
                at = gap.find("\n", semicolon)
                if at < 0:
                    return False
                continue
            if brace < 0:
                return False
            open_now = True
            at = brace
        at += 1


def _headers(chunks: Iterator[str | None], first_line: int) -> Iterator[RecordedGame]:
    """Tags only: each chunk is searched for blocks of tag lines (most at once by
    :data:`_TAG_BLOCK`); a game ends where a tag follows other text (its movetext) or
    repeats a tag name of the game. A block inside a ``{`` comment is comment text, unless
    a blank line comes before it (the full reader starts a new game there too)."""
    state = _Headers()
    lineno = first_line
    in_comment = False
    blank_before = True
    for text in chunks:
        if text is None:
            lineno += 1
            state.moves = True
            continue
        last = counted = 0
        at = _next_tag_line(text, 0)
        while at >= 0:
            block = _TAG_BLOCK.match(text, at)
            if block is not None and text.startswith("\n", block.end()):
                end = block.end() + 1
                pairs = _FAST_TAG.findall(text, at, end)
            else:
                end = text.find("\n\n", at)
                end = len(text) if end < 0 else end + 1
                pairs = _TAG_LINE.findall(text, at, end)
                if len(pairs) != text.count("\n", at, end) + (text[end - 1] != "\n"):
                    at = _next_tag_line(text, at + 1)
                    continue
                if "\\" in text[at:end]:
                    pairs = [(name, unescape_tag_value(value)) for name, value in pairs]
            gap = text[last:at]
            if _comment_open(gap, in_comment) and not (
                text.startswith("\n\n", at - 2) if at else blank_before
            ):
                at = _next_tag_line(text, at + 1)  # a tag line inside a comment
                continue
            if "[" in gap:
                yield from state.gap(gap, lineno + text.count("\n", counted, last), in_comment)
            elif gap and not gap.isspace():
                state.moves = True
            in_comment = False
            lineno += text.count("\n", counted, at)
            counted = at
            done = state.add(pairs, lineno)
            if done is not None:
                yield done
            last = end
            at = _next_tag_line(text, end)
        if last < len(text):
            tail = text[last:]
            yield from state.gap(tail, lineno + text.count("\n", counted, last), in_comment)
            in_comment = _comment_open(tail, in_comment)
        lineno += text.count("\n", counted)
        blank_before = text.endswith("\n\n") or text == "\n"
    yield from state.finish()


def _games(
    lines: Iterator[str | None], context: Context, line_limit: int
) -> Iterator[RecordedGame]:
    """Full games: tags, then movetext read and checked move by move."""
    game = GameBuilder(context, context.lineno + 1)
    blank = False
    for line in lines:
        context.lineno += 1
        if line is None:
            game.fail(f"line longer than the limit of {line_limit} characters", "limit")
            continue
        if game.comment_parts is not None:
            end = line.find("}")
            if end >= 0:
                game.continue_comment(line[:end])
                game.end_comment()
                line = line[end + 1 :]
            elif blank and _is_tag_line(line) and parse_tags(line)[0]:
                game.fail("a comment opened with '{' is not closed before the next game",
                          "syntax", "{")
                game.comment_parts = None
            else:
                blank = not line or line.isspace()
                game.continue_comment(line)
                continue
        elif not line or line.isspace():
            blank = True
            continue
        elif line[0] == "%":
            continue
        if _is_tag_line(line):
            pairs, rest = parse_tags(line)
            if not pairs and (context.strict or not _FORUM_TAG.match(line)):
                if context.strict:
                    game.fail(f"unreadable tag pair {line.strip()[:80]!r}", "syntax")
                else:
                    game.game.notes.append(f"line {context.lineno}: unreadable tag pair skipped")
                continue
            if not pairs:
                line = _FORUM_TAG.sub(" ", line)
            elif game.started or any(name in game.tags for name, _ in pairs):
                if _worth_yielding(game):
                    yield game.finish()
                game = GameBuilder(context, context.lineno)
            elif not game.tags:
                game.game.line = context.lineno
            if pairs:
                game.tags.update(pairs)
                line = line[rest:]
            blank = False
            if not line or line.isspace():
                continue
        elif blank and game.started and RESTART.match(line) and (
            game.error is not None or (game.plies and not game.stack)
        ):
            yield game.finish()
            game = GameBuilder(context, context.lineno)
        blank = False
        if not game.started and not game.tags:
            game.game.line = context.lineno
        while True:
            rest_at = game.movetext(line)
            if rest_at < 0:
                break
            if _worth_yielding(game):
                yield game.finish()
            game = GameBuilder(context, context.lineno)
            line = line[rest_at:]
            if not line or line.isspace():
                break
    if game.comment_parts is not None or _worth_yielding(game):
        yield game.finish()


def _worth_yielding(game: GameBuilder) -> bool:
    """A game unless it is only comments or a stray marker between games."""
    return bool(game.tags or game.game.moves or game.error is not None)
