"""The static evaluation: symmetric, sensible signs, draws by material."""

from __future__ import annotations

import pytest

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.position import Position
from chessarbiter.engines.evaluation import TEMPO, evaluate, insufficient_material
from tests.engines.helpers import random_positions


def _mirror(fen: str) -> str:
    """The colour-flipped position (ranks reversed, case swapped, side to move swapped)."""
    board, turn, castling, ep, *clocks = fen.split()
    ranks = "/".join(reversed(board.split("/"))).swapcase()
    castle = "".join(sorted(castling.swapcase(), key="KQkq".index)) if castling != "-" else "-"
    ep_sq = ep if ep == "-" else ep[0] + str(9 - int(ep[1]))
    return " ".join([ranks, "b" if turn == "w" else "w", castle, ep_sq, *clocks])


def test_the_initial_position_is_level_but_for_the_tempo() -> None:
    assert evaluate(Position()) == TEMPO


@pytest.mark.parametrize("pos", random_positions(25, seed=7), ids=lambda p: p.fen())
def test_the_mirrored_position_has_the_same_value(pos: Position) -> None:
    assert evaluate(parse_fen(_mirror(pos.fen()))) == evaluate(pos)


def test_an_extra_queen_is_good_for_its_owner_only() -> None:
    white_up = "4k3/pppppppp/8/8/8/8/PPPPPPPP/3QK3 w - - 0 1"
    assert evaluate(parse_fen(white_up)) > 800
    assert evaluate(parse_fen(white_up.replace(" w ", " b "))) < -800


@pytest.mark.parametrize("fen", [
    "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
    "8/8/4k3/8/8/3KB3/8/8 b - - 0 1",
    "8/5n2/4k3/8/8/3KB3/8/8 w - - 0 1",
])
def test_insufficient_material_is_a_dead_draw(fen: str) -> None:
    pos = parse_fen(fen)
    assert insufficient_material(pos)
    assert evaluate(pos) == 0


def test_a_pawn_is_enough_material() -> None:
    assert not insufficient_material(parse_fen("8/8/4k3/8/8/3K4/4P3/8 w - - 0 1"))


def test_the_lone_king_is_driven_to_the_edge() -> None:
    centre = parse_fen("8/8/8/4k3/8/8/8/1Q2K3 w - - 0 1")
    corner = parse_fen("7k/8/8/8/8/8/8/1Q2K3 w - - 0 1")
    assert evaluate(corner) > evaluate(centre)
