from __future__ import annotations

from typing import Final

from chessarbiter.core import movegen
from chessarbiter.core.board import Board
from chessarbiter.core.errors import IllegalMoveError
from chessarbiter.core.fenfields import read_setup, write_setup
from chessarbiter.core.moves import CASTLE_FLAG, Move, king_destination, parse_uci_parts, uci
from chessarbiter.core.setup import Setup
from chessarbiter.core.squares import (
    BACK_RANKS,
    KING,
    NO_SQUARE,
    PAWN,
    SIDES,
    WHITE,
    squares_of,
)
from chessarbiter.core.validation import check_fields, validate
from chessarbiter.core.zobrist import (
    EN_PASSANT_KEYS,
    PIECE_KEYS,
    TURN_KEY,
    castling_key,
)

STARTING_FEN: Final = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

Undo = tuple[int, int, int, int, int]
"""What :meth:`Position.unmake` needs: the move, the piece taken, the castling rights,
en passant square and key before it."""
Counted = tuple[Undo, int]
"""What :meth:`Position.unmake_counted` needs: the :data:`Undo` and the halfmove clock
before the move."""


class Position(Board):
    """A mutable position: a :class:`Board` (the pieces, the side to move, the castling and
    en passant rights) with the halfmove clock (Art. 9.3), the fullmove number, the position
    key and the moves pushed. Built from a FEN (``Position(fen)``, or
    :func:`chessarbiter.core.fen.parse_fen`), from a :class:`Setup` (:meth:`from_setup`,
    checked; :meth:`from_snapshot`, trusted), or ``Position()`` for the initial position
    (Art. 2.3).
    """

    __slots__ = ("_key", "_stack", "chess960", "fullmove_number", "halfmove_clock")

    def __init__(
        self, fen: str | None = STARTING_FEN, *, chess960: bool = False, lenient: bool = False
    ) -> None:
        """The position of a FEN, by default the initial position; ``None`` gives an empty
        board (no legal moves can be generated until both kings stand on it). A FEN that is
        not a position raises :class:`~chessarbiter.core.errors.FenError` (``lenient``: see
        :mod:`chessarbiter.core.fenfields` and :mod:`chessarbiter.core.validation`)."""
        if fen is None:
            self.board = [0] * 64
            self.pieces = [0] * 16
            self.occupied_co = [0, 0]
            self._turn = self.castling_rights = self.halfmove_clock = self._key = 0
            self.turn = WHITE
            self.ep_square = -1
            self.fullmove_number = 1
            self.chess960 = chess960
            self._stack: list[Counted] = []
        else:
            setup = read_setup(fen, chess960=chess960, lenient=lenient)
            self._load(setup)
            self._validate(setup, lenient, fen)

    @classmethod
    def from_setup(cls, setup: Setup, *, lenient: bool = False) -> Position:
        """The position of a setup, checked as a FEN is (one king each, castling rights and
        en passant square that fit the pieces, ...; :mod:`chessarbiter.core.validation`);
        raises :class:`~chessarbiter.core.errors.FenError` naming the field and the reason."""
        check_fields(setup)
        pos = cls(None)
        pos._load(setup)
        pos._validate(setup, lenient, "")
        return pos

    @classmethod
    def from_snapshot(cls, snap: Setup) -> Position:
        """The position of a setup taken from a position by :meth:`snapshot`, not checked
        again (its move history starts empty)."""
        pos = cls(None)
        pos._load(snap)
        return pos

    # -- state -------------------------------------------------------------------------

    def _load(self, setup: Setup) -> None:
        board = self.board = list(setup.board)
        turn = setup.turn
        castling_rights = setup.castling_rights
        pieces = self.pieces = [0] * 16
        key = castling_key(castling_rights) ^ (TURN_KEY if turn else 0)
        piece_keys = PIECE_KEYS
        for sq, p in enumerate(board):
            if p:
                pieces[p] |= 1 << sq
                key ^= piece_keys[p][sq]
        self.occupied_co = [
            pieces[1] | pieces[2] | pieces[3] | pieces[4] | pieces[5] | pieces[6],
            pieces[9] | pieces[10] | pieces[11] | pieces[12] | pieces[13] | pieces[14],
        ]
        self._turn = 1 if turn else 0
        self.turn = SIDES[self._turn]
        self.castling_rights = castling_rights
        self.ep_square = setup.ep_square
        self.halfmove_clock = setup.halfmove_clock
        self.fullmove_number = setup.fullmove_number
        self.chess960 = setup.chess960
        self._key = key
        self._stack = []

    def _validate(self, setup: Setup, lenient: bool, text: str) -> None:
        """Check the setup just loaded; keep only the rights it may have (lenient)."""
        rights, ep = validate(setup, self.pieces, lenient=lenient, text=text)
        if rights != self.castling_rights:
            self._key ^= castling_key(self.castling_rights) ^ castling_key(rights)
            self.castling_rights = rights
        self.ep_square = ep

    def snapshot(self) -> Setup:
        """The position's values, frozen."""
        return Setup(
            tuple(self.board),
            self.turn,
            self.castling_rights,
            self.ep_square,
            self.halfmove_clock,
            self.fullmove_number,
            self.chess960,
        )

    def copy(self) -> Position:
        """An independent copy, move history included."""
        pos = Position.from_snapshot(self.snapshot())
        pos._stack = list(self._stack)
        return pos

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self.snapshot() == other.snapshot()

    def __hash__(self) -> int:
        return hash(self.snapshot())

    def __repr__(self) -> str:
        return f"Position({self.fen()!r})"

    def fen(self, *, en_passant: str = "always", castling: str = "xfen") -> str:
        """The FEN of the position. ``en_passant="always"`` (the standard) writes the square
        after every double step; ``"legal"`` only when an en passant capture is legal (X-FEN,
        lichess). ``castling="shredder"`` writes Chess960 rights as rook files (``HAha``)."""
        if en_passant not in ("always", "legal"):
            raise ValueError(f"en_passant must be 'always' or 'legal', not {en_passant!r}")
        setup = self.snapshot()
        if self.ep_square >= 0 and en_passant == "legal" and not movegen.en_passant_moves(self):
            setup = setup._replace(ep_square=-1)
        return write_setup(setup, castling=castling)

    def key(self) -> int:
        """The 62-bit identity of Art. 9.2.3 (en passant only when a capture is legal)."""
        key = self._key
        if self.ep_square >= 0 and movegen.en_passant_moves(self):
            key ^= EN_PASSANT_KEYS[self.ep_square & 7]
        return key

    def key_without_en_passant(self) -> int:
        """The key of the pieces, the side to move and the castling rights alone: what a
        search keys the positions after non-pawn-double-step moves from (their key has no
        en passant term)."""
        return self._key

    def king(self, colour: int) -> int:
        """The square of a colour's king."""
        return self.pieces[colour << 3 | KING].bit_length() - 1

    def piece_at(self, sq: int) -> int:
        """The piece on a square, 0 if empty."""
        return self.board[sq]

    def quiet_parent(self) -> int:
        """The identity of the position before the last move (its :meth:`key`, en passant
        left out) when that move was neither a capture nor a pawn move, else -1 (also when
        no move was pushed)."""
        if self.halfmove_clock and self._stack:
            return self._stack[-1][0][4]
        return -1

    @property
    def move_stack(self) -> list[Move]:
        """The moves pushed since this position was built, oldest first."""
        return [Move(undo[0]) for undo, _ in self._stack]

    # -- moves -------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move (Art. 3)."""
        return movegen.legal_moves(self)

    def count_legal_moves(self) -> int:
        """How many legal moves there are, without listing them."""
        return movegen.count_moves(self)

    def is_legal(self, move: int) -> bool:
        """Whether a move is legal here (tested alone, without listing the moves)."""
        return movegen.is_legal(self, move)

    def has_legal_move(self) -> bool:
        """Whether the side to move has any legal move (without listing them)."""
        return movegen.has_legal_move(self)

    def checkers(self) -> list[int]:
        """The squares of the pieces giving check (Art. 3.9)."""
        return squares_of(movegen.checkers(self))

    def is_check(self) -> bool:
        """Whether the side to move is in check (Art. 3.9)."""
        return movegen.checkers(self) != 0

    def is_checkmate(self) -> bool:
        """In check with no legal move (Art. 5.1.1)."""
        return self.is_check() and not movegen.has_legal_move(self)

    def is_stalemate(self) -> bool:
        """Not in check with no legal move (Art. 5.2.1)."""
        return not self.is_check() and not movegen.has_legal_move(self)

    def uci(self, move: int) -> str:
        """A move in UCI notation, Chess960 style when the position is Chess960."""
        return uci(move, self.chess960)

    def parse_uci(self, text: str) -> Move:
        """The legal move written in UCI. Castling is the king's two-square step (``e1g1``)
        or, as Chess960 writes it, the king taking its own rook (``e1h1``); in a Chess960
        position only the latter, since there ``f1g1`` may be a plain king move."""
        fr, to, promo = parse_uci_parts(text)
        for move in movegen.legal_moves(self):
            if move & 63 == fr and (move >> 12) & 7 == promo and (
                (move >> 6) & 63 == to
                or (move & CASTLE_FLAG and not self.chess960 and king_destination(move) == to)
            ):
                return move
        raise IllegalMoveError(f"illegal move {text!r} in {self.fen()}")

    def push_uci(self, text: str) -> Move:
        """Play a move given in UCI after checking it is legal; returns it."""
        move = self.parse_uci(text)
        self.push(move)
        return move

    def push(self, move: int) -> None:
        """Make a move. It must be legal (use :meth:`is_legal` or the ``parse_`` methods on
        untrusted input): ``push`` does no checking, for speed in search and replay. It is
        :meth:`make_counted` with the history: the move stack and the fullmove number."""
        self._stack.append(self.make_counted(move))
        if not self._turn:  # Black moved
            self.fullmove_number += 1

    def make_counted(self, move: int) -> Counted:
        """Make a legal move as :meth:`make` does, and count the halfmove clock (Art. 9.3),
        for a search that needs the 50-move rule but no move history (the fullmove number
        and the move stack are left as they are). :meth:`unmake_counted` takes it back."""
        halfmove = self.halfmove_clock
        board = self.board
        reset = (board[(move >> 6) & 63] and not move & CASTLE_FLAG) or board[move & 63] & 7 == PAWN
        undo = self.make(move)
        self.halfmove_clock = 0 if reset else halfmove + 1
        return undo, halfmove

    def unmake_counted(self, counted: Counted) -> None:
        """Take back a move made by :meth:`make_counted`."""
        self.unmake(counted[0])
        self.halfmove_clock = counted[1]

    def make(self, move: int) -> Undo:
        """Make a legal move as :meth:`push` does, for an exhaustive search that needs no
        history: the halfmove clock, the fullmove number and the move stack are left as
        they are. Returns what :meth:`unmake` needs to take it back."""
        board = self.board
        pieces = self.pieces
        occ = self.occupied_co
        us = self._turn
        fr = move & 63
        to = (move >> 6) & 63
        moved = board[fr]
        captured = board[to]
        rights = before = self.castling_rights
        ep = self.ep_square
        key = undo_key = self._key
        key ^= TURN_KEY
        self.ep_square = NO_SQUARE
        if move & CASTLE_FLAG:
            rank = fr & 56
            king_to, rook_to = (rank | 6, rank | 5) if to > fr else (rank | 2, rank | 3)
            board[fr] = board[to] = 0
            board[king_to] = moved
            board[rook_to] = captured
            pieces[moved] ^= 1 << fr ^ 1 << king_to
            pieces[captured] ^= 1 << to ^ 1 << rook_to
            occ[us] = (occ[us] ^ 1 << fr ^ 1 << to) | 1 << king_to | 1 << rook_to
            kp = PIECE_KEYS[moved]
            rp = PIECE_KEYS[captured]
            key ^= kp[fr] ^ kp[king_to] ^ rp[to] ^ rp[rook_to]
            rights &= ~BACK_RANKS[us]
        else:
            move_bb = 1 << fr | 1 << to
            if captured:
                pieces[captured] ^= 1 << to
                occ[us ^ 1] ^= 1 << to
                key ^= PIECE_KEYS[captured][to]
            pieces[moved] ^= move_bb
            occ[us] ^= move_bb
            board[fr] = 0
            board[to] = moved
            kp = PIECE_KEYS[moved]
            key ^= kp[fr] ^ kp[to]
            kind = moved & 7
            if kind == PAWN:
                if to == ep:
                    gone = to ^ 8
                    victim = board[gone]
                    board[gone] = 0
                    pieces[victim] ^= 1 << gone
                    occ[us ^ 1] ^= 1 << gone
                    key ^= PIECE_KEYS[victim][gone]
                elif to - fr == 16 or fr - to == 16:
                    self.ep_square = (fr + to) >> 1
                elif move >> 12:
                    promoted = (moved & 8) | (move >> 12) & 7
                    board[to] = promoted
                    pieces[moved] ^= 1 << to
                    pieces[promoted] ^= 1 << to
                    key ^= kp[to] ^ PIECE_KEYS[promoted][to]
            elif kind == KING:
                rights &= ~BACK_RANKS[us]
            rights &= ~move_bb
        if rights != before:
            key ^= castling_key(rights ^ before)
            self.castling_rights = rights
        self._turn = us ^ 1
        self.turn = SIDES[us ^ 1]
        self._key = key
        return move, captured, before, ep, undo_key

    def make_keyed(self, move: int, key: int) -> Undo:
        """Make, as :meth:`make` does, a legal move that neither castles, takes en passant,
        steps a pawn two squares nor changes a castling right, in a position without
        castling rights, ``key`` being the key it leads to, which the caller computed to
        look it up before making it (the dead-position exploration). Faster than
        :meth:`make`; :meth:`unmake` takes it back."""
        board = self.board
        pieces = self.pieces
        occupied = self.occupied_co
        fr = move & 63
        to = (move >> 6) & 63
        moved = board[fr]
        captured = board[to]
        us = self._turn
        bits = 1 << fr | 1 << to
        board[fr] = 0
        pieces[moved] ^= bits
        occupied[us] ^= bits
        if captured:
            pieces[captured] ^= 1 << to
            occupied[us ^ 1] ^= 1 << to
        if move >> 12:
            promoted = moved & 8 | move >> 12
            pieces[moved] ^= 1 << to
            pieces[promoted] ^= 1 << to
            board[to] = promoted
        else:
            board[to] = moved
        undo = (move, captured, 0, self.ep_square, self._key)
        self.ep_square = NO_SQUARE
        self._turn = us ^ 1
        self.turn = SIDES[us ^ 1]
        self._key = key
        return undo

    def make_null(self) -> Undo:
        """Hand the move to the opponent without moving (a search's null move, never a move
        of a game; not in check): the en passant square is cleared. Returns what
        :meth:`unmake_null` needs to take it back."""
        undo = (0, 0, self.castling_rights, self.ep_square, self._key)
        self._key ^= TURN_KEY
        self.ep_square = NO_SQUARE
        self._turn ^= 1
        self.turn = SIDES[self._turn]
        return undo

    def unmake_null(self, undo: Undo) -> None:
        """Take back a null move made by :meth:`make_null`."""
        self.ep_square = undo[3]
        self._key = undo[4]
        self._turn ^= 1
        self.turn = SIDES[self._turn]

    def unmake(self, undo: Undo) -> None:
        """Take back a move made by :meth:`make`."""
        move, captured, rights, ep, key = undo
        board = self.board
        pieces = self.pieces
        occ = self.occupied_co
        us = self._turn ^ 1
        self._turn = us
        self.turn = SIDES[us]
        self.castling_rights = rights
        self.ep_square = ep
        self._key = key
        fr = move & 63
        to = (move >> 6) & 63
        if move & CASTLE_FLAG:
            rank = fr & 56
            king_to, rook_to = (rank | 6, rank | 5) if to > fr else (rank | 2, rank | 3)
            king = board[king_to]
            board[king_to] = board[rook_to] = 0
            board[fr] = king
            board[to] = captured
            pieces[king] ^= 1 << fr ^ 1 << king_to
            pieces[captured] ^= 1 << to ^ 1 << rook_to
            occ[us] = (occ[us] ^ 1 << king_to ^ 1 << rook_to) | 1 << fr | 1 << to
            return
        moved = board[to]
        move_bb = 1 << fr | 1 << to
        if move >> 12:
            pawn = (moved & 8) | PAWN
            pieces[moved] ^= 1 << to
            pieces[pawn] ^= 1 << to
            moved = pawn
        pieces[moved] ^= move_bb
        occ[us] ^= move_bb
        board[fr] = moved
        board[to] = captured
        if captured:
            pieces[captured] ^= 1 << to
            occ[us ^ 1] ^= 1 << to
        elif to == ep and moved & 7 == PAWN:
            gone = to ^ 8
            victim = moved ^ 8
            board[gone] = victim
            pieces[victim] ^= 1 << gone
            occ[us ^ 1] ^= 1 << gone

    def pop(self) -> Move:
        """Unmake the last move; returns it."""
        counted = self._stack.pop()
        self.unmake_counted(counted)
        if self._turn:  # Black's move taken back: his move number again
            self.fullmove_number -= 1
        return Move(counted[0][0])
