"""The lexical layer of PGN import format (PGN standard 7-8): tag pairs, movetext tokens,
game termination markers and comment commands.

Movetext is cut into tokens by one regular expression per line; move numbers are skipped
inside it. Symbols (moves, results, glyphs) are then classified once and the answer cached by
the reader, since real files use a small vocabulary.
"""

from __future__ import annotations

import re
from typing import Final

from chessarbiter.clock import parse_clock_time
from chessarbiter.notation.nags import GLYPHS

TOKEN: Final = re.compile(
    r"""(?:\d+\s*\.+\s*)*(?:
      ([^\s{}();$!?\[\]]+(?:(?<=[18])\([A-Z]\))?)  # 1 symbol: a move (b8(Q) too), a
                            # result, a move number, a glyph
    | \{([^}]*)\}           # 2 comment
    | \$(\d+)               # 3 NAG
    | ([!?]+)               # 4 suffix annotation
    | (\(=\))               # 5 draw offer written on the scoresheet (E12)
    | (\()                  # 6 variation start
    | (\))                  # 7 variation end
    | ;(.*)                 # 8 rest-of-line comment
    | \{(.*)                # 9 comment continued on the next lines
    | (\S)                  # 10 anything else
    )""",
    re.VERBOSE,
)
"""One movetext token; ``match.lastindex`` says which kind."""
SYMBOL, COMMENT, NAG, SUFFIX, DRAW_OFFER, OPEN, CLOSE, LINE_COMMENT, OPEN_COMMENT, OTHER = range(
    1, 11
)

TAG: Final = re.compile(r'\[\s*([^\s"\[\]]+)\s*"([^"\\]*(?:\\.[^"\\]*)*)"\s*\]')
"""A tag pair; several may share a line."""
_LOOSE_TAG: Final = re.compile(r'\[\s*([^\s"\[\]]+)\s*"(.*?)"?\s*\]\s*$')
"""A tag pair whose value lacks its closing quote (``[Event "Paris]``)."""
_UNESCAPE: Final = re.compile(r"\\(.)")

RESTART: Final = re.compile(r"\s*1\s*\.(?!\.)")
"""A movetext line that starts again at move 1 (a new game without tags)."""

CHESS960_VARIANTS: Final = frozenset(
    {"chess960", "chess 960", "fischerandom", "fischer random", "960"}
)
"""Variant tag values (lower case) that mean Chess960 (FIDE Guidelines II)."""
STANDARD_VARIANTS: Final = frozenset({"standard", "chess", "from position", "normal", ""})
"""Variant tag values (lower case) that mean chess under the Laws."""

_DASHES: Final = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"), "-")
_RESULTS: Final = {
    "1-0": "1-0",
    "0-1": "0-1",
    "1/2-1/2": "1/2-1/2",
    "*": "*",
    "½-½": "1/2-1/2",
    "1/2": "1/2-1/2",
    "½": "1/2-1/2",
    "=-=": "1/2-1/2",
}
"""Written termination marker -> the PGN marker (unicode halves and dashes are normalised)."""

_MOVE_NUMBER: Final = re.compile(r"\d+\.*|\.+")
_IGNORED: Final = frozenset({"e.p.", "ep", "e.p", "(ep)"})
"""Symbols that annotate the previous move without changing it."""
_NULL_MOVES: Final = frozenset({"--", "Z0", "0000", "@@@@", "<>"})


def result_marker(symbol: str) -> str | None:
    """The PGN termination marker a symbol writes, or ``None``."""
    found = _RESULTS.get(symbol)
    if found is None and not symbol.isascii():
        found = _RESULTS.get(symbol.translate(_DASHES))
    return found


RESULT: Final = -1
"""Symbol codes for what is not a move; a move is a 6-tuple of non-negative ints
(:data:`chessarbiter.notation.san.Parsed`), anything else ``(code, value)``."""
SKIP: Final = -2
GLYPH: Final = -3
NULL_MOVE: Final = -4
UNREADABLE: Final = -5
RESULT_MARKERS: Final = ("1-0", "0-1", "1/2-1/2", "*")


def classify(symbol: str) -> tuple[int, int] | None:
    """What a symbol is when not a move: ``(RESULT, index in RESULT_MARKERS)``,
    ``(GLYPH, nag)``, ``(SKIP, 0)`` for move numbers and ``e.p.``, ``(NULL_MOVE, 0)``;
    ``None`` when it should be a move."""
    marker = result_marker(symbol)
    if marker is not None:
        return (RESULT, RESULT_MARKERS.index(marker))
    if _MOVE_NUMBER.fullmatch(symbol) or symbol in _IGNORED:
        return (SKIP, 0)
    nag = GLYPHS.get(symbol)
    if nag is not None:
        return (GLYPH, nag)
    if symbol in _NULL_MOVES:
        return (NULL_MOVE, 0)
    return None


def parse_tags(line: str) -> tuple[list[tuple[str, str]], int]:
    """The tag pairs at the start of a line and where the rest of the line starts
    (``[]``, 0 when the line does not start with a tag pair)."""
    pairs = []
    end = 0
    pos = len(line) - len(line.lstrip())
    while True:
        match = TAG.match(line, pos)
        if match is None:
            break
        value = match.group(2)
        if "\\" in value:
            value = unescape_tag_value(value)
        pairs.append((match.group(1), value))
        end = match.end()
        pos = end + len(line[end:]) - len(line[end:].lstrip())
    if not pairs:
        loose = _LOOSE_TAG.match(line, pos)
        if loose is not None:
            return [(loose.group(1), loose.group(2))], len(line)
    return pairs, end


def unescape_tag_value(value: str) -> str:
    """A tag value with its ``\\\\`` and ``\\"`` escapes resolved."""
    return _UNESCAPE.sub(r"\1", value)


def escape_tag_value(value: str) -> str:
    """A tag value with ``\\`` and ``"`` escaped (PGN standard 7)."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


_COMMAND: Final = re.compile(r"\[%(clk|emt)\s+([^\]\s]*)\s*\]")
_ONLY_CLOCK: Final = re.compile(r"\[%clk\s+([^\]\s]*)\s*\]")


def split_comment(text: str) -> tuple[str, int | None, int | None, bool]:
    """A comment's text (whitespace-normalised) without its ``[%clk]`` and ``[%emt]``
    commands and ``(=)`` draw-offer mark, and the clock (ms), move time (ms) and offer found.
    Commands with unreadable times stay in the text."""
    text = " ".join(text.split())
    clock = emt = None
    if "[%" in text:
        only = _ONLY_CLOCK.fullmatch(text)
        if only is not None:
            try:
                return "", parse_clock_time(only.group(1)), None, False
            except ValueError:
                return text, None, None, False
        kept = []
        last = 0
        for match in _COMMAND.finditer(text):
            try:
                ms = parse_clock_time(match.group(2))
            except ValueError:
                continue
            if match.group(1) == "clk":
                clock = ms
            else:
                emt = ms
            kept.append(text[last : match.start()])
            last = match.end()
        if kept:
            kept.append(text[last:])
            text = " ".join("".join(kept).split())
    offer = False
    if "(=)" in text:
        offer = True
        text = " ".join(text.replace("(=)", " ").split())
    return text, clock, emt, offer
