"""The SQLite store's group commit: a batch of appends to several games, in a few
statements, numbers each game's events in order (across the statements' chunks too), sets
the outcome given, and is written whole or not at all."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from chessarbiter.arbiter.events import Warned
from chessarbiter.arbiter.game import Game
from chessarbiter.clock import Side
from chessarbiter.store.sqlite import BATCH_ROWS, SqliteStore


def test_a_batch_numbers_each_games_events_in_order_and_is_whole_or_nothing(
        tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    store = SqliteStore(path)
    try:
        first, second = store.create(Game()), store.create(Game())
        count = BATCH_ROWS * 2 + 7  # three statements' worth
        entries: list[tuple[str, Warned, str | None]] = [
            (first if n % 3 else second, Warned(n, Side.WHITE, f"w{n}"), None)
            for n in range(count)]
        entries.append((second, Warned(count, Side.BLACK, "last"), "1-0"))
        store.append_batch(entries)
        assert [e.at_ms for e in store.load(first).log] == [n for n in range(count) if n % 3]
        assert [e.at_ms for e in store.load(second).log] == [
            *(n for n in range(count) if not n % 3), count]
        with pytest.raises(ValueError, match="game 99: no such game"):
            store.append_batch([(first, Warned(10**6, Side.WHITE, "x"), None),
                                ("99", Warned(10**6, Side.WHITE, "y"), None)])
        assert len(store.load(first).log) == len([n for n in range(count) if n % 3])
    finally:
        store.close()
    with sqlite3.connect(path) as db:
        rows = dict(db.execute("SELECT id, outcome FROM games").fetchall())
        seqs = db.execute("SELECT game_id, group_concat(seq) FROM (SELECT game_id, seq FROM "
                          "events ORDER BY game_id, seq) GROUP BY game_id").fetchall()
    assert rows == {int(first): None, int(second): "1-0"}
    for _, numbers in seqs:  # 1, 2, 3, ... without a gap
        found = [int(n) for n in numbers.split(",")]
        assert found == list(range(1, len(found) + 1))
