"""A game's chat (lichess' ``/api/bot/game/{id}/chat`` and the Board API's): two rooms,
``player`` (the players) and ``spectator`` (any account), kept in the table
``server_chat``; a line's length and an account's pace are limited (values in
docs/server.md, "Limits"). A line written also goes out on the game's streams as lichess'
``chatLine``: the player room's to the players' streams only, the spectator room's to
every stream of the game."""

from __future__ import annotations

import math
import sqlite3
from typing import TYPE_CHECKING, Any, Final

from chessarbiter.server.accounts import Account
from chessarbiter.server.errors import ApiError
from chessarbiter.server.games.presence import presence_of
from chessarbiter.server.games.table import HubGame, ndjson
from chessarbiter.server.limits import Buckets, Rate

if TYPE_CHECKING:
    from chessarbiter.server.games.hub import Hub

ROOMS: Final = ("player", "spectator")
MAX_CHARS: Final = 140
"""A chat line's length at most (lichess' limit)."""
LINES_PER_ACCOUNT: Final = Rate(10, 30_000)
"""Chat lines an account may write: 10 at once, then one every 3 s."""
SHOWN: Final = 200
"""The last lines of a room that ``GET .../chat`` answers."""


def chat_line(room: str, text: str) -> tuple[str, str]:
    """The room and text of a line to write; ``ApiError`` 400 naming what is wrong."""
    if room not in ROOMS:
        raise ApiError(400, f"room {room[:20]!r}: expected player or spectator")
    text = text.strip()
    if not text:
        raise ApiError(400, "text: required")
    if len(text) > MAX_CHARS:
        raise ApiError(400, f"text: {len(text)} characters, at most {MAX_CHARS}")
    return room, text


def pace(buckets: Buckets, account: Account) -> None:
    """Count a line by ``account``; 429 with ``Retry-After`` if it writes too fast."""
    wait = buckets.wait_ms(account.id)
    if wait > 0:
        seconds = math.ceil(wait / 1000)
        raise ApiError(429, f"too many chat lines: try again in {seconds} s (at most "
                            f"{LINES_PER_ACCOUNT.count} per {LINES_PER_ACCOUNT.per_ms // 1000} s)",
                       headers={"Retry-After": str(seconds)})
    buckets.take(account.id)


def insert_line(conn: sqlite3.Connection, game: str, room: str, author: str, text: str,
                at_ms: int) -> None:
    conn.execute("INSERT INTO server_chat (game, room, author, text, at_ms) "
                 "VALUES (?, ?, ?, ?, ?)", (game, room, author, text, at_ms))


def select_lines(conn: sqlite3.Connection, game: str, room: str) -> list[dict[str, Any]]:
    """The room's last :data:`SHOWN` lines, oldest first, in lichess' shape
    (``{"user": ..., "text": ...}``)."""
    rows = conn.execute("SELECT author, text FROM server_chat WHERE game = ? AND room = ? "
                        "ORDER BY at_ms DESC LIMIT ?", (game, room, SHOWN)).fetchall()
    return [{"user": str(author), "text": str(text)} for author, text in reversed(rows)]


def announce(hub: Hub, entry: HubGame, room: str, author: str, text: str) -> None:
    """Send a written line as a ``chatLine`` on the game's streams: a ``spectator`` line
    on every stream (and to the processes relaying the game), a ``player`` line only on
    the streams its players hold open here (:mod:`presence` knows them)."""
    line = ndjson({"type": "chatLine", "room": room, "username": author, "text": text})
    if room == "spectator":
        entry.publish(line)
        return
    seats = presence_of(hub).games.get(entry.id)
    for queue in () if seats is None else (*seats.queues[0], *seats.queues[1]):
        if not queue.full():
            queue.put_nowait(line)
