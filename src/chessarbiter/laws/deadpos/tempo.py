"""Tempo search: a helpmate search (Laws Art. 5.2.2, 6.9: checkmate "by any possible series
of legal moves") in which the units a wall shuts away from the loser's king only give tempo.

Composed positions split the board with walls of blocked pawns: the units on the far side
can never take part in the mate, and their moves matter only as tempo moves, any one of
which serves as well as another (``BbK1kb2/b1p1p1p1/1pP1P1P1/1P6/8/8/8/1B2b2B b`` for White:
Black's king must step off e8 and back while White's light bishop passes it, the bishops
below the wall giving both sides their tempi). The *walls* are the pawns with a pawn in front
of them (Art. 3.7.1) and the pieces boxed in among them (every square they could move to a
wall). Each other unit has a *region*, the squares its own moves over the other squares
reach (a king's avoiding the squares the enemy walls attack), and *touches* its region and
the squares it attacks from there. The loser's king's group starts with that king, whose
region counts with the squares next to it (where the mate happens), and takes in every unit
that touches the region of a unit of the group or whose region a unit of the group touches;
the units left are *idle*. A pawn that is not a wall could promote and go anywhere, and
castling moves two units: with either on the board no unit is idle, and the search does not
run.

The search is iterative deepening towards the winner's checkmate, two plies deeper each
iteration (a mate ends on the winner's move), with a table of the depth each position was
searched to, in which the idle units give one move per position (the first of their legal
moves) and their squares do not tell positions apart. It only finds helpmates (a line is the
series of legal moves it played, ending in mate), never proves: the walls are taken as they
stand, so a mate that needs one broken may be missed.
"""

from __future__ import annotations

from typing import Final

from chessarbiter.core.movegen import has_legal_move, in_check
from chessarbiter.core.moves import Move
from chessarbiter.core.position import Position, Undo
from chessarbiter.core.squares import BISHOP, FULL, KING, KNIGHT, PAWN, QUEEN, ROOK, squares_of
from chessarbiter.core.zobrist import PIECE_KEYS
from chessarbiter.laws.deadpos.bitboards import (
    king_step,
    pawn_attacks,
    pawns_blocked,
    piece_fill,
    piece_step,
)
from chessarbiter.laws.deadpos.deadline import NEVER, Deadline
from chessarbiter.laws.deadpos.strategy import Found, Outcome, Spent

PIECE_KINDS: Final = (KNIGHT, BISHOP, ROOK, QUEEN)
"""The pieces other than kings and pawns, each with its steps (a queen's are a king's)."""

MAX_PLIES: Final = 64
"""The longest line searched: no deeper iteration is tried."""


class _Spent(Exception):
    """The node budget ran out."""


def idle_units(pos: Position, winner: int) -> int:
    """The squares of the idle units (see the module doc); 0 when there are none."""
    pieces = pos.pieces
    pawns = pieces[PAWN] | pieces[8 | PAWN]
    walls = pawns_blocked(pieces[PAWN], pieces[8 | PAWN])
    if pawns & ~walls or pos.castling_rights:
        return 0
    boxed = _boxed(pos, walls)
    walls |= boxed
    allowed = FULL ^ walls
    guards = [pawn_attacks(walls & pieces[colour << 3 | PAWN], colour) for colour in (0, 1)]
    for colour in (0, 1):
        for kind in PIECE_KINDS:
            guards[colour] |= piece_step(kind, boxed & pieces[colour << 3 | kind])
    loser = winner ^ 1
    king = pieces[loser << 3 | KING]
    region = piece_fill(KING, king, allowed & ~guards[winner])
    group_regions = group_touched = region | (king_step(region) & allowed)
    safe = allowed & ~guards[loser]
    king = pieces[winner << 3 | KING]
    region = piece_fill(KING, king, safe)
    units = [(king, region, region | (king_step(region) & safe))]  # square, region, touched
    for colour in (0, 1):
        for kind in PIECE_KINDS:
            for sq in squares_of(pieces[colour << 3 | kind] & ~boxed):
                region = piece_fill(kind, 1 << sq, allowed)
                units.append((1 << sq, region, region | (piece_step(kind, region) & allowed)))
    idle = 0
    for unit in units:
        idle |= unit[0]
    grown = True
    while grown:
        grown = False
        for square, region, touched in units:
            if idle & square and (touched & group_regions or region & group_touched):
                idle ^= square
                group_regions |= region
                group_touched |= touched
                grown = True
    return idle


def _boxed(pos: Position, walls: int) -> int:
    """The pieces (not kings) whose every move square is a wall or another such piece: the
    greatest such set."""
    pieces = pos.pieces
    boxed = (pos.occupied_co[0] | pos.occupied_co[1]) & ~(pieces[PAWN] | pieces[8 | PAWN])
    boxed &= ~(pieces[KING] | pieces[8 | KING])
    while True:
        kept = 0
        for colour in (0, 1):
            for kind in PIECE_KINDS:
                for sq in squares_of(pieces[colour << 3 | kind] & boxed):
                    if not piece_step(kind, 1 << sq) & ~(walls | boxed):
                        kept |= 1 << sq
        if kept == boxed:
            return boxed
        boxed = kept


class TempoSearch:
    """The tempo search of one position and winner as a :class:`.strategy.Strategy` that
    resumes (the iteration it was in starts again); its nodes are ``extra``, on top of the
    budget the other searches share. It finds helpmates, never proves."""

    def __init__(self, pos: Position, winner: int) -> None:
        self.pos = pos
        self.winner = winner
        self.resumes = True
        self.extra = True
        self.nodes = 0
        self.idle = -1  # the idle units' squares, found on the first run
        self.shade = 0  # their keys on their squares: left out of a position's key
        self.depth = 0
        self.done = False  # every iteration up to MAX_PLIES tried, or no idle unit
        self.budget = 0
        self.deadline = NEVER
        self.table: dict[int, int] = {}
        self.line: list[Move] = []
        self.found: tuple[Move, ...] | None = None
        self.undos: list[Undo] = []
        self.cut = False

    def run(self, budget: int, deadline: Deadline = NEVER) -> Outcome:
        """A helpmate found within ``budget`` more nodes (the same with 0 nodes once found),
        else :class:`.strategy.Spent`; ``pos`` is restored afterwards (not when ``deadline``
        raises)."""
        pos = self.pos
        if self.idle < 0:
            self.idle = idle_units(pos, self.winner)
            for sq in squares_of(self.idle):
                self.shade ^= PIECE_KEYS[pos.board[sq]][sq]
            self.depth = 1 if pos.turn == self.winner else 2
            self.done = not self.idle
        before = self.nodes
        if self.found is not None:
            return Found(self.found, 0)
        if self.done:
            return Spent(0)
        self.budget, self.deadline = before + budget, deadline
        idle, shade = self.idle, self.shade
        try:
            while self.depth <= MAX_PLIES:
                self.table.clear()
                self.line.clear()
                self.cut = False
                if self._search(self.depth):
                    self.found = tuple(reversed(self.line))
                    return Found(self.found, self.nodes - before)
                if not self.cut:
                    break  # every position the idle units' tempo leaves was seen
                self.depth += 2
            self.done = True
        except _Spent:
            while self.undos:
                pos.unmake(self.undos.pop())
            self.idle, self.shade = idle, shade
        return Spent(self.nodes - before)

    def _search(self, left: int) -> bool:
        """Whether a helpmate lies within ``left`` plies; the line, last move first, is in
        :attr:`line`."""
        pos = self.pos
        if left <= 0:
            checked = in_check(pos)  # a leaf: only mate or stalemate ends its line uncut
            if not has_legal_move(pos, checked):
                return pos.turn != self.winner and checked
            self.cut = True
            return False
        moves = pos.legal_moves()
        if not moves:
            return pos.turn != self.winner and pos.is_check()
        key = pos.key() ^ self.shade
        if self.table.get(key, 0) >= left:
            return False
        self.table[key] = left
        board = pos.board
        tempo = False
        for move in moves:
            fr = move & 63
            to = (move >> 6) & 63
            bits = change = 0
            if self.idle >> fr & 1:
                if tempo:
                    continue  # one tempo move of the idle units is enough
                tempo = True
                bits = 1 << fr | 1 << to
                change = PIECE_KEYS[board[fr]][fr] ^ PIECE_KEYS[board[fr]][to]
            elif self.idle >> to & 1:  # an idle unit taken
                bits = 1 << to
                change = PIECE_KEYS[board[to]][to]
            if self.nodes >= self.budget:
                raise _Spent
            self.nodes += 1
            self.deadline.tick()
            self.idle ^= bits
            self.shade ^= change
            self.undos.append(pos.make(move))
            found = self._search(left - 1)
            pos.unmake(self.undos.pop())
            self.idle ^= bits
            self.shade ^= change
            if found:
                self.line.append(move)
                return True
        return False
