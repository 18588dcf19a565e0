"""The opening book's build (``bench/build_book.py``): Stockfish's judgement of the moves
people play, and a book built from a few games and read back."""

from __future__ import annotations

import shutil
from pathlib import Path

import chess.engine
import pytest

from chessarbiter.core.position import Position
from chessarbiter.engines.book import Book, book_key
from tests.bench_run import run_bench
from tests.engines.test_opening_quality import load

STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
pytestmark = pytest.mark.skipif(STOCKFISH is None, reason="stockfish is not installed")
GAMES = """[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0

[Result "0-1"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6 5. d4 exd4 0-1

[Result "1/2-1/2"]

1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 1/2-1/2
"""


def test_a_move_that_loses_the_queen_is_judged_far_below_the_best() -> None:
    build_book = load("build_book")
    pos = Position()
    for move in ("e2e4", "e7e5", "g1f3"):
        pos.push_uci(move)
    assert STOCKFISH is not None
    with chess.engine.SimpleEngine.popen_uci(STOCKFISH) as engine:
        best, loss = build_book.judge(engine, book_key(pos), ["b8c6", "d8h4"], 20_000)
    pos.parse_uci(best)  # raises if illegal
    assert loss["b8c6"] < 60 < 500 < loss["d8h4"]  # Qh4 Nxh4
    assert min(loss.values()) >= 0


def test_a_book_from_three_games(tmp_path: Path) -> None:
    pgn, out = tmp_path / "games.pgn", tmp_path / "book.txt"
    pgn.write_text(GAMES)
    printed = run_bench("build_book.py", str(pgn), "--min-games", "2", "--min-move", "1",
                        "--sf-nodes", "5000", "--out", str(out))
    assert "positions judged" in printed
    book = Book.parse(out.read_text())
    start = {m.uci: m for m in book.moves(Position())}
    assert start["e2e4"].games == 3 and start["e2e4"].points == 1.5
    for key, moves in book.entries.items():  # each position with 2 games or more
        pos = Position(key + " 0 1")
        assert sum(m.games for m in moves) >= 2
        for move in moves:
            pos.parse_uci(move.uci)
    assert "loss judged by Stockfish at 5000 nodes" in out.read_text()
