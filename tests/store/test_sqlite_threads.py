"""A SQLite store owns its connection: any thread may write and read through it, one at a
time (a terminal game records an engine's move and a fallen flag from other threads)."""

from __future__ import annotations

import threading
from pathlib import Path

from chessarbiter.arbiter.events import Moved
from chessarbiter.arbiter.game import Game
from chessarbiter.clock import Side
from chessarbiter.store import SqliteStore

MOVES = ("g1f3", "g8f6", "f3g1", "f6g8") * 3


def test_threads_write_and_read_through_one_store(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "games.sqlite")
    ids = [store.create(Game()) for _ in range(3)]
    failures: list[BaseException] = []

    def play(game_id: str) -> None:
        game = Game()
        try:
            for ply, uci in enumerate(MOVES):
                game.apply(Moved(ply, Side(ply % 2 == 1), uci))
                store.append(game_id, game.log[-1])
                assert len(store.load(game_id).log) == ply + 1
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=play, args=(game_id,)) for game_id in ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    store.close()
    again = SqliteStore(tmp_path / "games.sqlite")
    assert [len(again.load(game_id).log) for game_id in ids] == [len(MOVES)] * 3
    again.close()
