"""The six fields of a FEN (Forsyth-Edwards Notation; PGN standard section 16.1; X-FEN and
Shredder-FEN castling fields for Chess960, FIDE Guidelines II) read into a :class:`Setup`
and written from one. Reading checks the text, not the position: whether a setup can arise
in a game is :meth:`chessarbiter.core.position.Position.from_setup`'s question.

Strict reading wants six fields separated by single spaces and a fullmove number of 1 or
more; ``lenient=True`` accepts any whitespace, four or five fields (the clocks ``0 1``) and
fullmove 0 (read as 1), and ignores a repeated castling letter.
"""

from __future__ import annotations

import re
from itertools import combinations
from typing import Final

from chessarbiter.core.errors import FenError, quoted
from chessarbiter.core.setup import Setup
from chessarbiter.core.squares import (
    BACK_RANKS,
    FILE_NAMES,
    KING,
    PIECE_SYMBOLS,
    ROOK,
    SIDES,
    SQUARE_NAMES,
    parse_square,
    squares_of,
)

_PIECES: Final = {c: i for i, c in enumerate(PIECE_SYMBOLS) if c != " "} | {"1": 0}
_DOUBLE_DIGIT: Final = re.compile(r"[0-9][0-9]")
_DIGIT_RUNS: Final = tuple((str(n), "1" * n) for n in range(2, 9))
_FIELD_NAMES: Final = (
    "piece placement", "side to move", "castling", "en passant", "halfmove clock",
    "fullmove number",
)
_EMPTY_RUNS: Final = tuple(("1" * n, str(n)) for n in range(8, 1, -1))
_SYMBOLS: Final = tuple("1" if c == " " else c for c in PIECE_SYMBOLS)
_CORNERS: Final = {"K": 7, "Q": 0, "k": 63, "q": 56}
_STANDARD_FIELDS: Final = {
    "".join(letters): sum(1 << _CORNERS[c] for c in letters)
    for n in range(1, 5)
    for letters in combinations("KQkq", n)
}
"""The castling fields of standard chess in their usual order, and the rook squares each
names (the corners, whatever stands there)."""
MAX_COUNTER: Final = 999_999_999
"""The largest halfmove clock or fullmove number read (no game comes near it)."""


def read_setup(text: str, *, chess960: bool = False, lenient: bool = False) -> Setup:
    """The setup a FEN writes; raises :class:`FenError` naming the field and the reason."""
    if not isinstance(text, str):
        raise FenError("text", f"expected a string, got {type(text).__name__}")
    if lenient:
        fields = text.split()
        if len(fields) in (4, 5):
            fields += ["0", "1"][len(fields) - 4 :]
    else:
        fields = text.split(" ")
    if len(fields) != 6:
        expected = "4 to 6 fields" if lenient else "6 fields separated by single spaces"
        raise FenError("text", f"expected {expected}, found {len(fields)}", text)
    if "" in fields:
        raise FenError(_FIELD_NAMES[fields.index("")], "is empty (two spaces in a row?)", text)
    board = _placement(fields[0], text)
    turn = _turn(fields[1], text)
    rights = _castling(board, fields[2], chess960, lenient, text)
    ep = _en_passant(fields[3], text)
    halfmove = _counter(fields[4], "halfmove clock", 0, text)
    fullmove = _counter(fields[5], "fullmove number", 0 if lenient else 1, text)
    return Setup(tuple(board), SIDES[turn], rights, ep, halfmove, max(fullmove, 1), chess960)


def write_setup(setup: Setup, *, castling: str = "xfen") -> str:
    """The FEN of a setup; ``castling="shredder"`` writes Chess960 rights as rook files
    (``HAha``), ``"xfen"`` as ``KQkq`` with a file only where the letter would be
    ambiguous."""
    board = setup.board
    syms = _SYMBOLS
    ranks = [
        "".join([syms[p] for p in board[r : r + 8]]) for r in (56, 48, 40, 32, 24, 16, 8, 0)
    ]
    placement = "/".join(ranks)
    for run, digit in _EMPTY_RUNS:
        placement = placement.replace(run, digit)
    ep = setup.ep_square
    return (
        f"{placement} {'wb'[setup.turn]} {castling_field(setup, castling)} "
        f"{SQUARE_NAMES[ep] if ep >= 0 else '-'} {setup.halfmove_clock} {setup.fullmove_number}"
    )


def castling_field(setup: Setup, style: str = "xfen") -> str:
    """The castling field: ``KQkq`` letters, with rook files where X-FEN needs them (a
    Chess960 right of a rook with another own rook further out)."""
    rights = setup.castling_rights
    if not rights:
        return "-"
    if style not in ("xfen", "shredder"):
        raise ValueError(f"castling must be 'xfen' or 'shredder', not {style!r}")
    board = setup.board
    out = []
    for colour in (0, 1):
        own = rights & BACK_RANKS[colour]
        if not own:
            continue
        rank = 56 if colour else 0
        try:
            king = board.index(colour << 3 | KING, rank, rank + 8)
        except ValueError:
            king = -1
        for rook in sorted(squares_of(own), reverse=True):
            if king < 0:  # a setup not checked: the letter its square is read from
                out.append(castling_letter(rook))
                continue
            if style == "shredder" or (setup.chess960 and _outer_rook(board, colour, rook, king)):
                letter = FILE_NAMES[rook & 7].upper()
            else:
                letter = "K" if rook > king else "Q"
            out.append(letter if colour == 0 else letter.lower())
    return "".join(out)


def _outer_rook(board: tuple[int, ...], colour: int, rook: int, king: int) -> bool:
    """Whether an own rook stands further from the king than ``rook`` on its rank."""
    beyond = range(rook + 1, (rook | 7) + 1) if rook > king else range(rook & 56, rook)
    return any(board[sq] == colour << 3 | ROOK for sq in beyond)


def castling_letter(rook: int) -> str:
    """The letter naming a right of the rook on square ``rook`` in messages: ``K``/``Q`` for
    a corner, else the file (lower case on Black's half of the board)."""
    file = rook & 7
    letter = "K" if file == 7 else "Q" if file == 0 else FILE_NAMES[file].upper()
    return letter if rook < 32 else letter.lower()


def _placement(field: str, text: str) -> list[int]:
    rows = field.split("/")
    if len(rows) != 8:
        raise FenError("piece placement", f"expected 8 ranks separated by '/', found {len(rows)}",
                       text)
    if _DOUBLE_DIGIT.search(field):
        raise FenError("piece placement", "two digits in a row", text)
    squares = field
    for digit, run in _DIGIT_RUNS:
        squares = squares.replace(digit, run)
    rows = squares.split("/")
    for i, row in enumerate(rows):
        if len(row) != 8:
            raise FenError("piece placement",
                           f"rank {8 - i} ({quoted(field.split('/')[i])}) describes "
                           f"{len(row)} squares, not 8", text)
    try:
        return [_PIECES[c] for c in "".join(rows[::-1])]
    except KeyError as exc:
        raise FenError("piece placement", f"invalid character {exc.args[0]!r}", text) from None


def _turn(field: str, text: str) -> int:
    if field == "w":
        return 0
    if field == "b":
        return 1
    raise FenError("side to move", f"expected 'w' or 'b', found {quoted(field)}", text)


def _castling(board: list[int], field: str, chess960: bool, lenient: bool, text: str) -> int:
    """The rooks the castling letters name, whether or not they can castle: ``K``/``Q`` the
    corner (in Chess960 the outermost own rook on that side of the king on the back rank, else
    the corner), a file letter that file's back-rank square."""
    if field == "-":
        return 0
    standard = None if chess960 else _STANDARD_FIELDS.get(field)
    if standard is not None:
        return standard
    rights = 0
    for c in field:
        upper = c.upper()
        if upper not in "KQABCDEFGH" or not c.isalpha():
            raise FenError("castling",
                           f"invalid character {c!r} (expected KQkq, a file letter or -)", text)
        rank = 0 if c.isupper() else 56
        if upper == "K":
            rook = rank | 7
            if chess960:
                rook = _outermost_rook(board, c, range(rook, rank - 1, -1), rook)
        elif upper == "Q":
            rook = rank
            if chess960:
                rook = _outermost_rook(board, c, range(rank, rank + 8), rook)
        else:
            rook = rank | (ord(upper) - 65)
        if rights >> rook & 1 and not lenient:
            raise FenError("castling", f"right {c!r} is repeated", text)
        rights |= 1 << rook
    return rights


def _outermost_rook(board: list[int], letter: str, outside_in: range, corner: int) -> int:
    """The first own rook from the corner inwards to the king on the back rank, else the
    corner."""
    colour = 0 if letter.isupper() else 1
    rook = colour << 3 | ROOK
    king = colour << 3 | KING
    found = -1
    for sq in outside_in:
        piece = board[sq]
        if piece == king:
            return found if found >= 0 else corner
        if piece == rook and found < 0:
            found = sq
    return corner


def _en_passant(field: str, text: str) -> int:
    if field == "-":
        return -1
    try:
        return parse_square(field)
    except ValueError:
        raise FenError("en passant", f"expected '-' or a square, found {quoted(field)}",
                       text) from None


def _counter(field: str, name: str, minimum: int, text: str) -> int:
    if len(field) < 4 and field.isascii() and field.isdigit() and int(field) >= minimum:
        return int(field)  # the usual case, at once
    if not field.isdigit() or not field.isascii():
        raise FenError(name, f"expected a number, found {quoted(field)}", text)
    digits = field.lstrip("0") or "0"
    if len(digits) > len(str(MAX_COUNTER)):
        raise FenError(name, f"must be at most {MAX_COUNTER}, found a number of {len(digits)} "
                       "digits", text)
    value = int(digits)
    if value < minimum:
        raise FenError(name, f"must be at least {minimum}, found {value}", text)
    return value
