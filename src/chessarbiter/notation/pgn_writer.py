"""PGN export format (PGN standard 8, export rules): what the reader reads back unchanged.

Tags: the seven tag roster first in its order (missing ones written ``?``, the Date
``????.??.??``), ``SetUp``/``FEN`` for a set-up start and ``Variant`` for Chess960, then the
other tags in their order. Movetext: SAN with English letters, ``$n`` NAGs, ``{}`` comments
with ``[%clk]`` / ``[%emt]`` commands and the ``(=)`` draw-offer mark (a comment holding
``}`` is written as a ``;`` comment, to the end of its line), ``( )`` variations nested to
any depth, the termination marker; lines of at most 79 characters, so that they fit 80
columns. The Result
tag and the marker are both the game's :attr:`RecordedGame.result`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO, Final

from chessarbiter.clock import format_clk, format_emt
from chessarbiter.core.position import STARTING_FEN, Position
from chessarbiter.notation.game import RESULTS, SEVEN_TAG_ROSTER, RecordedGame, RecordedMove
from chessarbiter.notation.nags import NAG_LIMIT
from chessarbiter.notation.pgn_tokens import CHESS960_VARIANTS, escape_tag_value, split_comment
from chessarbiter.notation.san import write_san

LINE_WIDTH: Final = 79
_DEFAULTS: Final = {"Date": "????.??.??"}


def write_pgn(game: RecordedGame, *, width: int = LINE_WIDTH) -> str:
    """One game in export format, ending with a blank line."""
    if game.result not in RESULTS:
        raise ValueError(f"result {game.result!r}: expected one of {', '.join(RESULTS)}")
    lines = [f'[{name} "{escape_tag_value(value)}"]' for name, value in _tags(game)]
    lines.append("")
    tokens: list[str] = []
    if game.comment:
        tokens += _comment(game.comment)
    pos = game.start_position()
    _line(pos, game.moves, tokens)
    tokens.append(game.result)
    lines += _wrap(tokens, width)
    return "\n".join(lines) + "\n\n"


def write_pgn_games(games: Iterable[RecordedGame], stream: IO[str]) -> int:
    """Write games one after another; returns how many."""
    count = 0
    for game in games:
        stream.write(write_pgn(game))
        count += 1
    return count


def _tags(game: RecordedGame) -> list[tuple[str, str]]:
    tags = dict(game.tags)
    tags["Result"] = game.result
    extra: dict[str, str] = {}
    if game.start_fen != STARTING_FEN:
        extra["SetUp"] = "1"
        extra["FEN"] = game.start_fen
    if game.chess960 and tags.get("Variant", "").strip().lower() not in CHESS960_VARIANTS:
        extra["Variant"] = "Chess960"
    roster = [(name, tags.pop(name, _DEFAULTS.get(name, "?"))) for name in SEVEN_TAG_ROSTER]
    for name in extra:
        tags.pop(name, None)
    return roster + list(extra.items()) + list(tags.items())


def _comment(text: str) -> list[str]:
    """A comment as tokens: the words of a ``{}`` comment, or one ``;`` comment (ending its
    line, see :func:`_wrap`) when the text holds a ``}``."""
    words = text.split()
    if not words:
        return []
    if "}" in text:
        return ["; " + " ".join(words)]
    words[0] = "{" + words[0]
    words[-1] += "}"
    return words


def _after(record: RecordedMove) -> str:
    """The text of the comment after a move: commentary, clock commands, draw offer."""
    parts = []
    if record.comment:
        if split_comment(record.comment)[1:] != (None, None, False):
            raise ValueError(
                f"comment {record.comment[:40]!r} holds a clock command or '(=)': put them in "
                "clock_ms, emt_ms and draw_offer"
            )
        parts.append(record.comment)
    if record.emt_ms is not None:
        parts.append(format_emt(record.emt_ms))
    if record.clock_ms is not None:
        parts.append(format_clk(record.clock_ms))
    if record.draw_offer:
        parts.append("(=)")
    return " ".join(parts)


def _line(pos: Position, moves: list[RecordedMove], tokens: list[str]) -> None:
    """Append a line of moves and its variations to ``tokens``; ``pos`` ends unchanged.
    Variations are followed with a stack, not recursion, so that any depth is written."""
    stack: list[_Frame] = [_Frame(moves)]
    while stack:
        frame = stack[-1]
        if frame.variation < 0:
            if frame.index == len(frame.moves):
                for _ in frame.moves:
                    pos.pop()
                stack.pop()
                if stack:
                    tokens.append(")")
                    stack[-1].need_number = True
                continue
            _move(pos, frame, tokens)
            frame.variation = 0
        record = frame.moves[frame.index]
        if frame.variation < len(record.variations):
            tokens.append("(")
            stack.append(_Frame(record.variations[frame.variation]))
            frame.variation += 1
            continue
        pos.push(record.move)
        frame.index += 1
        frame.variation = -1


class _Frame:
    """A line being written: the move at ``index``, the variations of it written so far
    (-1 before the move itself), whether the next move needs its number."""

    __slots__ = ("index", "moves", "need_number", "variation")

    def __init__(self, moves: list[RecordedMove]) -> None:
        self.moves = moves
        self.index = 0
        self.variation = -1
        self.need_number = True


def _move(pos: Position, frame: _Frame, tokens: list[str]) -> None:
    """The tokens of the move at ``frame.index``: comment before, number, SAN, NAGs,
    comment after."""
    record = frame.moves[frame.index]
    if record.pre_comment:
        tokens += _comment(record.pre_comment)
        frame.need_number = True
    if pos.turn == 0:
        tokens.append(f"{pos.fullmove_number}.")
    elif frame.need_number:
        tokens.append(f"{pos.fullmove_number}...")
    tokens.append(write_san(pos, record.move))
    frame.need_number = False
    for nag in record.nags:
        if not 0 <= nag <= NAG_LIMIT:
            raise ValueError(f"NAG of {tokens[-1]!r}: out of the range 0-{NAG_LIMIT}")
        tokens.append(f"${nag}")
    after = _after(record)
    if after:
        tokens += _comment(after)
        frame.need_number = True


def _wrap(tokens: list[str], width: int) -> list[str]:
    """Join tokens with single spaces into lines of at most ``width`` characters (a token
    longer than that gets a line of its own); a ``;`` comment ends its line."""
    lines: list[str] = []
    current = ""
    for token in tokens:
        if not current:
            current = token
        elif len(current) + 1 + len(token) > width:
            lines.append(current)
            current = token
        else:
            current += " " + token
        if token[0] == ";":
            lines.append(current)
            current = ""
    if current:
        lines.append(current)
    return lines
