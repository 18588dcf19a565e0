"""Where each colour's pieces could ever stand and attack, given walls of fixed units.

A least fixpoint over both colours at once: pieces fill every square they can step or
slide to through non-wall squares; a pawn advances onto non-wall squares but captures
only onto squares where some enemy piece other than the king could stand (or the
en-passant square, for the side to move), and a pawn that reaches its last rank adds a
queen and a knight there. Each real move is allowed by these rules, so every square a piece
ever occupies while the walls stand is in its colour's ``stand``.
"""

from __future__ import annotations

from dataclasses import dataclass

from chessarbiter.core.position import Position
from chessarbiter.core.squares import BISHOP, FULL, KNIGHT, PAWN, QUEEN, ROOK
from chessarbiter.laws.deadpos.bitboards import (
    LAST_RANKS,
    diagonal_step,
    fill,
    king_step,
    knight_step,
    orthogonal_step,
    pawn_attacks,
    pawn_fill,
)


@dataclass(frozen=True, slots=True)
class Reach:
    """What one colour's pieces other than the king and the fixed units could ever do."""

    stand: int
    """Squares such a piece (pawns and promoted pieces included) may reach."""
    checks: int
    """Squares such a piece other than a bishop could ever attack."""
    bishop_checks: int
    """Squares a bishop (not one promoted to) could ever attack."""
    pieces: int
    """How many such pieces there are."""


def reaches(pos: Position, fixed: int, locked: int, paths: tuple[int, int]) -> tuple[Reach, Reach]:
    """Both colours' :class:`Reach` while the units on ``fixed`` never move and the pawns on
    ``locked`` never leave ``paths[colour]`` (their file, ahead of them), capture or are
    captured: no enemy pawn can push past one."""
    allowed = FULL ^ fixed
    pieces = pos.pieces
    ep = 1 << pos.ep_square if pos.ep_square >= 0 else 0
    white = FULL if pos.turn == 0 else 0
    stands = [0, 0]
    while True:
        found = (
            _reach(pieces, 0, allowed, fixed | locked, paths[0], stands[1] | (ep & white)),
            _reach(pieces, 1, allowed, fixed | locked, paths[1], stands[0] | (ep & ~white)),
        )
        grown = [found[0].stand, found[1].stand]
        if grown == stands:
            return found
        stands = grown


def _reach(
    pieces: list[int], colour: int, allowed: int, fixed: int, path: int, prey: int
) -> Reach:
    base = colour << 3
    pawns = pieces[base | PAWN] & ~fixed
    barred = fixed & pieces[(colour ^ 1) << 3 | PAWN]
    walked = pawn_fill(pawns, allowed & ~barred, allowed & prey, colour) | path
    crowned = walked & LAST_RANKS[colour]
    queens = fill((pieces[base | QUEEN] & ~fixed) | crowned, allowed, king_step)
    knights = fill((pieces[base | KNIGHT] & ~fixed) | crowned, allowed, knight_step)
    rooks = fill(pieces[base | ROOK] & ~fixed, allowed, orthogonal_step)
    bishops = fill(pieces[base | BISHOP] & ~fixed, allowed, diagonal_step)
    checks = (
        pawn_attacks(walked & ~crowned, colour)
        | king_step(queens)
        | knight_step(knights)
        | orthogonal_step(rooks)
    )
    count = sum((pieces[base | kind] & ~fixed).bit_count() for kind in (KNIGHT, BISHOP, ROOK))
    count += (pieces[base | QUEEN] & ~fixed).bit_count()
    return Reach(
        stand=walked | queens | knights | rooks | bishops,
        checks=checks,
        bishop_checks=diagonal_step(bishops),
        pieces=count + (pieces[base | PAWN] & (pawns | path)).bit_count(),
    )
