"""A game's chat kept with its record (SQLite and PostgreSQL): lines come back in the order
written, each with the game's events when written, after the store is opened again; a line
for a game that does not exist is a StoreError naming it; a database of the first schema
version gains the chat table and keeps its games."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from chessarbiter.arbiter.events import Warned
from chessarbiter.arbiter.game import Game
from chessarbiter.clock.records import Side
from chessarbiter.store import open_store
from chessarbiter.store.chat import ChatLine, ChatStore
from chessarbiter.store.sqlite import MIGRATIONS, SqliteStore
from tests.store.test_contract import location


@pytest.fixture(params=["sqlite", "postgres"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return location(tmp_path, request.param)


def chat_store(where: str) -> Any:
    """The store at ``where``, a :class:`ChatStore` (and an event store)."""
    store = open_store(where)
    assert isinstance(store, ChatStore)
    return store


def test_lines_come_back_in_order_beside_the_events(where: str) -> None:
    store = open_store(where)
    game = Game()
    game_id, other = store.create(game), store.create(Game())
    lines = [ChatLine("player", "alice", "hello", 0, 1_000),
             ChatLine("spectator", "carol", "gl", 0, 1_500)]
    chat = chat_store(where)
    chat.append_chat(game_id, lines[0])
    game.apply(Warned(1, Side.WHITE, "noise"))
    store.append(game_id, game.log[-1])
    later = ChatLine("player", "bob", "é, thanks", 1, 2_000)
    chat.append_chat(game_id, lines[1])
    chat.append_chat(other, ChatLine("player", "dave", "elsewhere", 0, 2_100))
    chat.append_chat(game_id, later)
    store.close()
    opened = chat_store(where)  # a reopened store reads them
    assert opened.chat(game_id) == [*lines, later]
    assert [line.text for line in opened.chat(other)] == ["elsewhere"]
    opened.close()
    again = open_store(where)
    assert again.load(game_id).log == game.log  # the arbiter's log has no chat line
    again.close()


def test_a_line_for_no_game_is_a_store_error_naming_it(where: str) -> None:
    chat = chat_store(where)
    with pytest.raises(ValueError, match="game 41: no such game"):
        chat.append_chat("41", ChatLine("player", "alice", "hi", 0, 0))
    assert chat.chat("41") == []
    chat.close()


def test_a_first_version_database_gains_the_chat_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path, isolation_level=None)
    for statement in MIGRATIONS[0]:
        db.execute(statement)
    db.execute("PRAGMA user_version = 1")
    db.close()
    store = SqliteStore(path)
    game_id = store.create(Game())
    store.append_chat(game_id, ChatLine("spectator", "carol", "first", 0, 5))
    assert store.chat(game_id)[0].text == "first"
    assert store._db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS) == 2
    store.close()
