"""The opening book: the shipped file, the choice within a level's tolerance, its use in a
game and not in an analysis, and the UCI option ``OwnBook``."""

from __future__ import annotations

import random

import pytest

from chessarbiter.core.position import Position
from chessarbiter.engines.book import BOOK_LOSS_CP, Book, book_key, shipped_book
from chessarbiter.engines.builtin import BuiltinEngine
from chessarbiter.engines.search import Limits
from chessarbiter.engines.timeman import budget
from chessarbiter.engines.uci_server import UciServer

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"


def test_the_shipped_book_holds_legal_moves_from_the_initial_position_on() -> None:
    book = shipped_book()
    assert len(book.entries) > 100
    assert book.moves(Position())
    for key, moves in book.entries.items():
        pos = Position(key + " 0 1")
        assert book_key(pos) == key
        for move in moves:
            pos.parse_uci(move.uci)  # raises if illegal
            assert move.games > 0 and move.loss >= 0
    start = [m for m in book.moves(Position()) if m.loss <= BOOK_LOSS_CP]
    assert {m.uci for m in start} >= {"e2e4", "d2d4"}


def test_the_key_leaves_out_counters_and_an_en_passant_square_without_a_capture() -> None:
    pos = Position()
    pos.push_uci("e2e4")
    assert book_key(pos) == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -"


def small_book() -> Book:
    return Book.parse(f"# a comment\n{START}\te2e4:10:6:0 g2g4:90:40:120\n")


def test_a_move_is_picked_within_the_tolerance_by_the_points_scored_with_it() -> None:
    book, rng = small_book(), random.Random(1)
    assert {Position().uci(book.pick(Position(), rng, BOOK_LOSS_CP) or 0)
            for _ in range(50)} == {"e2e4"}
    picks = [Position().uci(book.pick(Position(), rng, 300) or 0) for _ in range(200)]
    assert set(picks) == {"e2e4", "g2g4"}
    assert picks.count("g2g4") > picks.count("e2e4")  # 40 points against 6
    pos = Position()
    pos.push_uci("e2e4")
    assert book.pick(pos, rng, 300) is None


def test_no_book_in_a_chess960_game() -> None:
    assert small_book().moves(Position(START + " 0 1", chess960=True)) == ()


def test_a_book_move_is_played_at_once_without_a_search() -> None:
    engine = BuiltinEngine(10, seed=3, book=small_book())
    result = engine.choose(Position(), budget=budget(60_000))
    assert result.move is not None and Position().uci(result.move) == "e2e4"
    assert (result.nodes, result.depth) == (0, 0)


@pytest.mark.parametrize("level", [1, 5, 10])
def test_every_level_opens_from_the_shipped_book(level: int) -> None:
    engine = BuiltinEngine(level, seed=7)
    result = engine.choose(Position(), budget=budget(60_000))
    assert result.nodes == 0
    assert Position().uci(result.move or 0) in {m.uci for m in shipped_book().moves(Position())}


def test_without_the_book_or_in_an_analysis_the_engine_searches() -> None:
    engine = BuiltinEngine(10, seed=3, book=small_book(), own_book=False)
    assert engine.choose(Position(), limits=Limits(depth=3)).nodes > 0
    engine.own_book = True
    assert engine.choose(Position(), limits=Limits(depth=3), level_caps=False).nodes > 0
    assert engine.choose(Position(), limits=Limits(depth=3)).nodes == 0


def test_the_uci_option_own_book() -> None:
    out: list[str] = []
    server = UciServer(out.append)
    server.handle("uci")
    assert "option name OwnBook type check default true" in out
    for own_book, searched in (("true", False), ("false", True)):
        out.clear()
        server.handle(f"setoption name OwnBook value {own_book}")
        server.handle("position startpos")
        server.handle("go wtime 60000 btime 60000")
        assert server.wait(timeout=30)
        assert any(line.startswith("info depth") for line in out) is searched
        Position().parse_uci(out[-1].split()[1])
    out.clear()
    server.handle("setoption name OwnBook value true")
    server.handle("go depth 2")  # an analysis searches whatever the option
    assert server.wait(timeout=30)
    assert any(line.startswith("info depth 2") for line in out)
