"""SAN, Standard Algebraic Notation, in and out (Laws Appendix E; PGN standard 8.2.3).

Writing follows the PGN standard exactly: piece letter (E1; none for pawns, E3), the
departure file, rank or square only when another piece of the same kind could *legally* go to
the same square (E9: file first, then rank, then both), ``x`` for captures (E8), the departure
file for pawn captures (E10), ``=Q`` for promotion (E11), ``O-O`` / ``O-O-O`` for castling and
``+`` / ``#`` for check and mate.

Reading has two modes. *Strict* accepts exactly what the writer produces, except that a
missing check or mate sign is tolerated (as every reader of the test corpus does). *Lenient* (the
default) also takes what people and programs write: ``0-0``/``o-o``, a missing or superfluous
``x``, wrong or missing ``+``/``#``, ``e8Q`` without ``=``, over-disambiguation (``Nge7``,
``Rc1c4``), long algebraic with or without a hyphen (``Ng1-f3``, ``e2e4``, ``e1g1`` for
castling, ``b7b8Q``), ``b8(Q)``, ``exd6 e.p.``, figurines and other languages' piece
letters (E2). Errors are :class:`InvalidMoveError` (unparseable, or not text),
:class:`IllegalMoveError` (no such legal move) and :class:`AmbiguousMoveError` (several
legal moves fit; they are listed).

Reading never lists every legal SAN: the text is parsed once (and cached), then only the
pieces of the named kind that reach the arrival square are tested for legality.
"""

from __future__ import annotations

import re
from typing import Final

from chessarbiter.core.attacks import (
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    attackers,
    bishop_attacks,
    rook_attacks,
)
from chessarbiter.core.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from chessarbiter.core.movegen import checkers, count_moves, en_passant_moves, move_sets
from chessarbiter.core.moves import CASTLE_FLAG, Move
from chessarbiter.core.position import Position
from chessarbiter.core.squares import (
    BISHOP,
    FILES,
    KING,
    KNIGHT,
    PAWN,
    PIECE_NAMES,
    QUEEN,
    RANKS,
    ROOK,
    SQUARE_NAMES,
)
from chessarbiter.notation.letters import ENGLISH, FIGURINE_TYPES, PieceLetters

_FILE_NAMES: Final = "abcdefgh"
_RANK_NAMES: Final = "12345678"

Parsed = tuple[int, ...]
"""A SAN text read without a position, six ints: (piece type or 0 when the departure square decides,
departure file or -1, departure rank or -1, arrival square, promotion type, castling:
0 none, 1 king side, 2 queen side)."""

_DASHES: Final = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"), "-")
_CASTLING: Final = re.compile(r"([O0o])-?\1(-?\1)?(?:[+#]|\+\+)?[!?]*")
_LENIENT: Final = re.compile(
    r"(?P<piece>[A-Z\u2654-\u265f])?(?P<file>[a-h])?(?P<rank>[1-8])?[-x:]?"
    r"(?P<to>[a-h][1-8])"
    r"(?:=?(?P<promo>[A-Za-z\u2654-\u265f])|=?\((?P<bracketed>[A-Za-z\u2654-\u265f])\))?"
    r"(?:\s*(?:e\.?p\.?|\(ep\)))?(?:[+#]|\+\+)?[!?]*"
)
_STRICT: Final = re.compile(
    r"(?:O-O(?:-O)?|[A-Z\u2654-\u265f][a-h]?[1-8]?x?[a-h][1-8]"
    r"|(?:[a-h]x)?[a-h][1-8](?:=[A-Z\u2654-\u265f])?)[+#]?"
)
_CACHE_LIMIT: Final = 100_000


class SanReader:
    """Reads SAN in one mode with one set of piece letters; keeps a cache of parsed texts."""

    __slots__ = ("_cache", "_types", "letters", "strict")

    def __init__(self, *, strict: bool = False, letters: PieceLetters = ENGLISH) -> None:
        self.strict = strict
        self.letters = letters
        types = letters.to_type()
        if not strict:
            types |= FIGURINE_TYPES | {"♙": PAWN, "♟": PAWN}
            if "P" not in types:
                types["P"] = PAWN
        self._types = types
        self._cache: dict[str, Parsed] = {}

    def parse(self, pos: Position, text: str) -> Move:
        """The legal move ``text`` names in ``pos``; raises a :class:`MoveError` subclass
        (:class:`InvalidMoveError` also when ``text`` is not a ``str``)."""
        if not isinstance(text, str):
            raise InvalidMoveError(f"invalid SAN: expected text, not {type(text).__name__}")
        parsed = self._cache.get(text)
        if parsed is None:
            parsed = self.read_text(text)
            if len(self._cache) >= _CACHE_LIMIT:
                self._cache.clear()
            self._cache[text] = parsed
        move = resolve(pos, parsed, text)
        if self.strict:
            expected = write_san(pos, move, self.letters)
            if text != expected and text != expected.rstrip("+#"):
                raise InvalidMoveError(
                    f"{text!r} is not standard SAN: this move is written {expected!r}"
                )
        return move

    def read_text(self, text: str) -> Parsed:
        """Read a SAN text without a position; raises :class:`InvalidMoveError`."""
        if not isinstance(text, str):
            raise InvalidMoveError(f"invalid SAN: expected text, not {type(text).__name__}")
        if self.strict:
            if _STRICT.fullmatch(text) is None:
                raise InvalidMoveError(f"invalid SAN {text!r}: not in standard form")
        elif not text.isascii():
            text = text.translate(_DASHES)
        castle = _CASTLING.fullmatch(text)
        if castle is not None:
            return (KING, -1, -1, -1, 0, 2 if castle.group(2) else 1)
        match = _LENIENT.fullmatch(text)
        if match is None:
            raise InvalidMoveError(f"invalid SAN {text!r}: expected a move like Nf3, exd5 or O-O")
        piece, file, rank, to, promo, bracketed = match.group(
            "piece", "file", "rank", "to", "promo", "bracketed"
        )
        promo = promo or bracketed
        kind = PAWN
        if piece is not None:
            kind = self._types.get(piece, 0)
            if not kind:
                raise InvalidMoveError(f"invalid SAN {text!r}: {piece!r} is not a piece letter")
        elif file is not None and rank is not None:
            kind = 0  # long algebraic without a letter: the piece on the square decides
        promotion = 0
        if promo is not None:
            promotion = self._types.get(promo, 0) or self._types.get(promo.upper(), 0)
            if promotion not in (KNIGHT, BISHOP, ROOK, QUEEN):
                raise InvalidMoveError(
                    f"invalid SAN {text!r}: a pawn promotes to a queen, rook, bishop or knight"
                )
        return (
            kind,
            -1 if file is None else _FILE_NAMES.index(file),
            -1 if rank is None else _RANK_NAMES.index(rank),
            SQUARE_NAMES.index(to),
            promotion,
            0,
        )


_LENIENT_READER: Final = SanReader()
_STRICT_READER: Final = SanReader(strict=True)


def parse_san(
    pos: Position, text: str, *, strict: bool = False, letters: PieceLetters = ENGLISH
) -> Move:
    """The legal move written ``text`` in ``pos`` (lenient unless ``strict``)."""
    if letters is ENGLISH:
        return (_STRICT_READER if strict else _LENIENT_READER).parse(pos, text)
    return SanReader(strict=strict, letters=letters).parse(pos, text)


def push_san(pos: Position, text: str, *, strict: bool = False) -> Move:
    """Read a SAN move, play it and return it."""
    move = parse_san(pos, text, strict=strict)
    pos.push(move)
    return move


def _illegal(pos: Position, text: str, why: str) -> IllegalMoveError:
    return IllegalMoveError(f"illegal move {text!r} in {pos.fen()}: {why}")


def _safe(pos: Position, fr: int, to: int) -> bool:
    """Whether moving the piece on ``fr`` to ``to`` leaves its king unattacked (Art. 3.9).
    Not for castling or en passant, which the caller handles."""
    us = pos.turn
    pieces = pos.pieces
    occupied = pos.occupied_co[0] | pos.occupied_co[1]
    if pos.board[fr] & 7 == KING:
        return not attackers(pieces, us ^ 1, to, occupied ^ 1 << fr) & ~(1 << to)
    king = pieces[us << 3 | KING].bit_length() - 1
    return not attackers(pieces, us ^ 1, king, (occupied ^ 1 << fr) | 1 << to) & ~(1 << to)


def _reaching(pos: Position, kind: int, to: int) -> int:
    """The side to move's pieces of a kind that attack ``to`` (pins not considered)."""
    pieces = pos.pieces
    own = pieces[pos.turn << 3 | kind]
    if kind == KNIGHT:
        return KNIGHT_ATTACKS[to] & own
    if kind == KING:
        return KING_ATTACKS[to] & own
    occupied = pos.occupied_co[0] | pos.occupied_co[1]
    if kind == BISHOP:
        return bishop_attacks(to, occupied) & own
    if kind == ROOK:
        return rook_attacks(to, occupied) & own
    return (bishop_attacks(to, occupied) | rook_attacks(to, occupied)) & own


def _castle(pos: Position, short: bool, rook: int, text: str) -> Move:
    """The legal castling move on one side (or with the rook on ``rook`` when >= 0)."""
    for move in move_sets(pos)[2]:
        if move & CASTLE_FLAG:
            fr, to = move & 63, (move >> 6) & 63
            if (to == rook) if rook >= 0 else ((to > fr) == short):
                return Move(move)
    raise _illegal(pos, text, "castling is not possible (Art. 3.8.2)")


def resolve(pos: Position, parsed: Parsed, text: str) -> Move:
    """The legal move a parsed SAN text names (``text`` serves the error messages)."""
    kind, file, rank, to, promo, castle = parsed
    if castle:
        return _castle(pos, castle == 1, -1, text)
    us = pos.turn
    board = pos.board
    if kind == 0:
        fr = rank * 8 + file
        piece = board[fr]
        if not piece or piece >> 3 != us:
            raise _illegal(pos, text, f"the side to move has no piece on {SQUARE_NAMES[fr]}")
        kind = piece & 7
        if kind == KING and (
            board[to] == (us << 3 | ROOK) or (abs(to - fr) == 2 and to >> 3 == fr >> 3)
        ):
            return _castle(pos, to > fr, to if board[to] else -1, text)
    target = board[to]
    if target and target >> 3 == us:
        raise _illegal(pos, text, f"{SQUARE_NAMES[to]} holds a piece of the side to move")
    if kind == PAWN:
        return _pawn_move(pos, file, rank, to, promo, text)
    if promo:
        raise _illegal(pos, text, "only a pawn can promote (Art. 3.7e)")
    candidates = _reaching(pos, kind, to)
    if file >= 0:
        candidates &= FILES[file]
    if rank >= 0:
        candidates &= RANKS[rank]
    found = []
    while candidates:
        low = candidates & -candidates
        candidates ^= low
        fr = low.bit_length() - 1
        if _safe(pos, fr, to):
            found.append(fr)
    if len(found) == 1:
        return Move(found[0] | to << 6)
    if not found:
        raise _illegal(pos, text, f"no {PIECE_NAMES[kind]} can move to {SQUARE_NAMES[to]}")
    names = [write_san(pos, Move(fr | to << 6)) for fr in found]
    raise AmbiguousMoveError(
        f"ambiguous move {text!r} in {pos.fen()}: could be {', '.join(names)}", names
    )


def _pawn_move(pos: Position, file: int, rank: int, to: int, promo: int, text: str) -> Move:
    """A pawn's step, double step, capture or en passant capture (Art. 3.7)."""
    us = pos.turn
    board = pos.board
    pawn = us << 3 | PAWN
    step = -8 if us else 8
    to_file = to & 7
    if file < 0 or file == to_file:
        if board[to]:
            raise _illegal(pos, text, f"a pawn cannot capture straight ahead on {SQUARE_NAMES[to]}")
        fr = to - step
        if not 0 <= fr < 64:
            raise _illegal(pos, text, f"no pawn can move to {SQUARE_NAMES[to]}")
        if board[fr] != pawn:
            if board[fr] or to >> 3 != (4 if us else 3) or board[fr - step] != pawn:
                raise _illegal(pos, text, f"no pawn can move to {SQUARE_NAMES[to]}")
            fr -= step
    else:
        fr = to - step - to_file + file
        if abs(file - to_file) != 1 or not 0 <= fr < 64 or board[fr] != pawn:
            raise _illegal(pos, text, f"no pawn on the {_FILE_NAMES[file]}-file can capture "
                                      f"on {SQUARE_NAMES[to]}")
        if not board[to]:
            if to != pos.ep_square or (fr | to << 6) not in en_passant_moves(pos):
                raise _illegal(pos, text, f"nothing to capture on {SQUARE_NAMES[to]}")
            return Move(fr | to << 6)
    if rank >= 0 and fr >> 3 != rank:
        raise _illegal(pos, text, f"no pawn on {_FILE_NAMES[fr & 7]}{rank + 1} can move there")
    if to >> 3 == (0 if us else 7):
        if not promo:
            raise _illegal(pos, text, "a pawn reaching the last rank must promote (Art. 3.7e)")
    elif promo:
        raise _illegal(pos, text, "a pawn promotes only on the last rank (Art. 3.7e)")
    if not _safe(pos, fr, to):
        raise _illegal(pos, text, "it would leave the king in check (Art. 3.9)")
    return Move(fr | to << 6 | promo << 12)


def write_san(pos: Position, move: int, letters: PieceLetters = ENGLISH) -> str:
    """The SAN of a legal move in ``pos``, with ``+`` or ``#`` (the position is unchanged)."""
    text = san_body(pos, move, letters)
    pos.push(move)
    if checkers(pos):
        text += "#" if count_moves(pos) == 0 else "+"
    pos.pop()
    return text


def san_body(pos: Position, move: int, letters: PieceLetters = ENGLISH) -> str:
    """The SAN of a legal move without the check or mate sign."""
    fr = move & 63
    to = (move >> 6) & 63
    if move & CASTLE_FLAG:
        return "O-O" if to > fr else "O-O-O"
    kind = pos.board[fr] & 7
    if kind == PAWN:
        text = _FILE_NAMES[fr & 7] + "x" + SQUARE_NAMES[to] if (fr ^ to) & 7 else SQUARE_NAMES[to]
        promo = (move >> 12) & 7
        return text + "=" + letters.by_type()[promo] if promo else text
    prefix = letters.by_type()[kind]
    rivals = _reaching(pos, kind, to) & ~(1 << fr) if kind != KING else 0
    if rivals:
        legal = 0
        while rivals:
            low = rivals & -rivals
            rivals ^= low
            if _safe(pos, low.bit_length() - 1, to):
                legal |= low
        if legal:
            if not legal & FILES[fr & 7]:
                prefix += _FILE_NAMES[fr & 7]
            elif not legal & RANKS[fr >> 3]:
                prefix += _RANK_NAMES[fr >> 3]
            else:
                prefix += SQUARE_NAMES[fr]
    return prefix + "x" + SQUARE_NAMES[to] if pos.board[to] else prefix + SQUARE_NAMES[to]


def legal_san(pos: Position, letters: PieceLetters = ENGLISH) -> list[str]:
    """The SAN of every legal move."""
    return [write_san(pos, move, letters) for move in pos.legal_moves()]
