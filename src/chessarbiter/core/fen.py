"""FEN and EPD (Forsyth-Edwards Notation; PGN standard section 16.1; X-FEN and Shredder-FEN
castling fields for Chess960, FIDE Guidelines II): positions from text and back. The one way
in: the text is read into a :class:`~chessarbiter.core.setup.Setup`
(:mod:`chessarbiter.core.fenfields`), which becomes a position once checked
(:mod:`chessarbiter.core.validation`).

Reading is strict by default: the text must be six fields separated by single spaces, and
the position must be one that can arise in a game (one king each, no pawn on the first or
last rank, the side not to move not in check, checks that a last move could have given, an
en passant square behind a pawn that has just made a double step, castling rights matching
unmoved-looking kings and rooks). ``lenient=True`` accepts any whitespace, four or five
fields, fullmove 0, and positions that break the placement rules (except that each side
needs exactly one king); impossible castling rights and en passant squares are dropped.
"""

from __future__ import annotations

from chessarbiter.core.errors import FenError
from chessarbiter.core.fenfields import MAX_COUNTER
from chessarbiter.core.position import Position

__all__ = ["MAX_COUNTER", "parse_epd", "parse_fen", "write_fen"]


def parse_fen(text: str, *, chess960: bool = False, lenient: bool = False) -> Position:
    """Read a FEN; raises :class:`FenError` naming the field and the reason."""
    if not isinstance(text, str):  # checked here: the compiled constructor would raise TypeError
        raise FenError("text", f"expected a string, got {type(text).__name__}")
    return Position(text, chess960=chess960, lenient=lenient)


def parse_epd(text: str, *, chess960: bool = False) -> tuple[Position, dict[str, str]]:
    """Read an EPD line: four FEN fields, then ``opcode operand;`` operations (``hmvc`` and
    ``fmvn`` set the clocks)."""
    fields = text.strip().split(None, 4)
    if len(fields) < 4:
        raise FenError("text", f"an EPD needs 4 position fields, found {len(fields)}", text)
    ops: dict[str, str] = {}
    for op in (fields[4] if len(fields) == 5 else "").split(";"):
        op = op.strip()
        if op:
            name, _, operand = op.partition(" ")
            ops[name] = operand.strip().strip('"')
    clocks = f"{ops.get('hmvc', '0')} {ops.get('fmvn', '1')}"
    return parse_fen(" ".join(fields[:4]) + " " + clocks, chess960=chess960), ops


def write_fen(pos: Position, *, en_passant: str = "always", castling: str = "xfen") -> str:
    """The FEN of a position: :meth:`Position.fen`."""
    return pos.fen(en_passant=en_passant, castling=castling)
