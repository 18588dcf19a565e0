"""The shortcuts that make the static analysis and the pawn-structure exploration cheaper
give the answers of the plain computations they replace."""

from __future__ import annotations

import random

import chess
import pytest

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.position import Position
from chessarbiter.core.squares import BISHOP, KING, KNIGHT, QUEEN, ROOK
from chessarbiter.laws.deadpos import static
from chessarbiter.laws.deadpos.bitboards import (
    Step,
    diagonal_step,
    fill,
    king_step,
    knight_step,
    orthogonal_step,
    pawn_attacks,
    pawn_push,
    piece_fill,
    piece_step,
)
from chessarbiter.laws.deadpos.forced import unforced
from chessarbiter.laws.deadpos.phases import _mates_at_root
from chessarbiter.laws.deadpos.static import mobility, statically_unwinnable
from tests.laws.corpus_lines import labelled_positions

STEPS = (king_step, knight_step, orthogonal_step, diagonal_step)
KIND_STEPS = (
    (KNIGHT, knight_step),
    (BISHOP, diagonal_step),
    (ROOK, orthogonal_step),
    (QUEEN, king_step),
    (KING, king_step),
)


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


def test_the_two_move_test_counts_as_the_legal_moves_do() -> None:
    """``unforced`` (king steps, then the moves of units not pinned out of check) answers
    as a count of the legal moves would, along random games from corpus lines."""
    rng = random.Random(19)
    counted = {False: 0, True: 0}
    for name in ("chasolver-positions.txt", "d3chess-test-vector.txt"):
        for _, pos in labelled_positions(name, every=5):
            board = chess.Board(pos.fen())
            for _ in range(8):
                expected = board.legal_moves.count() > 1
                counted[expected] += 1
                assert unforced(parse_fen(board.fen())) == expected, board.fen()
                if board.is_game_over():
                    break
                board.push(rng.choice(list(board.legal_moves)))
    assert min(counted.values()) > 50


@pytest.mark.parametrize("step", STEPS)
def test_a_fill_on_half_boards_is_the_fill_step_by_step(step: Step) -> None:
    rng = random.Random(7)
    for _ in range(1000):
        allowed = ~_board(rng, rng.randrange(3))
        region = seed = _board(rng, rng.randrange(2, 6))
        while True:
            grown = region | (step(region) & allowed & ((1 << 64) - 1))
            if grown == region:
                break
            region = grown
        assert fill(seed, allowed, step) == region


def test_the_steps_on_half_boards_are_the_whole_board_shifts() -> None:
    full = (1 << 64) - 1
    not_a = full ^ 0x0101010101010101
    not_h = full ^ 0x8080808080808080
    not_ab = not_a & (full ^ 0x0202020202020202)
    not_gh = not_h & (full ^ 0x4040404040404040)
    rng = random.Random(13)
    for _ in range(2000):
        b = _board(rng, rng.randrange(4))
        side = ((b << 1) & not_a) | ((b >> 1) & not_h)
        assert king_step(b) == (side | ((side | b) << 8) | ((side | b) >> 8)) & full
        assert orthogonal_step(b) == ((b << 8) & full) | (b >> 8) | side
        assert diagonal_step(b) == (
            (((b << 9) | (b >> 7)) & not_a) | (((b << 7) | (b >> 9)) & not_h)
        ) & full
        assert knight_step(b) == (
            (((b << 17) | (b >> 15)) & not_a)
            | (((b << 15) | (b >> 17)) & not_h)
            | (((b << 10) | (b >> 6)) & not_ab)
            | (((b << 6) | (b >> 10)) & not_gh)
        ) & full
        allowed = _board(rng, 1)
        for kind, step in KIND_STEPS:
            assert piece_step(kind, b) == step(b)
            assert piece_fill(kind, b, allowed) == fill(b, allowed, step)


def test_the_pawn_steps_on_half_boards_are_the_whole_board_shifts() -> None:
    full = (1 << 64) - 1
    not_a = full ^ 0x0101010101010101
    not_h = full ^ 0x8080808080808080
    rng = random.Random(17)
    for _ in range(2000):
        b = _board(rng, rng.randrange(4))
        assert pawn_attacks(b, 0) == (((b & not_a) << 7) | ((b & not_h) << 9)) & full
        assert pawn_attacks(b, 1) == ((b & not_a) >> 9) | ((b & not_h) >> 7)
        assert pawn_push(b, 0) == (b << 8) & full
        assert pawn_push(b, 1) == b >> 8
