"""The server's rows of its games, all their SQL in one place (SQLite's and PostgreSQL's
alike): ``server_games`` (each game's public id, store id and settings, whether finished)
and ``server_deadlines`` (each unfinished game's players and when it is next due,
:mod:`~chessarbiter.server.games.dormant`). Each function takes the connection of the
thread it runs in: the writer's for writes, the reader's for reads
(:mod:`~chessarbiter.server.games.db`)."""

from __future__ import annotations

from typing import Any

from chessarbiter.arbiter.game import Game
from chessarbiter.server.games.db import at_once
from chessarbiter.server.games.dormant import deadline_row
from chessarbiter.server.games.meta import GameMeta

UNFINISHED = ("FROM server_games s JOIN games g ON g.id = CAST(s.store_id AS INTEGER) "
              "WHERE s.finished = 0 AND g.outcome IS NULL")
"""The unfinished games: not marked finished, and no result in their store."""


def insert_game(conn: Any, game: Game, meta: GameMeta) -> None:
    """A new game's two rows, in one transaction (one sync, all or none)."""
    at_once(conn, [("INSERT INTO server_games (id, store_id, meta) VALUES (?, ?, ?)",
                    (meta.id, meta.store_id, meta.to_json())),
                   ("INSERT INTO server_deadlines VALUES (?, ?, ?, ?, ?)",
                    deadline_row(game, meta))])


def finish(conn: Any, meta: GameMeta) -> None:
    """Mark the game finished (ended or aborted), with its last ``meta``; its line of
    deadlines goes (one sync)."""
    at_once(conn, [("UPDATE server_games SET finished = 1, meta = ? WHERE id = ?",
                    (meta.to_json(), meta.id)),
                   ("DELETE FROM server_deadlines WHERE game = ?", (meta.id,))])


def exists(conn: Any, game_id: str) -> bool:
    """Whether there is a game ``game_id``."""
    return conn.execute("SELECT 1 FROM server_games WHERE id = ?",
                        (game_id,)).fetchone() is not None


def game_row(conn: Any, game_id: str) -> tuple[str, str, str] | None:
    """The game's public id, store id and settings (JSON), ``None`` if there is none."""
    row: tuple[str, str, str] | None = conn.execute(
        "SELECT id, store_id, meta FROM server_games WHERE id = ?", (game_id,)).fetchone()
    return row


def unfinished(conn: Any) -> list[tuple[str, str]]:
    """The unfinished games' public and store ids, oldest first."""
    rows: list[tuple[str, str]] = conn.execute(
        f"SELECT s.id, s.store_id {UNFINISHED} ORDER BY g.id").fetchall()
    return rows


def playing(conn: Any, account: str) -> list[tuple[str, str, str]]:
    """The unfinished games whose players' settings name ``account`` (the games it plays,
    and perhaps a few more: the caller asks each game), as :func:`game_row`'s."""
    rows: list[tuple[str, str, str]] = conn.execute(
        f"SELECT s.id, s.store_id, s.meta {UNFINISHED} AND s.meta LIKE ? ORDER BY g.id",
        (f'%"account": "{account}"%',)).fetchall()
    return rows


def dormant(conn: Any) -> list[tuple[Any, ...]]:
    """Each unfinished game's line of deadlines (:class:`~.dormant.Dormant`'s rows): its
    id, players, when due, whether the line is the log's, the line's events."""
    rows: list[tuple[Any, ...]] = conn.execute(
        "SELECT s.id, d.white, d.black, d.due_ms, d.events = coalesce("
        "(SELECT max(e.seq) FROM events e WHERE e.game_id = g.id), 0), d.events "
        "FROM server_games s JOIN games g ON g.id = CAST(s.store_id AS INTEGER) "
        "LEFT JOIN server_deadlines d ON d.game = s.id "
        "WHERE s.finished = 0 AND g.outcome IS NULL").fetchall()
    return rows
