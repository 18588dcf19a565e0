"""Static mobility analysis (Laws Art. 5.2.2, 6.9): where could each piece ever go?

A sound over-approximation in the spirit of Ambrona's semi-static analysis (FUN 2022).
First the *fixed* units: the largest set of pawns and pieces (not kings) such that, as
long as all of them stand, none can ever move (a pawn's square ahead holds a fixed unit
and no enemy piece can ever stand where it captures; every square a piece steps to holds
a fixed unit of its own colour) and none can ever be captured (no enemy piece can ever
attack it, and an enemy king that can come next to it finds it guarded by a fixed unit).
By induction over any series of moves, none of them ever moves: they are walls, and the
other pieces are confined to what :mod:`.reach` computes around them (a king also avoids
the squares fixed enemy units attack).

The intended winner can then checkmate only if one of its pieces can attack the square
region of the losing king. If the only such pieces are bishops of one square colour, every
square of that colour in the region is tried as a mating square: the king's other flight
squares must be covered by the winner's king or fixed units, or blocked by the loser's own
pieces, and there must be enough of those that can get there. A locked pawn blocks only
on its own file (it never captures), so each file's squares beyond its locked pawns ask for
other blockers.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from chessarbiter.core.attacks import KING_ATTACKS, KNIGHT_ATTACKS, bishop_attacks, rook_attacks
from chessarbiter.core.position import Position
from chessarbiter.core.squares import BISHOP, FILES, FULL, KING, KNIGHT, PAWN, QUEEN, ROOK
from chessarbiter.laws.deadpos.bitboards import (
    LAST_RANKS,
    SQUARE_STEPS,
    king_step,
    pawn_attacks,
    pawn_fill,
    pawn_push,
    piece_fill,
    piece_step,
)
from chessarbiter.laws.deadpos.reach import Reach, reaches

KINDS: Final = (KNIGHT, BISHOP, ROOK, QUEEN)
"""The piece kinds other than the king, each with the squares next to it that it could move
to or attack (:func:`.bitboards.piece_step`)."""


class Mobility(NamedTuple):
    """The fixed units, the locked pawns with their paths, and what the rest can reach."""

    fixed: int
    locked: int
    reach: tuple[Reach, Reach]
    kings: tuple[int, int]
    """Each colour's king region: off the fixed units and the squares fixed enemy units
    attack."""
    guards: tuple[int, int]
    """The squares each colour's fixed units attack (:func:`guards`)."""


_NOTHING = Reach(0, 0, 0, 0)
"""Stands in for the reach when nothing is fixed: the analysis then proves nothing."""
_NONE_FIXED = Mobility(0, 0, (_NOTHING, _NOTHING), (0, 0), (0, 0))
"""The mobility when no unit is fixed (most positions)."""


def fixed_units(pos: Position) -> int:
    """The bitboard of units that can never move or be captured again (see module doc)."""
    return mobility(pos).fixed


_last: dict[tuple[tuple[int, ...], int, int], Mobility] = {}
"""The last position's :class:`Mobility`, by what it reads of the position (the units, the
en-passant square and, with one, the side to move): the per-move proof asks for both sides
of a position in turn."""


def mobility(pos: Position) -> Mobility:
    """The greatest self-consistent fixed units and locked pawns (see module doc); when no
    unit is fixed, nothing else is computed."""
    ep = pos.ep_square
    key = (tuple(pos.pieces), ep, pos.turn if ep >= 0 else 0)
    found = _last.get(key)
    if found is None:
        found = _mobility(pos)
        _last.clear()
        _last[key] = found
    return found


def _mobility(pos: Position) -> Mobility:
    pieces = pos.pieces
    units = (
        pos.occupied_co[0] & ~pieces[KING],
        pos.occupied_co[1] & ~pieces[8 | KING],
    )
    kings = [pieces[KING], pieces[8 | KING]]  # each king's region, grown as units drop
    fixed = _unattacked(pos, units, _candidates(pos, units), kings)
    movable = (pieces[PAWN] | pieces[8 | PAWN]) & ~_en_passant(pos)
    locked = movable & ~fixed
    while fixed:
        paths = (_paths(pieces, fixed, locked, 0), _paths(pieces, fixed, locked, 1))
        reach = reaches(pos, fixed, locked, (paths[0][0], paths[1][0]))
        allowed = FULL ^ fixed
        kept = 0
        held = 0
        guarded_by = [0, 0]
        for colour in (0, 1):
            them = colour ^ 1
            mine = fixed & units[colour]
            guarded = guarded_by[colour] = guards(pieces, mine, colour)
            king = kings[them] = piece_fill(KING, kings[them], allowed & ~guarded)
            threats = reach[them].checks | reach[them].bishop_checks | (king_step(king) & ~guarded)
            prey = (fixed & units[them]) | reach[them].stand
            capture = pawn_attacks(prey, them)
            pawns = mine & pieces[colour << 3 | PAWN] & pawn_push(fixed, them) & ~capture
            kept |= (pawns | _boxed(pieces, mine, colour)) & ~threats
            for pawn, path in paths[colour][1]:
                if not (path & (threats | LAST_RANKS[colour]) or pawn_attacks(path, colour) & prey):
                    held |= pawn
        if kept == fixed and held == locked:
            return Mobility(
                fixed, locked, reach, (kings[0], kings[1]), (guarded_by[0], guarded_by[1])
            )
        locked = held | ((fixed ^ kept) & movable)
        fixed = kept
    return _NONE_FIXED


def _paths(
    pieces: list[int], fixed: int, locked: int, colour: int
) -> tuple[int, list[tuple[int, int]]]:
    """Each locked pawn of ``colour`` with the squares ahead it may walk (up to a fixed unit
    or a locked enemy pawn, which never leave), and their union."""
    stop = FULL ^ (fixed | (locked & pieces[(colour ^ 1) << 3 | PAWN]))
    out = []
    union = 0
    bb = locked & pieces[colour << 3 | PAWN]
    while bb:
        low = bb & -bb
        bb ^= low
        path = pawn_fill(low, stop, 0, colour)
        union |= path
        out.append((low, path))
    return union, out


def guards(pieces: list[int], fixed: int, colour: int) -> int:
    """Squares the fixed units ``fixed`` of ``colour`` attack whatever else moves."""
    base = colour << 3
    out = pawn_attacks(fixed & pieces[base | PAWN], colour)
    for kind in KINDS:
        bb = fixed & pieces[base | kind]
        if bb:
            out |= piece_step(kind, bb)
    return out


def _candidates(pos: Position, units: tuple[int, int]) -> int:
    """Units that cannot move now: the fixed units are among them."""
    pieces = pos.pieces
    occupied = units[0] | units[1]
    pawns = (pieces[PAWN] & (occupied >> 8)) | (pieces[8 | PAWN] & (occupied << 8))
    pawns &= ~_en_passant(pos)
    boxed = _boxed(pieces, units[0], 0) | _boxed(pieces, units[1], 1)
    return pawns | boxed


def _unattacked(pos: Position, units: tuple[int, int], fixed: int, kings: list[int]) -> int:
    """The units of ``fixed`` left once those that surely break a condition are dropped, until
    none does: a unit an enemy unit outside ``fixed`` (not the king) attacks through squares
    outside it, or that the enemy king can come next to (through squares outside ``fixed``
    that fixed units of the unit's colour do not guard) while none guards it; a pawn whose
    square ahead is not in ``fixed`` or that could capture an enemy unit now; a piece not
    boxed in by units of ``fixed``. Such a unit is outside every self-consistent subset of
    ``fixed`` (its enemy's reach holds these squares), so the fixpoint found from what is
    left is the same, and most positions need no :func:`.reach.reaches` at all. ``kings``
    holds part of each king's region (its square at first), grown here in place: a region
    filled for more fixed units lies in the one for fewer, so each fill goes on from the
    last."""
    pieces = pos.pieces
    pawns = (
        pieces[PAWN] & ~pawn_attacks(units[1], 1),
        pieces[8 | PAWN] & ~pawn_attacks(units[0], 0),
    )
    while fixed:
        kept = 0
        for colour in (0, 1):
            them = colour ^ 1
            mine = fixed & units[colour]
            left = (pawns[colour] & mine & pawn_push(fixed, them)) | _boxed(pieces, mine, colour)
            if left:
                left &= ~_attacks(pieces, them, fixed)
            if left:
                safe = FULL ^ guards(pieces, mine, colour)
                kings[them] = piece_fill(KING, kings[them], safe & ~fixed)
                left &= ~(king_step(kings[them]) & safe)
            kept |= left
        if kept == fixed:
            return fixed
        fixed = kept
    return 0


def _attacks(pieces: list[int], colour: int, fixed: int) -> int:
    """The squares the units of ``colour`` outside ``fixed`` (not the king) attack, sliding
    through every square outside ``fixed``."""
    base = colour << 3
    out = pawn_attacks(pieces[base | PAWN] & ~fixed, colour)
    bb = pieces[base | KNIGHT] & ~fixed
    while bb:
        low = bb & -bb
        bb ^= low
        out |= KNIGHT_ATTACKS[low.bit_length() - 1]
    queens = pieces[base | QUEEN]
    for lines, kind in ((bishop_attacks, BISHOP), (rook_attacks, ROOK)):
        bb = (pieces[base | kind] | queens) & ~fixed
        while bb:
            low = bb & -bb
            bb ^= low
            out |= lines(low.bit_length() - 1, fixed)
    return out


def _en_passant(pos: Position) -> int:
    """The pawns an en-passant capture available now could move or remove."""
    if pos.ep_square < 0:
        return 0
    ep = 1 << pos.ep_square
    return pawn_push(ep, pos.turn ^ 1) | pawn_attacks(ep, pos.turn ^ 1)


def _boxed(pieces: list[int], mine: int, colour: int) -> int:
    """``colour``'s pieces on ``mine`` whose every neighbouring move square is in ``mine``."""
    out = 0
    for kind in KINDS:
        bb = pieces[colour << 3 | kind] & mine
        steps = SQUARE_STEPS[kind]
        while bb:
            low = bb & -bb
            bb ^= low
            if not steps[low.bit_length() - 1] & ~mine:
                out |= low
    return out


def statically_unwinnable(pos: Position, winner: int) -> bool:
    """Whether the analysis proves that ``winner`` can never give checkmate."""
    found = mobility(pos)
    fixed = found.fixed
    if not fixed:
        return False
    pieces = pos.pieces
    loser = winner ^ 1
    region = found.kings[loser]
    reach = found.reach
    attack = reach[winner]
    checks = attack.checks | attack.bishop_checks
    covered = checks | found.guards[winner] | king_step(found.kings[winner]) | fixed
    blockers = reach[loser]
    locked = found.locked & pieces[loser << 3 | PAWN]
    others = blockers.pieces - locked.bit_count()
    squares = region & checks
    while squares:
        low = squares & -squares
        squares ^= low
        need = KING_ATTACKS[low.bit_length() - 1] & ~covered
        if not need & ~blockers.stand and _extra(need, locked) <= others:
            return False
    return True


def _extra(need: int, locked: int) -> int:
    """How many blockers other than the locked pawns ``locked`` the squares ``need`` ask
    for: a locked pawn blocks one square, on its own file."""
    return sum(
        max(0, (need & file).bit_count() - (locked & file).bit_count())
        for file in FILES
        if need & file
    )
