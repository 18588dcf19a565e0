"""Static mobility analysis (Laws Art. 5.2.2, 6.9): where could each piece ever go?

A sound over-approximation in the spirit of Ambrona's semi-static analysis (FUN 2022).
First the *fixed* pawns: the largest set of pawns that, as long as all of them stand, are
each blocked by another of them, have nothing they could ever capture and can never be
captured. They never move again, so they are walls; every other piece is confined to the
squares it can reach around them (a king also avoids squares a fixed enemy pawn attacks,
and a pawn that can reach its last rank may become a queen or a knight there).

The intended winner can then checkmate only if one of its pieces can attack the square
region of the losing king. If the only such pieces are bishops of one square colour, every
square of that colour in the region is tried as a mating square: the king's other flight
squares must be covered by the winner's king or fixed pawns, or blocked by the loser's own
pieces, and there must be enough of those that can get there.
"""

from __future__ import annotations

from dataclasses import dataclass

from chessarbiter.core.attacks import KING_ATTACKS
from chessarbiter.core.position import Position
from chessarbiter.core.squares import BISHOP, FULL, KING, KNIGHT, PAWN, QUEEN, ROOK
from chessarbiter.laws.deadpos.bitboards import (
    LAST_RANKS,
    diagonal_step,
    fill,
    king_step,
    knight_step,
    orthogonal_step,
    pawn_attacks,
    pawn_fill,
    pawn_push,
)
from chessarbiter.laws.deadpos.material import DARK_SQUARES, LIGHT_SQUARES


@dataclass(frozen=True, slots=True)
class Reach:
    """What one colour's pieces could ever do, given the fixed pawns."""

    stand: int
    """Squares a piece other than the king (pawns and promoted pieces included) may reach."""
    checks: int
    """Squares a piece other than a bishop could ever attack."""
    bishop_checks: int
    """Squares a bishop (not one promoted to) could ever attack."""
    pieces: int
    """How many pieces other than the king and the fixed pawns there are."""


def fixed_pawns(pos: Position) -> int:
    """The bitboard of pawns that can never move or be captured again (see module doc)."""
    pieces = pos.pieces
    pawns = (pieces[PAWN], pieces[8 | PAWN])
    every = pawns[0] | pawns[1]
    fixed = (pawns[0] & (every >> 8)) | (pawns[1] & (every << 8))
    if pos.ep_square >= 0:
        ep = 1 << pos.ep_square
        fixed &= ~(pawn_push(ep, pos.turn ^ 1) | pawn_attacks(ep, pos.turn ^ 1))
    while fixed:
        allowed = FULL ^ fixed
        kept = 0
        for colour in (0, 1):
            them = colour ^ 1
            mine = fixed & pawns[colour]
            theirs = fixed & pawns[them]
            reach = _reach(pieces, them, allowed, fixed)
            king = _king_region(pieces, them, allowed, _pawn_walls(fixed & pawns[colour], colour))
            blocked = mine & pawn_push(fixed, them)
            prey = theirs | reach.stand
            safe = ~pawn_attacks(prey, them) & ~(reach.checks | reach.bishop_checks)
            guarded = pawn_attacks(mine, colour)
            safe &= ~(king_step(king) & ~guarded)
            kept |= blocked & safe
        if kept == fixed:
            return fixed
        fixed = kept
    return 0


def statically_unwinnable(pos: Position, winner: int) -> bool:
    """Whether the analysis proves that ``winner`` can never give checkmate."""
    fixed = fixed_pawns(pos)
    if not fixed:
        return False
    pieces = pos.pieces
    loser = winner ^ 1
    allowed = FULL ^ fixed
    own_walls = _pawn_walls(fixed & pieces[winner << 3 | PAWN], winner)
    region = _king_region(pieces, loser, allowed, own_walls)
    reach = _reach(pieces, winner, allowed, fixed)
    if not (reach.checks | reach.bishop_checks) & region:
        return True
    if reach.checks & region:
        return False
    bishops = pieces[winner << 3 | BISHOP]
    if bishops & DARK_SQUARES and bishops & LIGHT_SQUARES:
        return False
    colour = DARK_SQUARES if bishops & DARK_SQUARES else LIGHT_SQUARES
    helper = _king_region(
        pieces, winner, allowed, _pawn_walls(fixed & pieces[loser << 3 | PAWN], loser)
    )
    covered = colour | own_walls | king_step(helper) | fixed
    blockers = _reach(pieces, loser, allowed, fixed)
    squares = region & reach.bishop_checks & colour
    while squares:
        low = squares & -squares
        squares ^= low
        need = KING_ATTACKS[low.bit_length() - 1] & ~covered
        if not need & ~blockers.stand and need.bit_count() <= blockers.pieces:
            return False
    return True


def _pawn_walls(fixed_pawns_of: int, colour: int) -> int:
    """Squares an enemy king can never enter: those attacked by ``colour``'s fixed pawns."""
    return pawn_attacks(fixed_pawns_of, colour)


def _king_region(pieces: list[int], colour: int, allowed: int, walls: int) -> int:
    return fill(pieces[colour << 3 | KING], allowed & ~walls, king_step)


def _reach(pieces: list[int], colour: int, allowed: int, fixed: int) -> Reach:
    base = colour << 3
    pawns = pieces[base | PAWN] & ~fixed
    walked = pawn_fill(pawns, allowed, colour)
    crowned = walked & LAST_RANKS[colour]
    queens = fill(pieces[base | QUEEN] | crowned, allowed, king_step)
    knights = fill(pieces[base | KNIGHT] | crowned, allowed, knight_step)
    rooks = fill(pieces[base | ROOK], allowed, orthogonal_step)
    bishops = fill(pieces[base | BISHOP], allowed, diagonal_step)
    checks = (
        pawn_attacks(walked & ~crowned, colour)
        | king_step(queens)
        | knight_step(knights)
        | orthogonal_step(rooks)
    )
    count = sum(pieces[base | kind].bit_count() for kind in (KNIGHT, BISHOP, ROOK, QUEEN))
    return Reach(
        stand=walked | queens | knights | rooks | bishops,
        checks=checks,
        bishop_checks=diagonal_step(bishops),
        pieces=count + pawns.bit_count(),
    )
