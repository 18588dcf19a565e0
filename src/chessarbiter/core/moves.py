"""Moves as small ints, and UCI notation in and out.

A move is ``from | to << 6 | promotion << 12 | castle << 15``. Castling is written as the
king capturing its own rook (``to`` is the rook's square), which covers Chess960
(FIDE Guidelines II) and standard chess alike; UCI output turns it into the king's
two-square step unless Chess960 notation is asked for. The encoding is stable, so the
notation layer (SAN) can describe any move without changing it.
"""

from __future__ import annotations

from typing import Final, NewType

from chessarbiter.core.errors import InvalidMoveError
from chessarbiter.core.squares import (
    BISHOP,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    SQUARE_NAMES,
    parse_square,
)

Move = NewType("Move", int)

CASTLE_FLAG: Final = 1 << 15
NULL_MOVE: Final = Move(0)

_PROMOTION_LETTERS: Final = {KNIGHT: "n", BISHOP: "b", ROOK: "r", QUEEN: "q"}
_PROMOTION_TYPES: Final = {v: k for k, v in _PROMOTION_LETTERS.items()} | {"p": PAWN, "k": KING}
"""Promotion letters read: a pawn or king promotion is well-formed but never legal (Art. 3.7e)."""


def make_move(from_square: int, to_square: int, promotion: int = 0, castle: bool = False) -> Move:
    """Encode a move (``to_square`` is the rook's square for castling)."""
    return Move(from_square | to_square << 6 | promotion << 12 | (CASTLE_FLAG if castle else 0))


def from_square(move: int) -> int:
    """The square the piece leaves."""
    return move & 63


def to_square(move: int) -> int:
    """The square the piece arrives on (the castling rook's square for castling)."""
    return (move >> 6) & 63


def promotion(move: int) -> int:
    """The piece type promoted to, or 0."""
    return (move >> 12) & 7


def is_castle(move: int) -> bool:
    """Whether the move is castling (Art. 3.8.2)."""
    return bool(move & CASTLE_FLAG)


def king_destination(move: int) -> int:
    """Where the king lands when castling: the g- or c-file of its rank (Art. 3.8.2)."""
    fr, to = move & 63, (move >> 6) & 63
    return (fr & 56) | (6 if to > fr else 2)


def uci(move: int, chess960: bool = False) -> str:
    """The move in UCI notation (``e2e4``, ``e7e8q``, ``e1g1``; ``e1h1`` when ``chess960``)."""
    if move == NULL_MOVE:
        return "0000"
    fr = move & 63
    to = (move >> 6) & 63
    if move & CASTLE_FLAG and not chess960:
        to = king_destination(move)
    text = SQUARE_NAMES[fr] + SQUARE_NAMES[to]
    promo = (move >> 12) & 7
    return text + _PROMOTION_LETTERS[promo] if promo else text


def _codes() -> dict[str, Move]:
    """Every plain from-to text and every pawn promotion's text (lower case), with its code."""
    codes = {a + b: Move(fr | to << 6) for fr, a in enumerate(SQUARE_NAMES)
             for to, b in enumerate(SQUARE_NAMES) if fr != to}
    for fr in [*range(8, 16), *range(48, 56)]:
        to_rank = 0 if fr < 16 else 56
        for to in range(to_rank | max(fr % 8 - 1, 0), to_rank | min(fr % 8 + 1, 7) + 1):
            for promo, letter in _PROMOTION_LETTERS.items():
                codes[SQUARE_NAMES[fr] + SQUARE_NAMES[to] + letter] = Move(
                    fr | to << 6 | promo << 12)
    return codes


_UCI_CODES: Final = _codes()


def parse_uci_code(text: str) -> Move:
    """The move ``from | to << 6 | promotion << 12`` a UCI text writes, without a position
    (castling as written: the king's step, or the king taking its rook); raises as
    :func:`parse_uci_parts`. The texts of ordinary moves are looked up, not parsed."""
    code = _UCI_CODES.get(text)
    if code is None:
        fr, to, promo = parse_uci_parts(text)
        code = Move(fr | to << 6 | promo << 12)
    return code


def parse_uci_parts(text: str) -> tuple[int, int, int]:
    """Split a UCI move into (from, to, promotion) without a position; raises on bad syntax."""
    if len(text) not in (4, 5):
        raise InvalidMoveError(f"invalid UCI move {text!r}: expected 4 or 5 characters like e2e4")
    try:
        fr = parse_square(text[0:2])
        to = parse_square(text[2:4])
    except ValueError as exc:
        raise InvalidMoveError(f"invalid UCI move {text!r}: {exc}") from None
    promo = 0
    if len(text) == 5:
        if text[4] not in _PROMOTION_TYPES:
            raise InvalidMoveError(
                f"invalid UCI move {text!r}: promotion must be a piece letter (q, r, b, n)"
            )
        promo = _PROMOTION_TYPES[text[4]]
    if fr == to:
        raise InvalidMoveError(f"invalid UCI move {text!r}: from and to squares are the same")
    return fr, to, promo
