"""The bitboard helpers the hot paths use, against plain definitions: the line-indexed
sliding attacks against walking the rays, ``popcount`` against ``int.bit_count``."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from chessarbiter.core.attacks import bishop_attacks, rook_attacks
from chessarbiter.core.squares import popcount

BITBOARDS = st.integers(min_value=0, max_value=(1 << 64) - 1)
SQUARES = st.integers(min_value=0, max_value=63)


def _walk(sq: int, occupied: int, dirs: tuple[tuple[int, int], ...]) -> int:
    """The squares reached from ``sq`` along ``dirs``, each ray stopping at a piece."""
    reached = 0
    for df, dr in dirs:
        f, r = sq % 8 + df, sq // 8 + dr
        while 0 <= f < 8 and 0 <= r < 8:
            reached |= 1 << (r * 8 + f)
            if occupied >> (r * 8 + f) & 1:
                break
            f, r = f + df, r + dr
    return reached


@given(SQUARES, BITBOARDS, BITBOARDS)
def test_sliding_attacks_stop_at_the_first_piece(sq: int, a: int, b: int) -> None:
    occupied = a & b  # about a quarter of the squares occupied
    assert rook_attacks(sq, occupied) == _walk(sq, occupied, ((1, 0), (-1, 0), (0, 1), (0, -1)))
    assert bishop_attacks(sq, occupied) == _walk(
        sq, occupied, ((1, 1), (1, -1), (-1, 1), (-1, -1)))
    assert rook_attacks(sq, a) == _walk(sq, a, ((1, 0), (-1, 0), (0, 1), (0, -1)))
    assert bishop_attacks(sq, a) == _walk(sq, a, ((1, 1), (1, -1), (-1, 1), (-1, -1)))


@given(BITBOARDS)
def test_popcount_counts_the_squares(bb: int) -> None:
    assert popcount(bb) == bb.bit_count()
    assert popcount(bb | 3 << 62) == (bb | 3 << 62).bit_count()
