"""Whether a file handed to ``chessarbiter check`` holds PGN at all, from its head.

A file holds PGN when a game read from its first MiB has a tag pair, a legal move or a move
that is illegal or ambiguous (written as a move), so a database whose first game is broken is
still audited; an empty file is an empty database.
Anything else (compressed or binary data, JSON, a text with no game in it) is refused before
any game is audited, with the reason.
"""

from __future__ import annotations

import io
import json
import re
from typing import Final

from chessarbiter.cli.check_parts import Options
from chessarbiter.notation.letters import LANGUAGES
from chessarbiter.notation.pgn_reader import read_pgn

HEAD_BYTES: Final = 1 << 20
"""How much of a file is read to tell."""
_PACKED: Final = (
    (b"\x1f\x8b", "gzip-compressed data"),
    (b"(\xb5/\xfd", "zstd-compressed data"),
    (b"BZh", "bzip2-compressed data"),
    (b"\xfd7zXZ\x00", "xz-compressed data"),
    (b"PK\x03\x04", "a zip archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7z archive"),
)
"""The first bytes of packed files, which are never PGN."""
_CHESS: Final = ("illegal", "ambiguous")
"""Errors of moves written as moves: a game of PGN, broken."""
_JSON: Final = re.compile(r'\s*(?:\{\s*"|\[\s*[\[{"\d\]-])')
"""How JSON starts (for a file too long to parse whole)."""


def not_pgn(path: str, options: Options) -> str | None:
    """Why the file at ``path`` is not PGN, or ``None`` when it holds PGN (or nothing)."""
    with open(path, "rb") as stream:
        head = stream.read(HEAD_BYTES)
        whole = not stream.read(1)
    for magic, name in _PACKED:
        if head.startswith(magic):
            return f"{name} (unpack it first)"
    text = head.decode("utf-8", errors="replace")
    if not whole and "\n" in text:
        text = text[: text.rfind("\n")]  # a whole line last
    if not text.strip():
        return None
    if _is_json(text.partition("\n")[0]) or (whole and _is_json(text)):
        return "JSON"
    letters = LANGUAGES[options.letters]
    if any(game.tags for game in read_pgn(io.StringIO(text), headers_only=True)):
        return None  # a tag pair, found without reading the moves
    first = None
    for game in read_pgn(io.StringIO(text), strict=options.strict, letters=letters):
        if game.tags or game.moves or (game.error is not None and game.error.kind in _CHESS):
            return None
        first = first or game
    where = "" if whole else " in its first MiB"
    if "\0" in text:
        return f"binary data{where}"
    if _JSON.match(text):
        return f"JSON{where}"
    reason = f"a text with no tag pair and no legal move{where}"
    if first is not None and first.error is not None:
        error = first.error
        reason += f" (line {error.line}: {error.message[:80]})"
    return reason


def _is_json(text: str) -> bool:
    """Whether ``text`` is a JSON object or array (a whole file, or a JSON Lines line)."""
    try:
        value = json.loads(text)
    except ValueError:
        return False
    return isinstance(value, (dict, list))
