"""The built-in engine as a player: levels, randomness, and play against a random mover."""

from __future__ import annotations

import pytest

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.position import Position
from chessarbiter.engines.builtin import DEFAULT_DEPTH, LEVELS, BuiltinEngine, earlier_keys
from chessarbiter.engines.search import Limits
from chessarbiter.engines.timeman import Budget
from tests.engines.helpers import TickingTime, random_mover_game, random_positions


@pytest.mark.parametrize("game", range(10))
def test_beats_a_random_mover(game: int) -> None:
    engine = BuiltinEngine(seed=game)
    assert random_mover_game(engine, game % 2 == 0, depth=2, seed=game) == "engine"


def test_the_weakest_level_beats_a_random_mover() -> None:
    engine = BuiltinEngine(level=1, seed=3)
    assert random_mover_game(engine, True, depth=1, seed=3) == "engine"


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_plays_legal_moves(level: int) -> None:
    engine = BuiltinEngine(level=level, seed=level)
    for pos in random_positions(3, seed=level):
        move = engine.choose(pos, limits=Limits(nodes=300)).move
        assert move in pos.legal_moves()


def test_a_seed_makes_the_weak_levels_repeatable() -> None:
    positions = random_positions(8, seed=5)
    first = [BuiltinEngine(level=1, seed=9).play(p) for p in positions]
    again = [BuiltinEngine(level=1, seed=9).play(p) for p in positions]
    assert first == again


def test_the_weak_levels_vary_their_play() -> None:
    pos = Position()
    moves = {BuiltinEngine(level=1, seed=seed).play(pos) for seed in range(12)}
    assert len(moves) > 1


def test_the_weakest_level_still_takes_a_mate_in_one() -> None:
    pos = parse_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    for seed in range(5):
        assert pos.uci(BuiltinEngine(level=1, seed=seed).play(pos) or 0) == "d1d8"


def test_the_level_caps_the_depth() -> None:
    result = BuiltinEngine(level=7, own_book=False).choose(Position(), limits=Limits(depth=9))
    assert result.depth == 4


def test_a_time_budget_bounds_the_full_strength_search() -> None:
    time = TickingTime(step=100)
    engine = BuiltinEngine(now=time)
    result = engine.choose(Position(), budget=Budget(500, 1000))
    assert result.move in Position().legal_moves()
    assert engine.searcher.elapsed_ms() <= 1000 + 200


@pytest.mark.parametrize("level", [0, 11])
def test_unknown_levels_are_refused(level: int) -> None:
    with pytest.raises(ValueError, match="expected 1 to 10"):
        BuiltinEngine(level=level)


def test_no_move_without_legal_moves() -> None:
    stalemate = parse_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert BuiltinEngine(level=2).play(stalemate) is None
    assert BuiltinEngine().play(stalemate) is None


def test_earlier_keys_follow_the_move_stack() -> None:
    pos = Position()
    expected = []
    for text in ("g1f3", "g8f6", "f3g1", "f6g8"):
        expected.append(pos.key())
        pos.push_uci(text)
    assert earlier_keys(pos) == expected
    assert expected[0] == pos.key()  # back at the start: a repetition the search can see


def test_without_any_limit_a_default_depth_applies() -> None:
    result = BuiltinEngine(own_book=False).choose(Position())
    assert result.depth == DEFAULT_DEPTH
