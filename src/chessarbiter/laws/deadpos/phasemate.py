"""Could the winner's checkmate happen in a phase of :mod:`.phases`, and can the side to move
still move when a phase begins?

Let M be a checkmate of the loser, P1 the position before (the winner to move) and P2 the one
before that (the loser to move). Either M is the first position of its phase (the winner's
mating move was a pawn move, capture or promotion: :func:`mate_on_entry` with the winner as
mover), or P1 is (the loser's move before it changed the phase: the same function with the
loser as mover; or P1 is the analysed position, which :mod:`.phases` checks move by move), or
P2, P1 and M all lie in one phase (:func:`mate_inside`). Every test asks for a square ``s``
of the loser's king region that the winner could check, whose flight squares are each
attacked by the winner (its pawns and pieces from their regions, its king from one square
not next to ``s``), hold a loser's pawn, or could be blocked by a distinct loser's piece (as
many pieces as squares, each square in some piece's region). A winner's pawn on a flight
square must be attacked too, or the king takes it.

*Inside a phase.* When none of the loser's pieces can move within the phase (each region is
one square), the loser's move from P2 was a king step from a square ``t`` next to ``s``,
in its region. If the winner's king did not move to mate, it stood on the same square in P2,
so not next to ``t``; the empty (or taken by the mating piece, then defended) square ``t``
must be attacked in M by another winner's unit than the king. Otherwise the king's move
uncovered the check: it left a square on a line from ``s`` that one of the winner's sliders
uses (through squares that hold no pawn), for a square next to it. So ``s`` needs such a
``t``, attacked by the winner's pawns or pieces, with the king away from ``t``, or the king
on a square next to such a line.

*Castling* moves the king two squares and the rook over the squares between, all empty and
the king's not attacked, so both stay in their regions (every square passed is one a step
could reach) and neither is stuck then; but a winner's king that castled to mate may stand
next to the square the loser's king left, so the squares it castles to count as spots.

*On entry.* When the winner's pawn move, capture or promotion mates, the unit it moved gives
the check from its new square (sliders through squares that hold no pawn) or another slider
uncovers it from the moved unit's old square, and every other unit stands where it stood
before: in its region before the move, less the new pawns' squares (a capturing piece or king
on the square it took). So the other winner's pieces attack only one step of their kind
from those regions (closed under their steps, apart from the squares the move emptied), or
along a line through a square the move emptied (then from their phase regions, which the
refill closes); the moved unit attacks from its new square.

*Stalemate on entry.* After a pawn move, capture or promotion the other side must move. It
has no legal move when none of its pawns can push (the square ahead holds a pawn or a stuck
piece) or capture (no enemy unit can stand there), none of its pieces can move within the new
phase nor attack an enemy unit, and its king has no square next to its own (where it stood
before, away from a king known to stand next to it) in its new region or holding an enemy
unit that no enemy pawn, nor enemy unit known to stand next to it, guards. The game then
ends: the phase is not entered that way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from chessarbiter.core.attacks import KING_ATTACKS, bishop_attacks, rook_attacks
from chessarbiter.core.squares import BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK, squares_of
from chessarbiter.laws.deadpos.bitboards import (
    king_step,
    pawn_attacks,
    pawn_push,
    piece_step,
)

LINES: Final = tuple({BISHOP: 1, ROOK: 2, QUEEN: 3}.get(kind, 0) for kind in range(KING + 1))
"""``LINES[kind]``: a piece kind's sliding directions, 1 diagonal, 2 orthogonal (a tuple:
compiled, indexing it needs no hashing)."""

Piece = tuple[int, int, int]
"""A piece of a phase: colour, kind, region."""


class Entry:
    """A pawn move, capture or promotion: who made it, the pawns and pieces right after it
    (each piece in the squares it could stand on then), and the unit that moved: its kind
    afterwards, where it went and where it came from; ``seeds`` are ``pieces`` with a
    capturing piece's region before the capture added, from which the new phase is filled
    (a wider seed, so that more phases coincide). Equal by value. A plain class, not a named
    tuple: compiled, it is made by a direct call (a named tuple's constructor is Python
    code), and the exploration makes one per transition."""

    def __init__(
        self,
        mover: int,
        white: int,
        black: int,
        pieces: tuple[Piece, ...],
        kind: int,
        dst: int,
        origin: int,
        seeds: tuple[Piece, ...],
    ) -> None:
        self.mover = mover
        self.white = white
        self.black = black
        self.pieces = pieces
        self.kind = kind
        self.dst = dst
        self.origin = origin
        self.seeds = seeds

    def identity(self) -> tuple[int, int, int, tuple[Piece, ...], int, int, int, tuple[Piece, ...]]:
        """What makes two entries the same."""
        return (
            self.mover,
            self.white,
            self.black,
            self.pieces,
            self.kind,
            self.dst,
            self.origin,
            self.seeds,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Entry) and self.identity() == other.identity()

    def __hash__(self) -> int:
        return hash(self.identity())


class _Units:
    """What a phase's pieces can do for the mate (a plain class, see :class:`Entry`)."""

    def __init__(
        self, attacks: int, helper: int, king: int, blockers: list[int], room: int, lines: int
    ) -> None:
        self.attacks = attacks
        """Squares the winner's pawns and pieces (not the king) could attack."""
        self.helper = helper
        """The winner's king region."""
        self.king = king
        """The loser's king region."""
        self.blockers = blockers
        """The loser's other pieces' regions."""
        self.room = room
        """Their union."""
        self.lines = lines
        """Sliding directions of the winner's pieces: 1 diagonal, 2 orthogonal."""


def _units(pawns: tuple[int, int], pieces: Sequence[Piece], winner: int) -> _Units:
    attacks = pawn_attacks(pawns[winner], winner)
    helper = king = lines = room = 0
    blockers = []
    for colour, kind, region in pieces:
        if colour != winner:
            if kind == KING:
                king = region
            else:
                blockers.append(region)
                room |= region
        elif kind == KING:
            helper = region
        else:
            attacks |= piece_step(kind, region)
            lines |= LINES[kind]
    return _Units(attacks, helper, king, blockers, room, lines)


def _rays(sq: int, lines: int, pawns: int) -> int:
    """Squares on the winner's sliding lines from ``sq`` up to the first pawn (excluded)."""
    out = bishop_attacks(sq, pawns) if lines & 1 else 0
    if lines & 2:
        out |= rook_attacks(sq, pawns)
    return out & ~pawns


def attacks_from(kind: int, where: int, colour: int, pawns: int) -> int:
    """Squares a unit of ``kind`` on one of ``where`` attacks, pieces ignored."""
    if kind == PAWN:
        return pawn_attacks(where, colour)
    if kind in (KNIGHT, KING):
        return piece_step(kind, where)
    out = 0
    for sq in squares_of(where):
        if kind != ROOK:
            out |= bishop_attacks(sq, pawns)
        if kind != BISHOP:
            out |= rook_attacks(sq, pawns)
    return out


def _covered(sq: int, covered: int, spots: int, free: bool, blockers: _Units) -> bool:
    """Whether every flight square of ``sq`` can be covered: by ``covered``, by the winner's
    king from a square of ``spots`` (or from none when ``free``), or by distinct blockers
    (``blockers.blockers``, counted, not matched: each square in some blocker's region, no
    more squares than the blockers whose regions meet them)."""
    near = KING_ATTACKS[sq]
    need = near & ~covered
    hard = need & ~blockers.room
    if free and not hard and (not need or need.bit_count() <= _meet(need, blockers.blockers)):
        return True
    spots &= king_step(need) & ~near & ~(1 << sq)
    while hard and spots:
        low = hard & -hard
        hard ^= low
        spots &= KING_ATTACKS[low.bit_length() - 1]
    while spots:
        low = spots & -spots
        spots ^= low
        rest = need & ~KING_ATTACKS[low.bit_length() - 1]
        if not rest or rest.bit_count() <= _meet(rest, blockers.blockers):
            return True
    return False


def _meet(need: int, blockers: list[int]) -> int:
    """How many of the loser's pieces (their regions) could stand on a square of ``need``."""
    meet = 0
    for region in blockers:
        if region & need:
            meet += 1
    return meet


def mate_inside(
    white: int, black: int, pieces: tuple[Piece, ...], winner: int, castle: int = 0
) -> bool:
    """Whether a mate with P2, P1 and M in this (filled) phase is not excluded; ``castle``
    are the squares the winner's king may reach by castling."""
    pawns = (white, black)
    units = _units(pawns, pieces, winner)
    squares = units.king & units.attacks
    if not squares:
        return False
    covered = units.attacks | pawns[winner ^ 1]
    blockers = units.blockers
    still = True
    for region in blockers:
        if region & (region - 1):
            still = False
            break
    while squares:
        low = squares & -squares
        squares ^= low
        sq = low.bit_length() - 1
        spots, free = units.helper, True
        if still:
            came = KING_ATTACKS[sq] & units.king & units.attacks
            spots, free = _spots(sq, came, units.helper, units, white | black, castle)
        if _covered(sq, covered, spots, free, units):
            return True
    return False


def _spots(
    sq: int, came: int, before: int, after: _Units, occupied: int, castle: int
) -> tuple[int, bool]:
    """Where the winner's king may stand in M, the loser's king having come to ``sq`` from a
    square of ``came`` (those the winner's other units attack): from ``before`` (its region
    in P2) away from that square, next to a line it left to uncover the check, or on a
    square of ``castle`` it castled to; and whether it may stand anywhere else (out of
    play)."""
    discover = _rays(sq, after.lines, occupied) & before
    spots = (king_step(discover) | castle) & after.helper
    for t in squares_of(came):
        spots |= before & ~(KING_ATTACKS[t] | 1 << t)
    return spots, bool(came or discover)


def mate_on_entry(entry: Entry, filled: Sequence[Piece], winner: int, castle: int = 0) -> bool:
    """Whether M (mover the winner) or P1 (mover the loser) may be the first position of the
    phase ``entry`` begins; ``filled`` are the phase's filled pieces, ``castle`` as for
    :func:`mate_inside`."""
    pawns = (entry.white, entry.black)
    occupied = entry.white | entry.black
    now = _units(pawns, entry.pieces, winner)
    later = _units(pawns, filled, winner)
    squares = now.king & later.attacks
    if not squares:
        return False
    covered = later.attacks | pawns[winner ^ 1]
    checkable = later.attacks
    spots, free = later.helper, True
    lines = later.lines
    if entry.mover == winner:
        checkable = attacks_from(entry.kind, entry.dst, winner, occupied)
        spots = now.helper
        moved = (winner, entry.kind, entry.dst)
        rest = _units(
            pawns, [p for i, p in enumerate(filled) if entry.pieces[i] != moved], winner
        )
        lines = rest.lines
        opened = attacks_from(QUEEN, entry.origin, winner, occupied) & rest.attacks
        covered = now.attacks | opened | checkable | pawns[winner ^ 1]
    while squares:
        low = squares & -squares
        squares ^= low
        sq = low.bit_length() - 1
        if not (checkable & low or _rays(sq, lines, occupied) & entry.origin):
            continue
        if entry.mover != winner and entry.kind == KING:
            came = entry.origin & later.attacks
            spots, free = _spots(sq, came, now.helper, later, occupied, castle)
        if _covered(sq, covered, spots, free, now):
            return True
    return False


def stalemated(entry: Entry, filled: Sequence[Piece]) -> bool:
    """Whether the side to move after ``entry`` surely has no legal move."""
    side = entry.mover ^ 1
    pawns = (entry.white, entry.black)
    occupied = entry.white | entry.black
    prey = pawns[entry.mover]
    guarded = pawn_attacks(prey, entry.mover)
    enemy_king = 0
    for colour, kind, region in entry.pieces:
        if not region & (region - 1):
            occupied |= region
            if colour == entry.mover:
                guarded |= piece_step(kind, region)
        if colour == entry.mover:
            if kind == KING:
                enemy_king = region
            else:
                prey |= region
    if pawn_push(pawns[side], side) & ~occupied or pawn_attacks(pawns[side], side) & prey:
        return False
    double = pawn_push(pawn_push(entry.origin, entry.mover), entry.mover)
    if entry.kind == PAWN and entry.dst & double and king_step(entry.dst) & pawns[side]:
        return False
    for i, (colour, kind, region) in enumerate(filled):  # the pieces as in entry.pieces
        if colour != side:
            continue
        before = entry.pieces[i][2]
        if kind == KING:
            if not enemy_king & (enemy_king - 1):
                away = KING_ATTACKS[enemy_king.bit_length() - 1] | enemy_king
                before &= ~away
                region &= ~away
            if king_step(before) & (region | prey) & ~guarded:
                return False
        elif region & (region - 1) or piece_step(kind, before) & prey:
            return False
    return True
