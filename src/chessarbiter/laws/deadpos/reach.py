"""Where each colour's pieces could ever stand and attack, given walls of fixed units.

A least fixpoint over both colours at once: pieces fill every square they can step or
slide to through non-wall squares; a pawn advances onto non-wall squares but captures
only onto squares where some enemy piece other than the king could stand (or the
en-passant square, for the side to move), and a pawn that reaches its last rank adds a
queen and a knight there. Each real move is allowed by these rules, so every square a piece
ever occupies while the walls stand is in its colour's ``stand``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from chessarbiter.core.position import Position
from chessarbiter.core.squares import BISHOP, FULL, KING, KNIGHT, PAWN, QUEEN, ROOK
from chessarbiter.laws.deadpos.bitboards import (
    LAST_RANKS,
    diagonal_step,
    king_step,
    knight_step,
    orthogonal_step,
    pawn_attacks,
    pawn_fill,
    piece_fill,
)


class Reach(NamedTuple):
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
    captured: no enemy pawn can push past one.

    The least fixpoint is found colour after colour, each from the other's latest squares:
    every fill only grows, so each goes on from its last result, and the pieces' own fills,
    which do not depend on the other colour, are made once (a promotion square adds to the
    queens' and knights' fills: the fill of a union is the union of the fills)."""
    allowed = FULL ^ fixed
    pieces = pos.pieces
    walls = fixed | locked
    ep = 1 << pos.ep_square if pos.ep_square >= 0 else 0
    eps = (ep, 0) if pos.turn == 0 else (0, ep)
    pushes = (allowed & ~(walls & pieces[8 | PAWN]), allowed & ~(walls & pieces[PAWN]))
    walked = [pieces[PAWN] & ~walls, pieces[8 | PAWN] & ~walls]
    queens = [0, 0]
    knights = [0, 0]
    rooks = [0, 0]
    bishops = [0, 0]
    for colour in (0, 1):
        base = colour << 3
        seed = pieces[base | QUEEN] & ~fixed
        queens[colour] = piece_fill(KING, seed, allowed) if seed else 0
        seed = pieces[base | KNIGHT] & ~fixed
        knights[colour] = piece_fill(KNIGHT, seed, allowed) if seed else 0
        seed = pieces[base | ROOK] & ~fixed
        rooks[colour] = piece_fill(ROOK, seed, allowed) if seed else 0
        seed = pieces[base | BISHOP] & ~fixed
        bishops[colour] = piece_fill(BISHOP, seed, allowed) if seed else 0
    pieces_only = (queens.copy(), knights.copy())
    crowns = [0, 0]
    stands = [0, 0]
    while True:
        for colour in (0, 1):
            region = pawn_fill(
                walked[colour], pushes[colour], allowed & (stands[colour ^ 1] | eps[colour]), colour
            )
            walked[colour] = region
            region |= paths[colour]
            crowned = region & LAST_RANKS[colour]
            if crowned != crowns[colour]:
                crowns[colour] = crowned
                queen, knight = _promoted(crowned, allowed)
                queens[colour] = pieces_only[0][colour] | queen
                knights[colour] = pieces_only[1][colour] | knight
            grown = region | queens[colour] | knights[colour] | rooks[colour] | bishops[colour]
            if colour and grown == stands[1]:
                found = [walked, paths, queens, knights, rooks, bishops]
                white = _reach(pieces, 0, fixed, walls, found)
                return white, _reach(pieces, 1, fixed, walls, found)
            stands[colour] = grown


PROMOTED_KEPT: Final = 4096
"""Most fills of promotion squares remembered (:data:`_promoted_fills`)."""
_promoted_fills: dict[tuple[int, int], tuple[int, int]] = {}
"""The queens' and knights' fills from promotion squares, by those squares and the squares
allowed: behind a pawn wall they stay the same move after move. Cleared when full."""


def _promoted(crowned: int, allowed: int) -> tuple[int, int]:
    """The fills of a queen and of a knight from the squares ``crowned``."""
    key = (crowned, allowed)
    found = _promoted_fills.get(key)
    if found is None:
        found = (piece_fill(KING, crowned, allowed), piece_fill(KNIGHT, crowned, allowed))
        if len(_promoted_fills) >= PROMOTED_KEPT:
            _promoted_fills.clear()
        _promoted_fills[key] = found
    return found


def _reach(
    pieces: list[int], colour: int, fixed: int, walls: int, found: list[Sequence[int]]
) -> Reach:
    """One colour's :class:`Reach` from its fills ``found``: the pawns' (without the locked
    pawns' paths), the paths, the queens', knights', rooks' and bishops'."""
    base = colour << 3
    walked_, paths, queens, knights, rooks, bishops = found
    path = paths[colour]
    walked = walked_[colour] | path
    queen, knight, rook, bishop = queens[colour], knights[colour], rooks[colour], bishops[colour]
    crowned = walked & LAST_RANKS[colour]
    count = (
        (pieces[base | KNIGHT] & ~fixed).bit_count()
        + (pieces[base | BISHOP] & ~fixed).bit_count()
        + (pieces[base | ROOK] & ~fixed).bit_count()
        + (pieces[base | QUEEN] & ~fixed).bit_count()
    )
    return Reach(
        stand=walked | queen | knight | rook | bishop,
        checks=pawn_attacks(walked & ~crowned, colour)
        | king_step(queen)
        | knight_step(knight)
        | orthogonal_step(rook),
        bishop_checks=diagonal_step(bishop),
        pieces=count + (pieces[base | PAWN] & (~walls | path)).bit_count(),
    )
