"""A game's chat kept with its record (the store's chat stream of the game): both rooms
read back after a restart, on SQLite and on PostgreSQL, the JSON export carrying them in
the order written with where each falls in the game's log (the players' room only to its
players), and lines of an earlier version's ``server_chat`` moved there; every answer
validated against lichess' specification."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from chessarbiter.server.games.db import Database
from tests.server.helpers import add_accounts, live_server
from tests.server.test_lichess_schemas import Checked, started
from tests.services import fresh_schema


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgres":
        return fresh_schema(tmp_path.name)
    return str(tmp_path / "games.sqlite")


def test_both_rooms_outlive_a_restart_and_go_with_the_export(db: str) -> None:
    tok = add_accounts(db, "alice", "bob", "carol")  # type: ignore[arg-type]
    alice, bob, carol = tok["alice"], tok["bob"], tok["carol"]
    with live_server(db) as live:  # type: ignore[arg-type]
        s = Checked(live.url)
        game_id = started(s, alice, bob)
        chat = f"/api/board/game/{game_id}/chat"
        s.call("POST", chat, alice, data={"room": "player", "text": "Good luck"})
        s.call("POST", f"/api/board/game/{game_id}/move/e2e4", alice)
        s.call("POST", chat, carol, data={"room": "spectator", "text": "A king's pawn!"})
        s.call("POST", chat, bob, data={"room": "player", "text": "Thanks, you too"})
    with live_server(db) as live:  # type: ignore[arg-type]
        s = Checked(live.url)
        read = s.call("GET", f"/api/bot/game/{game_id}/chat", bob).json()
        assert read == [{"user": "alice", "text": "Good luck"},
                        {"user": "bob", "text": "Thanks, you too"}]
        as_json = {"Accept": "application/json"}
        kept = s.call("GET", f"/game/export/{game_id}", alice, headers=as_json).json()["chat"]
        assert [(line["room"], line["user"], line["text"]) for line in kept] == [
            ("player", "alice", "Good luck"), ("spectator", "carol", "A king's pawn!"),
            ("player", "bob", "Thanks, you too")]
        before, after, _ = (line["events"] for line in kept)
        assert after > before  # the move came between them
        seen = s.call("GET", f"/game/export/{game_id}", headers=as_json).json()["chat"]
        assert [line["text"] for line in seen] == ["A king's pawn!"]  # not the players'
        assert s.found == [], "\n".join(s.found)


def test_an_earlier_versions_chat_table_is_moved_into_the_games(db: str) -> None:
    tok = add_accounts(db, "alice", "bob")  # type: ignore[arg-type]
    with live_server(db) as live:  # type: ignore[arg-type]
        game_id = started(Checked(live.url), tok["alice"], tok["bob"])
    database = Database(db)
    database.start()
    try:
        database.call(lambda store, conn: [conn.execute(sql, params) for sql, params in (
            ("CREATE TABLE server_chat (game TEXT NOT NULL, room TEXT NOT NULL, author TEXT "
             "NOT NULL, text TEXT NOT NULL, at_ms BIGINT NOT NULL)", ()),
            ("INSERT INTO server_chat VALUES (?, 'player', 'bob', 'second', 20)", (game_id,)),
            ("INSERT INTO server_chat VALUES (?, 'player', 'alice', 'first', 10)", (game_id,)),
        )])
    finally:
        database.close()
    database = Database(db)  # opened again: the lines move into the game's chat
    database.start()
    try:
        store_id = database.call(lambda store, conn: conn.execute(
            "SELECT store_id FROM server_games WHERE id = ?", (game_id,)).fetchone()[0])
        lines = database.call(lambda store, conn: store.chat(store_id))
        assert [(line.author, line.text) for line in lines] == [("alice", "first"),
                                                                ("bob", "second")]
        with pytest.raises((sqlite3.Error, ValueError), match="server_chat"):
            database.call(lambda store, conn: conn.execute("SELECT 1 FROM server_chat"))
    finally:
        database.close()
