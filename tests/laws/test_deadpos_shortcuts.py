"""The shortcuts that make the static analysis and the pawn-structure exploration cheaper
give the answers of the plain computations they replace."""

from __future__ import annotations

import random

import chess
import pytest

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.position import Position
from chessarbiter.laws.deadpos import static
from chessarbiter.laws.deadpos.bitboards import (
    Step,
    diagonal_step,
    fill,
    king_step,
    knight_step,
    orthogonal_step,
)
from chessarbiter.laws.deadpos.phases import _mates_at_root
from chessarbiter.laws.deadpos.static import mobility, statically_unwinnable
from tests.laws.corpus_lines import labelled_positions

STEPS = (king_step, knight_step, orthogonal_step, diagonal_step)


def _board(rng: random.Random, density: int) -> int:
    out = rng.getrandbits(64)
    for _ in range(density):
        out &= rng.getrandbits(64)
    return out


def test_king_step_is_a_rook_step_or_a_bishop_step() -> None:
    rng = random.Random(11)
    for _ in range(2000):
        b = _board(rng, rng.randrange(4))
        assert king_step(b) == orthogonal_step(b) | diagonal_step(b)


@pytest.mark.parametrize("step", STEPS)
def test_a_fill_is_the_union_of_its_squares_fills_and_goes_on_from_a_part(step: Step) -> None:
    rng = random.Random(5)
    for _ in range(300):
        allowed = ~_board(rng, 1)
        seed = _board(rng, 4)
        whole = fill(seed, allowed, step)
        parts = 0
        bb = seed
        while bb:
            low = bb & -bb
            bb ^= low
            parts |= fill(low, allowed, step)
        assert whole == parts
        # from a part of the fill with more squares allowed: the fill with those squares
        wider = allowed | _board(rng, 3)
        assert fill(whole, wider, step) == fill(seed, wider, step)


def test_the_remembered_mobility_is_that_of_the_position_asked() -> None:
    pos = parse_fen("8/2k5/pp4p1/1PK4p/7P/P5P1/8/8 w - - 0 44")
    before = mobility(pos)
    assert mobility(pos) is before
    for move in pos.legal_moves():
        pos.push(move)
        after = mobility(pos)
        static._last.clear()
        assert mobility(Position(pos.fen())) == after
        for side in (0, 1):
            fresh = Position(pos.fen())
            static._last.clear()
            assert statically_unwinnable(pos, side) == statically_unwinnable(fresh, side)
        pos.pop()


def test_the_mate_in_one_at_the_root_plays_every_checking_move() -> None:
    checked = 0
    for name in ("chasolver-positions.txt", "d3chess-test-vector.txt"):
        for _, pos in labelled_positions(name, every=7):
            board = chess.Board(pos.fen())
            for winner in (0, 1):
                if pos.turn != winner:
                    expected = board.is_checkmate()
                else:
                    expected = False
                    for move in board.legal_moves:
                        board.push(move)
                        expected = expected or board.is_checkmate()
                        board.pop()
                checked += expected
                assert _mates_at_root(pos, winner) == expected, (pos.fen(), winner)
    assert checked > 10
