"""Where the mate happens: the squares each helpmate search drives the loser's king to
(Laws Art. 1.4.1: checkmate; the mating material decides where it can be given).

One module for the three views the searches take of it: the corner nearest the loser's king
(:func:`nearest_corner`, the quick proof search), the corner on the loser's first rank
(:func:`home_corner`, the progress search), the corners or edges a mate by the winner's
material needs (:func:`mating_targets`, the best-first estimate) and the mating squares the
loser's own pawns box its king in (:func:`mating_squares`, the guided search). All start
from :func:`bishop_colour`: bishops of one colour mate only on their own colour's corners.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from chessarbiter.core.attacks import KING_ATTACKS
from chessarbiter.core.position import Position
from chessarbiter.core.squares import (
    BISHOP,
    FILES,
    FULL,
    KNIGHT,
    PAWN,
    QUEEN,
    RANKS,
    ROOK,
    squares_of,
)
from chessarbiter.laws.deadpos.bitboards import DISTANCE
from chessarbiter.laws.deadpos.guide import WALLED, free_squares, king_distances
from chessarbiter.laws.deadpos.material import DARK_SQUARES, LIGHT_SQUARES

CORNERS: Final = (0, 7, 56, 63)
CORNER_SQUARES: Final = 1 | 1 << 7 | 1 << 56 | 1 << 63
EDGES: Final = RANKS[0] | RANKS[7] | FILES[0] | FILES[7]


def bishop_colour(bishops: int) -> int:
    """The squares of the colour of ``bishops`` when they all stand on one (a bishop mate
    happens on it), else every square."""
    if bishops and not bishops & LIGHT_SQUARES:
        return DARK_SQUARES
    if bishops and not bishops & DARK_SQUARES:
        return LIGHT_SQUARES
    return FULL


@cache
def nearest(squares: int, king: int) -> int:
    """The square of ``squares`` nearest ``king`` (king steps), the lowest among equals."""
    return min(squares_of(squares), key=DISTANCE[king].__getitem__)


_NEAREST_CORNER: Final = {
    corners: tuple(nearest(corners, king) for king in range(64))
    for corners in (CORNER_SQUARES & colour for colour in (FULL, DARK_SQUARES, LIGHT_SQUARES))
}
"""The corner of a set (all four, the dark ones, the light ones) nearest each square."""


def nearest_corner(pos: Position, winner: int) -> int:
    """The corner nearest the loser's king, of the winner's bishops' colour when they are
    all on one."""
    corners = CORNER_SQUARES & bishop_colour(pos.pieces[winner << 3 | BISHOP])
    return _NEAREST_CORNER[corners][pos.king(winner ^ 1)]


def home_corner(pos: Position, winner: int) -> int:
    """The corner on the loser's first rank of the winner's bishops' colour (the dark one
    when the winner has no bishop or bishops of both colours)."""
    light = bishop_colour(pos.pieces[winner << 3 | BISHOP]) == LIGHT_SQUARES
    corner = 56 if light else 63  # a8 or h8: the loser's first rank is the 8th
    return corner ^ 63 if winner else corner  # mirrored for Black: h1 or a1


def mating_targets(pieces: list[int], winner: int) -> int:
    """Where the winner's material can mate: any edge with a queen or rook; else, with
    bishops and no knight, the dark corners when the bishops are all dark, else the light
    ones; else the corners of the colour opposite the loser's bishops when those are all on
    one colour and the loser's only blockers (a corner's two edge flights are of the other
    colour); else every corner."""
    w = winner << 3
    if pieces[w | ROOK] | pieces[w | QUEEN]:
        return EDGES
    bishops = pieces[w | BISHOP]
    if bishops and not pieces[w | KNIGHT]:
        return CORNER_SQUARES & (LIGHT_SQUARES if bishops & LIGHT_SQUARES else DARK_SQUARES)
    lo = (winner ^ 1) << 3
    if pieces[lo | KNIGHT] | pieces[lo | ROOK] | pieces[lo | QUEEN] | pieces[lo | PAWN]:
        return CORNER_SQUARES
    return CORNER_SQUARES & (FULL ^ bishop_colour(pieces[lo | BISHOP])) or CORNER_SQUARES


def mating_squares(pos: Position, winner: int) -> tuple[int, ...]:
    """Where the loser's king may be mated, best first. Among the squares it can walk to
    (any, if none; of the colour of the winner's bishops when it mates with bishops of one
    colour and no knight), count for each the flight squares next to it that hold none of
    its pawns and that the winner's pawns do not attack: the first has the fewest, a
    corner counting one fewer and two or fewer alike, the nearest first; the second, if
    another, has the fewest outright. Without pawns: the nearest corner."""
    pieces = pos.pieces
    squares = FULL
    if not pieces[winner << 3 | KNIGHT]:
        squares = bishop_colour(pieces[winner << 3 | BISHOP])
    king = pos.king(winner ^ 1)
    if not pieces[PAWN] | pieces[8 | PAWN]:
        return (nearest(squares & CORNER_SQUARES, king),)
    walk = king_distances(pos, winner ^ 1, king)
    free = free_squares(pieces[PAWN], pieces[8 | PAWN], winner ^ 1)
    reached = [sq for sq in squares_of(squares) if walk[sq] < WALLED] or squares_of(squares)
    keys = [
        ((KING_ATTACKS[sq] & free).bit_count(), walk[sq], DISTANCE[king][sq], sq) for sq in reached
    ]
    usual = min(keys, key=lambda k: (max(2, k[0] - (k[3] in CORNERS)), *k[1:]))[3]
    fewest = min(keys)[3]
    return (usual,) if fewest == usual else (usual, fewest)
