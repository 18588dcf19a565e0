"""The SQLite store's group commit: a batch of appends to several games, in a few
statements, numbers each game's events in order (across the statements' chunks too), sets
the outcome given, and is written whole or not at all."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chessarbiter.arbiter.events import Warned
from chessarbiter.arbiter.game import Game
from chessarbiter.clock import Side
from chessarbiter.store.sqlite import BATCH_ROWS, SqliteStore, padded, runs


def test_a_batch_numbers_each_games_events_in_order_and_is_whole_or_nothing(
        tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    store = SqliteStore(path)
    try:
        first, second = store.create(Game()), store.create(Game())
        count = BATCH_ROWS * 2 + 7  # three chunks, the last in three runs
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


@given(st.lists(st.integers(), max_size=700), st.sampled_from([1, 8, 128, 256]))
def test_runs_are_the_items_in_order_in_powers_of_two(items: list[int], most: int) -> None:
    found = list(runs(items, most))
    assert [x for run in found for x in run] == items
    assert all(len(run) <= most and len(run) & (len(run) - 1) == 0 for run in found)
    assert [len(run) for run in found] == sorted((len(run) for run in found), reverse=True)


def test_a_statement_is_one_of_a_few_lengths_whatever_the_batch() -> None:
    """SQLite's statement cache (128 per connection) holds every statement a batch writes."""
    lengths = {len(run) for n in range(1, 700) for run in runs(range(n), BATCH_ROWS)}
    lengths |= {len(padded(range(n))) for n in range(1, BATCH_ROWS + 1)}
    assert lengths == {1 << k for k in range(BATCH_ROWS.bit_length())}


@given(st.lists(st.integers(), min_size=1, max_size=300))
def test_padded_repeats_the_last_number_up_to_a_power_of_two(numbers: list[int]) -> None:
    found = padded(numbers)
    assert found[:len(numbers)] == numbers and set(found[len(numbers):]) <= {numbers[-1]}
    assert len(found) & (len(found) - 1) == 0 and len(found) < 2 * len(numbers)
