"""Whole-board bitboard steps and fills: where a set of pieces could go in one move, or ever
(through squares that are not walls), used by the static mobility analysis."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from chessarbiter.core.squares import FILES, FULL, RANKS

NOT_A: Final = FULL ^ FILES[0]
NOT_H: Final = FULL ^ FILES[7]
NOT_AB: Final = NOT_A & (FULL ^ FILES[1])
NOT_GH: Final = NOT_H & (FULL ^ FILES[6])
LAST_RANKS: Final = (RANKS[7], RANKS[0])
"""``LAST_RANKS[colour]``: the rank where that colour's pawns promote."""

Step = Callable[[int], int]


def orthogonal_step(b: int) -> int:
    """Squares one rook step away."""
    return ((b << 8) & FULL) | (b >> 8) | ((b << 1) & NOT_A) | ((b >> 1) & NOT_H)


def diagonal_step(b: int) -> int:
    """Squares one bishop step away."""
    return ((((b << 9) | (b >> 7)) & NOT_A) | (((b << 7) | (b >> 9)) & NOT_H)) & FULL


def king_step(b: int) -> int:
    """Squares one king step away."""
    side = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H)
    row = side | b
    return (side | (row << 8) | (row >> 8)) & FULL


def knight_step(b: int) -> int:
    """Squares one knight jump away."""
    return (
        (((b << 17) | (b >> 15)) & NOT_A)
        | (((b << 15) | (b >> 17)) & NOT_H)
        | (((b << 10) | (b >> 6)) & NOT_AB)
        | (((b << 6) | (b >> 10)) & NOT_GH)
    ) & FULL


def pawn_attacks(b: int, colour: int) -> int:
    """Squares the pawns of ``colour`` on ``b`` attack."""
    if colour == 0:
        return (((b & NOT_A) << 7) | ((b & NOT_H) << 9)) & FULL
    return ((b & NOT_A) >> 9) | ((b & NOT_H) >> 7)


def pawn_push(b: int, colour: int) -> int:
    """Squares one step ahead of the pawns of ``colour`` on ``b``."""
    return (b << 8) & FULL if colour == 0 else b >> 8


def pawns_blocked(white: int, black: int) -> int:
    """The pawns with a pawn (of either colour) on the square in front of them, which they
    cannot step to (Art. 3.7.1): the pawn walls a structural proof needs."""
    pawns = white | black
    return white & (pawns >> 8) | black & (pawns << 8)


def fill(seed: int, allowed: int, step: Step) -> int:
    """Every square reachable from ``seed`` by repeated steps onto ``allowed`` squares.

    The steps of the four kinds are written out here: these fills run in the per-move proof,
    where a call per step would cost more than the step."""
    region = seed
    allowed &= FULL
    if step is king_step:
        while True:
            row = region | ((region << 1) & NOT_A) | ((region >> 1) & NOT_H)
            grown = region | ((row | (row << 8) | (row >> 8)) & allowed)
            if grown == region:
                return region
            region = grown
    if step is orthogonal_step:
        while True:
            grown = region | (
                ((region << 8) | (region >> 8) | ((region << 1) & NOT_A) | ((region >> 1) & NOT_H))
                & allowed
            )
            if grown == region:
                return region
            region = grown
    if step is diagonal_step:
        while True:
            grown = region | (
                (
                    (((region << 9) | (region >> 7)) & NOT_A)
                    | (((region << 7) | (region >> 9)) & NOT_H)
                )
                & allowed
            )
            if grown == region:
                return region
            region = grown
    if step is knight_step:
        while True:
            grown = region | (
                (
                    (((region << 17) | (region >> 15)) & NOT_A)
                    | (((region << 15) | (region >> 17)) & NOT_H)
                    | (((region << 10) | (region >> 6)) & NOT_AB)
                    | (((region << 6) | (region >> 10)) & NOT_GH)
                )
                & allowed
            )
            if grown == region:
                return region
            region = grown
    while True:
        grown = region | (step(region) & allowed)
        if grown == region:
            return region
        region = grown


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
