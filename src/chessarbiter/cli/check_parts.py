"""The ``check`` command's work in parts: a PGN file cut into runs of whole games, each
audited on its own (in worker processes), with reports small enough to send back.

A file is cut only where a line ends with a termination marker and a tag line follows after
a blank line: there the reader starts a new game whatever came before, except inside a
comment left open. A part whose last game ends in such an open comment is audited again
joined to the next part, so the reports are the same as those of one reader over the file.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Final, cast

from chessarbiter.arbiter.audit import ERROR, Finding, audit_game
from chessarbiter.notation.game import RecordedGame
from chessarbiter.notation.letters import LANGUAGES
from chessarbiter.notation.pgn_builder import UNCLOSED_AT_END
from chessarbiter.notation.pgn_reader import read_pgn
from chessarbiter.notation.pgn_tokens import parse_tags

PART_CHARS: Final = 1 << 19
"""About how much text one part holds."""
MAX_PART_CHARS: Final = 1 << 24
"""Past this much text without a place to cut, the rest of the file is read as one stream."""
_READ_CHARS: Final = 1 << 20
_BOUNDARY: Final = re.compile(
    r"(?<!\S)(?:1-0|0-1|1/2-1/2|\*)[ \t]*(?:\r\n|\r|\n)(?:[ \t]*(?:\r\n|\r|\n))+"
    r"(?=[ \t]*\[)"
)
"""A termination marker ending a line, blank lines, then (perhaps) a tag line."""


@dataclass(frozen=True, slots=True)
class Report:
    """What is printed about one audited game."""

    line: int
    tags: dict[str, str]
    result: str
    plies: int
    ending: str
    findings: tuple[Finding, ...]


@dataclass(frozen=True, slots=True)
class Options:
    """How games are read."""

    strict: bool = False
    letters: str = "en"


@dataclass(frozen=True, slots=True)
class Part:
    """A run of whole games: its text and the number of its first line; ``rest``, for the
    last part of a file that could not be cut, is the stream of the text after it."""

    text: str
    first_line: int
    rest: IO[str] | None = None


class _Joined:
    """A text and then a stream, read as one stream."""

    def __init__(self, text: str, rest: IO[str] | None) -> None:
        self.text = text
        self.rest = rest

    def read(self, size: int = -1) -> str:
        if self.text:
            if size < 0 or size >= len(self.text):
                head, self.text = self.text, ""
                return head
            head, self.text = self.text[:size], self.text[size:]
            return head
        return self.rest.read(size) if self.rest is not None else ""


def stream_reports(stream: IO[str], options: Options, first_line: int = 1) -> Iterator[Report]:
    """The reports of the games of a stream, one at a time."""
    games = read_pgn(stream, strict=options.strict, letters=LANGUAGES[options.letters],
                     first_line=first_line)
    for game in games:
        yield report(game)


def audit_part(part: Part, options: Options) -> tuple[list[Report], bool]:
    """The reports of a part's games, and whether its last game ends in a comment still
    open (then the next part must be read with it)."""
    source = io.StringIO(part.text) if part.rest is None else _Joined(part.text, part.rest)
    reports = list(stream_reports(cast(IO[str], source), options, part.first_line))
    return reports, bool(reports) and _open_comment(reports[-1])


def _open_comment(last: Report) -> bool:
    """Whether reading stopped in a ``{`` comment still open at the end of the text."""
    return any(f.severity == ERROR and f.code == "syntax" and f.move == "" and
               f.message.endswith(UNCLOSED_AT_END) for f in last.findings)


def report(game: RecordedGame) -> Report:
    """The audit of a game, as printed."""
    audit = audit_game(game)
    return Report(game.line, game.tags, game.result, audit.plies, audit.ending,
                  tuple(audit.findings))


def _line_count(text: str) -> int:
    """Lines the reader counts in ``text`` (LF, CRLF and CR end lines)."""
    return text.count("\n") + text.count("\r") - text.count("\r\n")


def parts(stream: IO[str]) -> Iterator[Part]:
    """A file's text (opened with ``newline=""``) in parts of whole games."""
    buffer = ""
    first_line = 1
    while True:
        more = stream.read(_READ_CHARS)
        searched = max(PART_CHARS, len(buffer) - 1024)
        buffer += more
        while len(buffer) > PART_CHARS:
            cut = _cut(buffer, searched)
            if cut < 0:
                break
            part, buffer = buffer[:cut], buffer[cut:]
            yield Part(part, first_line)
            first_line += _line_count(part)
            searched = PART_CHARS
        if not more:
            if buffer:
                yield Part(buffer, first_line)
            return
        if len(buffer) > MAX_PART_CHARS:
            yield Part(buffer, first_line, stream)
            return


def _cut(text: str, start: int) -> int:
    """Where a part may end, at or after ``start``; -1 if not in ``text``."""
    while True:
        match = _BOUNDARY.search(text, start)
        if match is None:
            return -1
        at = match.end()
        line_end = text.find("\n", at)
        if line_end < 0:
            return -1
        line_start = max(text.rfind("\n", 0, match.start() + 1),
                         text.rfind("\r", 0, match.start() + 1)) + 1
        if text[line_start:line_start + 1] != "%" and parse_tags(text[at:line_end])[0]:
            return at
        start = at
