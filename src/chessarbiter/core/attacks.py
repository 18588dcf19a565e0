"""Attack tables (Laws Art. 3.2-3.8): which squares each piece attacks from each square.

Sliding pieces use the classical lookup: for each square, a table keyed by the occupied
squares of a line (edges excluded) gives the attacked squares along that line.
"""

from __future__ import annotations

from typing import Final

_KNIGHT_STEPS: Final = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
_KING_STEPS: Final = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
_ROOK_DIRS: Final = ((1, 0), (-1, 0), (0, 1), (0, -1))
_BISHOP_DIRS: Final = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < 8 and 0 <= rank < 8


def _steps(sq: int, steps: tuple[tuple[int, int], ...]) -> int:
    bb = 0
    for df, dr in steps:
        f, r = sq % 8 + df, sq // 8 + dr
        if _on_board(f, r):
            bb |= 1 << (r * 8 + f)
    return bb


def _slide(sq: int, dirs: tuple[tuple[int, int], ...], occupied: int) -> int:
    bb = 0
    for df, dr in dirs:
        f, r = sq % 8 + df, sq // 8 + dr
        while _on_board(f, r):
            bit = 1 << (r * 8 + f)
            bb |= bit
            if occupied & bit:
                break
            f, r = f + df, r + dr
    return bb


def _inner(sq: int, dirs: tuple[tuple[int, int], ...]) -> int:
    """The squares along the rays whose occupancy matters (the last square of each ray left out)."""
    bb = 0
    for df, dr in dirs:
        f, r = sq % 8 + df, sq // 8 + dr
        while _on_board(f + df, r + dr):
            bb |= 1 << (r * 8 + f)
            f, r = f + df, r + dr
    return bb


def _table(
    dirs: tuple[tuple[int, int], ...],
) -> tuple[tuple[int, ...], tuple[dict[int, int], ...]]:
    masks = []
    tables = []
    for sq in range(64):
        mask = _inner(sq, dirs)
        table = {}
        subset = 0
        while True:  # every subset of the mask (carry-rippler enumeration)
            table[subset] = _slide(sq, dirs, subset)
            subset = (subset - mask) & mask
            if not subset:
                break
        masks.append(mask)
        tables.append(table)
    return tuple(masks), tuple(tables)


KNIGHT_ATTACKS: Final = tuple(_steps(sq, _KNIGHT_STEPS) for sq in range(64))
KING_ATTACKS: Final = tuple(_steps(sq, _KING_STEPS) for sq in range(64))
PAWN_ATTACKS: Final = (
    tuple(_steps(sq, ((-1, 1), (1, 1))) for sq in range(64)),
    tuple(_steps(sq, ((-1, -1), (1, -1))) for sq in range(64)),
)
"""``PAWN_ATTACKS[colour][sq]``: the squares a pawn of that colour on ``sq`` attacks."""

RANK_MASKS, RANK_ATTACKS = _table(((1, 0), (-1, 0)))
FILE_MASKS, FILE_ATTACKS = _table(((0, 1), (0, -1)))
DIAG_MASKS, DIAG_ATTACKS = _table(_BISHOP_DIRS)

ROOK_RAYS: Final = tuple(_slide(sq, _ROOK_DIRS, 0) for sq in range(64))
BISHOP_RAYS: Final = tuple(_slide(sq, _BISHOP_DIRS, 0) for sq in range(64))


def rook_attacks(sq: int, occupied: int) -> int:
    """Squares a rook on ``sq`` attacks (Art. 3.3), given the occupied squares."""
    return RANK_ATTACKS[sq][occupied & RANK_MASKS[sq]] | FILE_ATTACKS[sq][occupied & FILE_MASKS[sq]]


def bishop_attacks(sq: int, occupied: int) -> int:
    """Squares a bishop on ``sq`` attacks (Art. 3.2), given the occupied squares."""
    return DIAG_ATTACKS[sq][occupied & DIAG_MASKS[sq]]


def _lines() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    between = [[0] * 64 for _ in range(64)]
    line = [[0] * 64 for _ in range(64)]
    for a in range(64):
        for dirs in (_ROOK_DIRS, _BISHOP_DIRS):
            for d in dirs:
                ray = _slide(a, (d,), 0)
                back = _slide(a, ((-d[0], -d[1]),), 0)
                path = 0
                f, r = a % 8 + d[0], a // 8 + d[1]
                while _on_board(f, r):
                    b = r * 8 + f
                    between[a][b] = path
                    line[a][b] = ray | back | (1 << a)
                    path |= 1 << b
                    f, r = f + d[0], r + d[1]
    return tuple(map(tuple, between)), tuple(map(tuple, line))


BETWEEN, LINE = _lines()
"""``BETWEEN[a][b]``: squares strictly between two aligned squares (else 0);
``LINE[a][b]``: the whole line through both (else 0)."""


def attackers(
    pieces: list[int], colour: int, sq: int, occupied: int
) -> int:
    """The pieces of ``colour`` that attack ``sq``, given per-piece bitboards (Art. 3.1)."""
    base = colour << 3
    queens = pieces[base | 5]
    return (
        (KNIGHT_ATTACKS[sq] & pieces[base | 2])
        | (KING_ATTACKS[sq] & pieces[base | 6])
        | (PAWN_ATTACKS[colour ^ 1][sq] & pieces[base | 1])
        | (rook_attacks(sq, occupied) & (pieces[base | 4] | queens))
        | (bishop_attacks(sq, occupied) & (pieces[base | 3] | queens))
    )


__all__ = [
    "BETWEEN",
    "BISHOP_RAYS",
    "KING_ATTACKS",
    "KNIGHT_ATTACKS",
    "LINE",
    "PAWN_ATTACKS",
    "ROOK_RAYS",
    "attackers",
    "bishop_attacks",
    "rook_attacks",
]
