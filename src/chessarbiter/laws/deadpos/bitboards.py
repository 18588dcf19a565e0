"""Whole-board bitboard steps and fills: where a set of pieces could go in one move, or ever
(through squares that are not walls), used by the static mobility analysis."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from chessarbiter.core.squares import BISHOP, FILES, FULL, KING, KNIGHT, QUEEN, RANKS, ROOK

NOT_A: Final = ~FILES[0]
NOT_H: Final = ~FILES[7]
NOT_AB: Final = ~(FILES[0] | FILES[1])
NOT_GH: Final = ~(FILES[6] | FILES[7])
"""Every square but those of the a-file (b-h, a-f, ...), as negative numbers: ``board & mask``
is the board without them, and compiled code keeps the mask unboxed (mypyc's integers are
native below 2^62 in magnitude; ``FULL ^ FILES[0]``, with g8 and h8, is a heap object at
each operation). Masks are applied before a shift, never after one."""
LAST_RANKS: Final = (RANKS[7], RANKS[0])
"""``LAST_RANKS[colour]``: the rank where that colour's pawns promote."""

Step = Callable[[int], int]


HALF: Final = 0xFFFFFFFF
"""A half board: ranks 1 to 4 (``lo``), or 5 to 8 shifted down (``hi``). The steps and
fills work on the two halves: compiled code keeps a half unboxed where it boxes a whole
board with g8 or h8 (mypyc's integers are native below 2^62)."""
NA: Final = NOT_A & HALF
NH: Final = NOT_H & HALF
NAB: Final = NOT_AB & HALF
NGH: Final = NOT_GH & HALF


def _half_step(kind: int, lo: int, hi: int) -> tuple[int, int]:
    """The squares one step of a piece of ``kind`` away from the board ``lo``, ``hi``, as
    its two halves (a queen's step is a king's)."""
    if kind == KNIGHT:
        return (
            (((lo << 17) | (lo >> 15) | (hi << 17)) & NA)
            | (((lo << 15) | (lo >> 17) | (hi << 15)) & NH)
            | (((lo << 10) | (lo >> 6) | (hi << 26)) & NAB)
            | (((lo << 6) | (lo >> 10) | (hi << 22)) & NGH)
        ), (
            (((hi << 17) | (hi >> 15) | (lo >> 15)) & NA)
            | (((hi << 15) | (hi >> 17) | (lo >> 17)) & NH)
            | (((hi << 10) | (hi >> 6) | (lo >> 22)) & NAB)
            | (((hi << 6) | (hi >> 10) | (lo >> 26)) & NGH)
        )
    if kind == BISHOP:
        return (
            (((lo << 9) | (lo >> 7) | (hi << 25)) & NA)
            | (((lo << 7) | (lo >> 9) | (hi << 23)) & NH)
        ), (
            (((hi << 9) | (hi >> 7) | (lo >> 23)) & NA)
            | (((hi << 7) | (hi >> 9) | (lo >> 25)) & NH)
        )
    slo = ((lo << 1) & NA) | ((lo >> 1) & NH)
    shi = ((hi << 1) & NA) | ((hi >> 1) & NH)
    if kind == ROOK:
        return (
            slo | (((lo << 8) | (lo >> 8) | (hi << 24)) & HALF),
            shi | (((hi << 8) | (hi >> 8) | (lo >> 24)) & HALF),
        )
    rlo, rhi = slo | lo, shi | hi
    return (
        slo | (((rlo << 8) | (rlo >> 8) | (rhi << 24)) & HALF),
        shi | (((rhi << 8) | (rhi >> 8) | (rlo >> 24)) & HALF),
    )


def piece_step(kind: int, b: int) -> int:
    """Squares one step of a piece of ``kind`` away from the pieces on ``b``: the squares
    next to them that they move to or attack (a queen's are a king's)."""
    lo, hi = _half_step(kind, b & HALF, b >> 32 & HALF)
    return hi << 32 | lo


SQUARE_STEPS: Final = tuple(
    tuple(piece_step(kind, 1 << sq) for sq in range(64)) for kind in range(KING + 1)
)
"""``SQUARE_STEPS[kind][sq]``: :func:`piece_step` of one piece (knight to king; the rows
below are unused), looked up."""


def orthogonal_step(b: int) -> int:
    """Squares one rook step away."""
    return piece_step(ROOK, b)


def diagonal_step(b: int) -> int:
    """Squares one bishop step away."""
    return piece_step(BISHOP, b)


def king_step(b: int) -> int:
    """Squares one king step away."""
    return piece_step(KING, b)


def knight_step(b: int) -> int:
    """Squares one knight jump away."""
    return piece_step(KNIGHT, b)


STEPS: Final[dict[int, Step]] = {
    KNIGHT: knight_step,
    BISHOP: diagonal_step,
    ROOK: orthogonal_step,
    QUEEN: king_step,
    KING: king_step,
}
"""Each piece kind's step as a function, for the callers that pass one (in compiled code
:func:`piece_step` is the direct call)."""


def pawn_attacks(b: int, colour: int) -> int:
    """Squares the pawns of ``colour`` on ``b`` attack (on the two halves)."""
    lo, hi = b & HALF, b >> 32 & HALF
    west, east = lo & NA, lo & NH
    if colour == 0:
        up = ((hi & NA) << 7) | ((hi & NH) << 9) | (west >> 25) | (east >> 23)
        return (up & HALF) << 32 | (((west << 7) | (east << 9)) & HALF)
    down = (west >> 9) | (east >> 7) | (((hi & NA) << 23) | ((hi & NH) << 25)) & HALF
    return ((hi & NA) >> 9 | (hi & NH) >> 7) << 32 | down


def pawn_push(b: int, colour: int) -> int:
    """Squares one step ahead of the pawns of ``colour`` on ``b`` (on the two halves)."""
    lo, hi = b & HALF, b >> 32 & HALF
    if colour == 0:
        return (((hi << 8) | (lo >> 24)) & HALF) << 32 | ((lo << 8) & HALF)
    return (hi >> 8) << 32 | (lo >> 8) | ((hi << 24) & HALF)


def pawns_blocked(white: int, black: int) -> int:
    """The pawns with a pawn (of either colour) on the square in front of them, which they
    cannot step to (Art. 3.7.1): the pawn walls a structural proof needs."""
    pawns = white | black
    return white & (pawns >> 8) | black & (pawns << 8)


def fill(seed: int, allowed: int, step: Step) -> int:
    """Every square reachable from ``seed`` by repeated steps onto ``allowed`` squares (the
    steps of the four kinds on the two halves, see :func:`piece_fill`)."""
    for kind in (KING, ROOK, BISHOP, KNIGHT):
        if step is STEPS[kind]:
            return piece_fill(kind, seed, allowed)
    region = seed
    allowed &= FULL
    while True:
        grown = region | (step(region) & allowed)
        if grown == region:
            return region
        region = grown


def piece_fill(kind: int, seed: int, allowed: int) -> int:
    """:func:`fill` with the steps of a piece of ``kind``, on the two halves of the board
    (:data:`HALF`) without a whole board made at each step: these fills run in the per-move
    proof and the quick mode."""
    lo, hi = seed & HALF, seed >> 32 & HALF
    alo, ahi = allowed & HALF, allowed >> 32 & HALF
    while True:
        slo, shi = _half_step(kind, lo, hi)
        glo, ghi = lo | (slo & alo), hi | (shi & ahi)
        if glo == lo and ghi == hi:
            return hi << 32 | lo
        lo, hi = glo, ghi


def pawn_fill(seed: int, allowed: int, prey: int, colour: int) -> int:
    """Every square pawns of ``colour`` could reach by pushes onto ``allowed`` squares and
    captures onto ``prey`` squares."""
    region = seed
    allowed &= FULL
    prey &= FULL
    if colour == 0:
        while True:
            grown = (
                region
                | ((region << 8) & allowed)
                | ((((region & NOT_A) << 7) | ((region & NOT_H) << 9)) & prey)
            )
            if grown == region:
                return region
            region = grown
    while True:
        grown = region | ((region >> 8) & allowed) | (
            (((region & NOT_A) >> 9) | ((region & NOT_H) >> 7)) & prey
        )
        if grown == region:
            return region
        region = grown


DISTANCE: Final = tuple(
    tuple(max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3))) for b in range(64))
    for a in range(64)
)
"""``DISTANCE[a][b]``: king steps between two squares."""


def _knight_distances() -> tuple[tuple[int, ...], ...]:
    rows = []
    for a in range(64):
        row = [0] * 64
        seen = frontier = 1 << a
        d = 0
        while frontier:
            for b in range(64):
                if frontier >> b & 1:
                    row[b] = d
            frontier = knight_step(frontier) & ~seen & FULL
            seen |= frontier
            d += 1
        rows.append(tuple(row))
    return tuple(rows)


KNIGHT_DISTANCE: Final = _knight_distances()
"""``KNIGHT_DISTANCE[a][b]``: knight jumps between two squares on an empty board."""
