"""Whether a setup can be a position of a game (Laws Art. 3.10.3: a position is illegal
when no series of legal moves reaches it), as far as a FEN reader can tell: the checks
:meth:`chessarbiter.core.position.Position.from_setup` makes before a setup becomes a
position.

Strict: one king each, no pawn on the first or last rank, the side not to move not in check,
checks that a last move could have given, an en passant square behind a pawn that has just
made a double step, castling rights matching unmoved-looking kings and rooks. Lenient: one
king each and an en passant square on the right rank; impossible castling rights and en
passant squares are dropped, the placement is not checked.
"""

from __future__ import annotations

from typing import Final

from chessarbiter.core.attacks import BETWEEN, LINE, attackers
from chessarbiter.core.errors import FenError
from chessarbiter.core.fenfields import MAX_COUNTER, castling_letter
from chessarbiter.core.setup import Setup
from chessarbiter.core.squares import (
    BACK_RANKS,
    BISHOP,
    COLOUR_NAMES,
    FILES,
    FULL,
    KING,
    PAWN,
    PIECE_SYMBOLS,
    QUEEN,
    RANKS,
    ROOK,
    SQUARE_NAMES,
    Side,
    squares_of,
)

_PIECE_CODES: Final = frozenset(i for i, c in enumerate(PIECE_SYMBOLS) if c != " ") | {0}
_SLIDERS: Final = (BISHOP, ROOK, QUEEN)
_CORNERS: Final = (FILES[0] | FILES[7]) & (BACK_RANKS[0] | BACK_RANKS[1])
"""The squares of the rooks that may castle in standard chess, with the king on the e-file."""


def check_fields(setup: Setup) -> None:
    """Raise :class:`FenError` for a setup whose values a FEN could not write (a board other
    than 64 piece codes, a side other than a :class:`Side`, a clock out of range...): made
    by a program, not read."""
    board = setup.board
    if not isinstance(board, tuple) or len(board) != 64:
        raise FenError("piece placement", f"expected a tuple of 64 squares, found {board!r:.80}")
    for sq, piece in enumerate(board):
        if type(piece) is not int or piece not in _PIECE_CODES:
            raise FenError("piece placement",
                           f"no piece has the code {piece!r} ({SQUARE_NAMES[sq]})")
    if not isinstance(setup.turn, Side):
        raise FenError("side to move", f"expected Side.WHITE or Side.BLACK, found {setup.turn!r}")
    if not isinstance(setup.chess960, bool):
        raise FenError("castling", f"chess960: expected True or False, found {setup.chess960!r}")
    for name, value, least, most in (
        ("castling", setup.castling_rights, 0, FULL),
        ("en passant", setup.ep_square, -1, 63),
        ("halfmove clock", setup.halfmove_clock, 0, MAX_COUNTER),
        ("fullmove number", setup.fullmove_number, 1, MAX_COUNTER),
    ):
        if type(value) is not int or not least <= value <= most:
            raise FenError(name, f"expected a number from {least} to {most}, found {value!r}")


def validate(setup: Setup, pieces: list[int], *, lenient: bool, text: str = "") -> tuple[int, int]:
    """The castling rights and en passant square a position of ``setup`` keeps (``pieces``:
    its bitboards by piece); raises :class:`FenError` naming the field, the reason and the
    ``text`` the setup was read from."""
    for colour, name in enumerate(COLOUR_NAMES):
        count = pieces[colour << 3 | KING].bit_count()
        if count != 1:
            raise FenError("piece placement", f"{name} must have exactly one king, has {count}",
                           text)
    rights = _castling(setup, pieces, lenient, text)
    ep = _en_passant(setup, lenient, text)
    if not lenient:
        _check_placement(1 if setup.turn else 0, setup.board, pieces, ep, text)
    return rights, ep


def _castling(setup: Setup, pieces: list[int], lenient: bool, text: str) -> int:
    rights = setup.castling_rights
    if not rights:
        return 0
    kept = 0
    for colour, name in enumerate(COLOUR_NAMES):
        back = BACK_RANKS[colour]
        own = rights & back
        if not own:
            continue
        king = pieces[colour << 3 | KING].bit_length() - 1
        can = pieces[colour << 3 | ROOK] & back if back >> king & 1 else 0
        if not setup.chess960:
            can = can & _CORNERS if king & 7 == 4 else 0
        if own & ~can:
            if not lenient:
                wrong = (own & ~can).bit_length() - 1  # from the h-file down, as FEN writes
                raise FenError("castling", f"right {castling_letter(wrong)!r} does not match "
                               "a king and rook", text)
            own &= can
        below = (1 << king) - 1
        if (own & ~below).bit_count() > 1 or (own & below).bit_count() > 1:
            if not lenient:
                raise FenError("castling", f"two rights on one side of the {name} king", text)
            own = 0
        kept |= own
    stray = rights & ~(BACK_RANKS[0] | BACK_RANKS[1])
    if stray and not lenient:
        raise FenError("castling", f"a right on {SQUARE_NAMES[stray.bit_length() - 1]}, off "
                       "the back ranks", text)
    return kept


def _en_passant(setup: Setup, lenient: bool, text: str) -> int:
    ep = setup.ep_square
    if ep < 0:
        return ep
    turn = 1 if setup.turn else 0
    field = SQUARE_NAMES[ep]
    want = 5 if turn == 0 else 2
    if ep >> 3 != want:
        raise FenError("en passant", f"{field} must be on rank {want + 1} when "
                       f"{COLOUR_NAMES[turn]} is to move", text)
    board = setup.board
    pawn = ep - 8 if turn == 0 else ep + 8
    origin = ep + 8 if turn == 0 else ep - 8
    if board[pawn] == ((turn ^ 1) << 3 | PAWN) and not board[ep] and not board[origin]:
        return ep
    if lenient:
        return -1
    raise FenError("en passant",
                   f"{field} does not follow a double step: needs a pawn on "
                   f"{SQUARE_NAMES[pawn]} and {field} and {SQUARE_NAMES[origin]} empty", text)


def placement_error(pieces: list[int], us: int) -> str | None:
    """Why a placement (``pieces``: bitboards by piece, ``us`` to move) is illegal whatever
    came before (Art. 3.10.3): a pawn on the first or last rank, or the side not to move in
    check; ``None`` when neither. The one test of both, for the FEN reader and the
    dead-position analysis."""
    pawns = (pieces[PAWN] | pieces[8 | PAWN]) & (RANKS[0] | RANKS[7])
    if pawns:
        where = ", ".join(SQUARE_NAMES[sq] for sq in squares_of(pawns))
        return f"a pawn on the first or last rank ({where})"
    them = us ^ 1
    if attackers(pieces, us, pieces[them << 3 | KING].bit_length() - 1, sum(pieces)):
        return f"{COLOUR_NAMES[them]} is in check but not to move"
    return None


def _check_placement(
    us: int, board: tuple[int, ...], pieces: list[int], ep: int, text: str
) -> None:
    error = placement_error(pieces, us)
    if error:
        raise FenError("piece placement", error, text)
    occupied = sum(pieces)  # the bitboards of the pieces are disjoint
    them = us ^ 1
    king = pieces[us << 3 | KING].bit_length() - 1
    squares = squares_of(attackers(pieces, them, king, occupied))
    if len(squares) > 2:
        raise FenError("piece placement", f"{len(squares)} pieces give check; at most 2 can",
                       text)
    if len(squares) == 2:
        a, b = squares
        if not any(board[s] & 7 in _SLIDERS for s in squares) or LINE[king][a] >> b & 1:
            raise FenError("piece placement",
                           f"check from {SQUARE_NAMES[a]} and {SQUARE_NAMES[b]} together "
                           "could not have been given by one move", text)
    if ep >= 0 and squares:
        pawn = ep - 8 if us == 0 else ep + 8
        origin = ep + 8 if us == 0 else ep - 8
        for s in squares:
            if s != pawn and not BETWEEN[king][s] >> origin & 1:
                raise FenError("piece placement",
                               f"the check from {SQUARE_NAMES[s]} could not have been given "
                               f"by the double step to {SQUARE_NAMES[pawn]}", text)
