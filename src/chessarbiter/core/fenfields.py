"""The six fields of a FEN (Forsyth-Edwards Notation; PGN standard section 16.1; X-FEN and
Shredder-FEN castling fields for Chess960, FIDE Guidelines II) read into a position and
written from one. :mod:`chessarbiter.core.fen` builds new positions from FEN and EPD text.

Strict and lenient reading are described in :mod:`chessarbiter.core.fen`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from chessarbiter.core.attacks import BETWEEN, LINE, attackers
from chessarbiter.core.errors import FenError, quoted
from chessarbiter.core.movegen import en_passant_moves
from chessarbiter.core.squares import (
    BACK_RANKS,
    FILE_NAMES,
    KING,
    PAWN,
    PIECE_SYMBOLS,
    RANKS,
    SQUARE_NAMES,
    parse_square,
    squares_of,
)

if TYPE_CHECKING:
    from chessarbiter.core.position import Position

_PIECES: Final = {c: i for i, c in enumerate(PIECE_SYMBOLS) if c != " "} | {"1": 0}
_DOUBLE_DIGIT: Final = re.compile(r"[0-9][0-9]")
_DIGIT_RUNS: Final = tuple((str(n), "1" * n) for n in range(2, 9))
_STANDARD_RIGHTS: Final = {"K": (4, 6, 7), "Q": (4, 6, 0), "k": (60, 14, 63), "q": (60, 14, 56)}
"""Letter -> (king square, king piece, rook square) of the standard castling rights."""
_FIELD_NAMES: Final = (
    "piece placement", "side to move", "castling", "en passant", "halfmove clock",
    "fullmove number",
)
_SLIDERS: Final = (3, 4, 5)
_EMPTY_RUNS: Final = tuple(("1" * n, str(n)) for n in range(8, 1, -1))
_SYMBOLS: Final = tuple("1" if c == " " else c for c in PIECE_SYMBOLS)
MAX_COUNTER: Final = 999_999_999
"""The largest halfmove clock or fullmove number read (no game comes near it)."""


def read_fen(pos: Position, text: str, *, chess960: bool = False, lenient: bool = False) -> None:
    """Set ``pos`` to the position of a FEN; raises :class:`FenError` naming the field and
    the reason."""
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
    halfmove = _counter(fields[4], "halfmove clock", 0, text)
    fullmove = _counter(fields[5], "fullmove number", 0 if lenient else 1, text)
    pos._setup(board, turn, 0, -1, halfmove, max(fullmove, 1), chess960)
    _check_kings(pos, text)
    pos._set_rights(_castling(pos, fields[2], lenient, text),
                    _en_passant(pos, turn, fields[3], lenient, text))
    if not lenient:
        _check_placement(pos, turn, text)


def write_fen(pos: Position, *, en_passant: str = "always", castling: str = "xfen") -> str:
    """The FEN of a position.

    ``en_passant="always"`` (the standard) writes the square after every double step;
    ``"legal"`` only when an en passant capture is legal (X-FEN, lichess).
    ``castling="shredder"`` writes Chess960 rights as rook files (``HAha``).
    """
    board = pos.board
    syms = _SYMBOLS
    ranks = [
        "".join([syms[p] for p in board[r : r + 8]]) for r in (56, 48, 40, 32, 24, 16, 8, 0)
    ]
    placement = "/".join(ranks)
    for run, digit in _EMPTY_RUNS:
        placement = placement.replace(run, digit)
    ep = pos.ep_square
    if ep >= 0 and en_passant == "legal":
        if not en_passant_moves(pos):
            ep = -1
    elif en_passant not in ("always", "legal"):
        raise ValueError(f"en_passant must be 'always' or 'legal', not {en_passant!r}")
    return (
        f"{placement} {'wb'[pos.turn]} {castling_field(pos, castling)} "
        f"{SQUARE_NAMES[ep] if ep >= 0 else '-'} {pos.halfmove_clock} {pos.fullmove_number}"
    )


def castling_field(pos: Position, style: str = "xfen") -> str:
    """The castling field: ``KQkq`` letters, with rook files where X-FEN needs them."""
    rights = pos.castling_rights
    if not rights:
        return "-"
    out = []
    for colour in (0, 1):
        king = pos.king(colour)
        own = rights & BACK_RANKS[colour]
        rooks = pos.pieces[colour << 3 | 4] & BACK_RANKS[colour]
        for rook in sorted(squares_of(own), reverse=True):
            side_rooks = [r for r in squares_of(rooks) if (r > king) == (rook > king)]
            outermost = max(side_rooks) if rook > king else min(side_rooks)
            if style == "shredder" or (pos.chess960 and rook != outermost):
                letter = FILE_NAMES[rook & 7].upper()
            else:
                letter = "K" if rook > king else "Q"
            out.append(letter if colour == 0 else letter.lower())
    return "".join(out)


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


def _check_kings(pos: Position, text: str) -> None:
    for colour, name in ((0, "white"), (1, "black")):
        count = pos.pieces[colour << 3 | KING].bit_count()
        if count != 1:
            raise FenError("piece placement", f"{name} must have exactly one king, has {count}",
                           text)


def _castling(pos: Position, field: str, lenient: bool, text: str) -> int:
    if field == "-":
        return 0
    rights = 0
    board = pos.board
    for c in field:
        standard = _STANDARD_RIGHTS.get(c)
        if standard is not None and board[standard[0]] == standard[1] == board[standard[2]] + 2:
            if rights >> standard[2] & 1 and not lenient:
                raise FenError("castling", f"right {c!r} is repeated", text)
            rights |= 1 << standard[2]
            continue
        colour = 0 if c.isupper() else 1
        rook = _castling_rook(pos, c, colour, text)
        if rook is None or rights >> rook & 1:
            if lenient:
                continue
            why = "is repeated" if rook is not None else "does not match a king and rook"
            raise FenError("castling", f"right {c!r} {why}", text)
        rights |= 1 << rook
    for colour in (0, 1):
        king = pos.king(colour)
        own = rights & BACK_RANKS[colour]
        if (own & ~((1 << king) - 1)).bit_count() > 1 or (own & ((1 << king) - 1)).bit_count() > 1:
            if not lenient:
                raise FenError("castling", f"two rights on one side of the "
                               f"{'white' if colour == 0 else 'black'} king", text)
            rights &= ~own
    return rights


def _castling_rook(pos: Position, c: str, colour: int, text: str) -> int | None:
    """The rook square a castling letter names, or None if no such rook can castle."""
    upper = c.upper()
    if upper not in "KQABCDEFGH" or not c.isalpha():
        raise FenError("castling", f"invalid character {c!r} (expected KQkq, a file letter or -)",
                       text)
    king = pos.king(colour)
    back = BACK_RANKS[colour]
    if not back >> king & 1:
        return None
    rooks = squares_of(pos.pieces[colour << 3 | 4] & back)
    if upper == "K":
        side = [r for r in rooks if r > king]
        rook = max(side) if side else None
    elif upper == "Q":
        side = [r for r in rooks if r < king]
        rook = min(side) if side else None
    else:
        sq = (king & 56) | (ord(upper) - 65)
        rook = sq if sq in rooks else None
    if rook is not None and not pos.chess960 and (king & 7 != 4 or rook & 7 not in (0, 7)):
        return None
    return rook


def _en_passant(pos: Position, turn: int, field: str, lenient: bool, text: str) -> int:
    if field == "-":
        return -1
    try:
        ep = parse_square(field)
    except ValueError:
        raise FenError("en passant", f"expected '-' or a square, found {quoted(field)}",
                       text) from None
    want = 5 if turn == 0 else 2
    if ep >> 3 != want:
        raise FenError("en passant",
                       f"{field} must be on rank {want + 1} when "
                       f"{'white' if turn == 0 else 'black'} is to move", text)
    them = turn ^ 1
    pawn = ep - 8 if turn == 0 else ep + 8
    origin = ep + 8 if turn == 0 else ep - 8
    ok = pos.board[pawn] == (them << 3 | PAWN) and not pos.board[ep] and not pos.board[origin]
    if not ok:
        if lenient:
            return -1
        raise FenError("en passant",
                       f"{field} does not follow a double step: needs a pawn on "
                       f"{SQUARE_NAMES[pawn]} and {field} and {SQUARE_NAMES[origin]} empty", text)
    return ep


def _check_placement(pos: Position, us: int, text: str) -> None:
    pawns = pos.pieces[PAWN] | pos.pieces[8 | PAWN]
    if pawns & (RANKS[0] | RANKS[7]):
        raise FenError("piece placement", "a pawn stands on the first or last rank", text)
    occupied = pos.occupied_co[0] | pos.occupied_co[1]
    them = us ^ 1
    if attackers(pos.pieces, us, pos.king(them), occupied):
        raise FenError("piece placement",
                       f"{'white' if them == 0 else 'black'} is in check but not to move", text)
    king = pos.king(us)
    checks = attackers(pos.pieces, them, king, occupied)
    squares = squares_of(checks)
    if len(squares) > 2:
        raise FenError("piece placement", f"{len(squares)} pieces give check; at most 2 can",
                       text)
    if len(squares) == 2:
        a, b = squares
        if not any(pos.board[s] & 7 in _SLIDERS for s in squares) or LINE[king][a] >> b & 1:
            raise FenError("piece placement",
                           f"check from {SQUARE_NAMES[a]} and {SQUARE_NAMES[b]} together "
                           "could not have been given by one move", text)
    if pos.ep_square >= 0 and squares:
        ep = pos.ep_square
        pawn = ep - 8 if us == 0 else ep + 8
        origin = ep + 8 if us == 0 else ep - 8
        for s in squares:
            if s != pawn and not BETWEEN[king][s] >> origin & 1:
                raise FenError("piece placement",
                               f"the check from {SQUARE_NAMES[s]} could not have been given "
                               f"by the double step to {SQUARE_NAMES[pawn]}", text)
