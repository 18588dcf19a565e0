"""The static mobility analysis: blocked pawn walls, boxed pieces and facing pawns are
proved, open positions are not."""

from __future__ import annotations

import pytest

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.squares import FILES, RANKS
from chessarbiter.laws.deadpos.static import (
    _candidates,
    _unattacked,
    fixed_units,
    mobility,
    statically_unwinnable,
)

WALL = "8/4k3/8/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 1"


def test_pawn_wall_is_dead_for_both() -> None:
    pos = parse_fen(WALL)
    assert fixed_units(pos) == pos.pieces[1] | pos.pieces[9]
    assert statically_unwinnable(pos, 0)
    assert statically_unwinnable(pos, 1)


def test_a_gap_in_the_wall_frees_the_kings() -> None:
    pos = parse_fen("8/4k3/8/p1p3p1/P1P3P1/8/4K3/8 w - - 0 1")
    assert not statically_unwinnable(pos, 0)


@pytest.mark.parametrize(
    "fen",
    [
        "8/4k3/8/p1p1p1p1/P1P1P1P1/8/4K3/4N3 w - - 0 1",
        "8/4k3/8/p1p1p1p1/P1P1P1P1/8/4K3/2B5 w - - 0 1",
    ],
)
def test_a_piece_that_can_cross_the_wall_is_not_proved(fen: str) -> None:
    assert not statically_unwinnable(parse_fen(fen), 0)


@pytest.mark.parametrize(
    ("fen", "left"),
    [
        (WALL, 0x5555000000),  # a closed wall: nothing attacks it
        ("8/4k3/8/p1p3p1/P1P3P1/8/4K3/8 w - - 0 1", 0),  # the kings walk through the gap
        ("8/4k3/8/p1p1p1p1/P1P1P1P1/8/4K3/2B5 w - - 0 1", 0),  # Bc1 slides to the g5 pawn
        ("8/4k3/8/p1p1p1p1/P1P1P1P1/8/4K3/4N3 w - - 0 1", 0x5555000000),  # the knight must walk
    ],
)
def test_units_surely_attacked_are_dropped_before_the_reach(fen: str, left: int) -> None:
    pos = parse_fen(fen)
    units = (pos.occupied_co[0] & ~pos.pieces[6], pos.occupied_co[1] & ~pos.pieces[14])
    kings = [pos.pieces[6], pos.pieces[14]]
    assert _unattacked(pos, units, _candidates(pos, units), kings) == left
    assert fixed_units(pos) & ~left == 0


def test_en_passant_pawns_are_not_fixed() -> None:
    pos = parse_fen("8/4k3/8/pPp1p1p1/2P1P1P1/8/4K3/8 w - a6 0 2")
    assert not fixed_units(pos) & (1 << 32 | 1 << 33)


def test_facing_pawns_on_open_files_are_locked() -> None:
    pos = parse_fen("1k6/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/4K3 w - - 0 1")
    found = mobility(pos)
    assert found.locked & pos.pieces[1] == pos.pieces[1] & RANKS[1]
    assert not found.reach[0].stand & FILES[1]
    assert statically_unwinnable(pos, 0)


def test_a_king_that_can_take_a_facing_pawn_unlocks_it() -> None:
    pos = parse_fen("1k6/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/4K3 w - - 0 1")
    assert not mobility(pos).locked & pos.pieces[9] & RANKS[4]


def test_boxed_pieces_are_walls() -> None:
    pos = parse_fen("k4bBN/4pPp1/3pP1Pp/2pP3P/BpP5/1P6/K7/8 b - - 0 1")
    boxed = 1 << 61 | 1 << 63
    assert fixed_units(pos) & boxed == boxed
    assert statically_unwinnable(pos, 0)
    assert statically_unwinnable(pos, 1)


def test_a_locked_pawn_blocks_only_on_its_own_file() -> None:
    # a pawn mate on h3 needs g2, g3 and g4 blocked, and only the g-pawn can stand there
    pos = parse_fen("1k6/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/4K3 w - - 0 1")
    assert statically_unwinnable(pos, 1)
    assert not statically_unwinnable(parse_fen("1k6/8/8/p1p1p1p1/8/8/P1P1P1P1/4K3 w - - 0 1"), 1)
