"""Attack tables (Laws Art. 3.2-3.8): which squares each piece attacks from each square.

Sliding pieces look up each line (rank, file, two diagonals) in a table indexed by the
square and a number 0-63 folded from the occupancy of the line's inner squares.
"""

from __future__ import annotations

from collections.abc import Callable
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


_INNER_FILE: Final = 0x010101010101
"""The six inner squares of the a-file (a2-a7), shifted down to start at bit 0."""


def _rank_index(sq: int, occupied: int) -> int:
    """The occupancy of the rank's six inner squares (files b-g) as a number 0-63."""
    return (occupied >> ((sq & 56) | 1)) & 63


def _file_index(sq: int, occupied: int) -> int:
    """The occupancy of the file's six inner squares (ranks 2-7) as a number 0-63: the
    bits eight apart are folded together (bit ``8k`` lands on bit ``k``)."""
    bits = (occupied >> ((sq & 7) + 8)) & _INNER_FILE
    bits |= bits >> 7
    bits |= bits >> 14
    bits |= bits >> 28
    return bits & 63


def _diagonal_index(line: int, occupied: int) -> int:
    """The occupancy of a diagonal's squares off the edge files as a number 0-63: a
    diagonal holds one square per file, so folding the ranks onto one another keeps it."""
    bits = occupied & line
    bits |= bits >> 32
    bits |= bits >> 16
    bits |= bits >> 8
    return (bits >> 1) & 63


def _line_table(sq: int, dirs: tuple[tuple[int, int], ...], line_squares: list[int]) -> list[int]:
    """The squares attacked along ``dirs`` from ``sq`` for each of the 64 occupancies of
    ``line_squares`` (the line's inner squares in index bit order; -1 for a bit that names
    no square of the line)."""
    table = []
    for index in range(64):
        occupied = 0
        for bit, target in enumerate(line_squares):
            if index >> bit & 1 and target >= 0:
                occupied |= 1 << target
        table.append(_slide(sq, dirs, occupied))
    return table


def _diagonal(sq: int, rise: int) -> list[int]:
    """The squares on files b-g of the diagonal through ``sq`` rising ``rise`` ranks per
    file (1 or -1), -1 for a file it does not reach."""
    squares = []
    for file in range(1, 7):
        rank = sq // 8 + (file - sq % 8) * rise
        squares.append(rank * 8 + file if _on_board(file, rank) else -1)
    return squares


def _table(dirs: tuple[tuple[int, int], ...], line: Callable[[int], list[int]]) -> tuple[int, ...]:
    """``table[sq << 6 | index]``: the squares attacked along ``dirs`` from ``sq`` when the
    squares ``line(sq)`` have the occupancy ``index``."""
    return tuple(a for sq in range(64) for a in _line_table(sq, dirs, line(sq)))


def _bits(squares: list[int]) -> int:
    return sum(1 << sq for sq in squares if sq >= 0)


KNIGHT_ATTACKS: Final = tuple(_steps(sq, _KNIGHT_STEPS) for sq in range(64))
KING_ATTACKS: Final = tuple(_steps(sq, _KING_STEPS) for sq in range(64))
PAWN_ATTACKS: Final = (
    tuple(_steps(sq, ((-1, 1), (1, 1))) for sq in range(64)),
    tuple(_steps(sq, ((-1, -1), (1, -1))) for sq in range(64)),
)
"""``PAWN_ATTACKS[colour][sq]``: the squares a pawn of that colour on ``sq`` attacks."""

_RANK: Final = _table(((1, 0), (-1, 0)), lambda sq: [(sq & 56) | f for f in range(1, 7)])
_FILE: Final = _table(((0, 1), (0, -1)), lambda sq: [r * 8 + (sq & 7) for r in range(1, 7)])
_DIAG: Final = _table(((1, 1), (-1, -1)), lambda sq: _diagonal(sq, 1))
_ANTI: Final = _table(((1, -1), (-1, 1)), lambda sq: _diagonal(sq, -1))
"""``_RANK[sq << 6 | index]`` (likewise the file, the a1-h8 and the h1-a8 diagonal): the
squares attacked along that line from ``sq`` when the occupancy of its inner squares has
that index. Tuples indexed by a number computed from the occupancy: faster than dicts keyed
by the occupancy itself."""
_DIAG_LINES: Final = tuple(_bits(_diagonal(sq, 1)) for sq in range(64))
_ANTI_LINES: Final = tuple(_bits(_diagonal(sq, -1)) for sq in range(64))
"""The diagonals' squares off the edge files, per square."""

ROOK_RAYS: Final = tuple(_slide(sq, _ROOK_DIRS, 0) for sq in range(64))
BISHOP_RAYS: Final = tuple(_slide(sq, _BISHOP_DIRS, 0) for sq in range(64))


def rook_attacks(sq: int, occupied: int) -> int:
    """Squares a rook on ``sq`` attacks (Art. 3.3), given the occupied squares."""
    base = sq << 6
    return _RANK[base | _rank_index(sq, occupied)] | _FILE[base | _file_index(sq, occupied)]


def bishop_attacks(sq: int, occupied: int) -> int:
    """Squares a bishop on ``sq`` attacks (Art. 3.2), given the occupied squares."""
    base = sq << 6
    return (_DIAG[base | _diagonal_index(_DIAG_LINES[sq], occupied)]
            | _ANTI[base | _diagonal_index(_ANTI_LINES[sq], occupied)])


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
    orth = pieces[base | 4] | queens
    diag = pieces[base | 3] | queens
    out = (
        (KNIGHT_ATTACKS[sq] & pieces[base | 2])
        | (KING_ATTACKS[sq] & pieces[base | 6])
        | (PAWN_ATTACKS[colour ^ 1][sq] & pieces[base | 1])
    )
    if orth:  # the line pieces' attacks only looked up when there are such pieces
        out |= rook_attacks(sq, occupied) & orth
    if diag:
        out |= bishop_attacks(sq, occupied) & diag
    return out


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
