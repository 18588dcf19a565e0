"""A game's chat (lichess' ``/api/bot/game/{id}/chat`` and the Board API's): two rooms,
``player`` (the players) and ``spectator`` (any account), kept with the game's record in
the store (:mod:`chessarbiter.store.chat`: a stream of its own beside the game's events,
read back after a restart and by every process of a cluster); a line's length and an
account's pace are limited (values in docs/server.md, "Limits"). A line written also goes
out on the game's streams as lichess' ``chatLine`` (:func:`announce`).

"""
from __future__ import annotations

import math
from typing import Any, Final, Protocol

from chessarbiter.clock.records import Side
from chessarbiter.server.accounts import Account
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.errors import ApiError
from chessarbiter.server.games import shapes
from chessarbiter.server.games.db import Database, Worker
from chessarbiter.server.games.presence import Presence
from chessarbiter.server.games.table import HubGame, ndjson
from chessarbiter.server.limits import Buckets, Rate
from chessarbiter.server.members import Members
from chessarbiter.store.chat import ChatLine

ROOMS: Final = ("player", "spectator")
MAX_CHARS: Final = 140
"""A chat line's length at most (lichess' limit)."""
LINES_PER_ACCOUNT: Final = Rate(10, 30_000)
"""Chat lines an account may write: 10 at once, then one every 3 s."""
SHOWN: Final = 200
"""The last lines of a room that ``GET .../chat`` answers."""


class Chatting(Protocol):
    """What the chat uses (the server's services): the configuration, the database's writer
    and reader, the accounts, and who is at the board (whose streams a player's line goes
    to)."""

    @property
    def config(self) -> ServerConfig: ...

    @property
    def db(self) -> Database: ...

    @property
    def reader(self) -> Worker: ...

    @property
    def members(self) -> Members: ...

    @property
    def presence(self) -> Presence: ...


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


async def write(services: Chatting, entry: HubGame, room: str, author: str, text: str) -> None:
    """Keep a line in the game's record (durable when it returns), then :func:`announce`
    it."""
    line = ChatLine(room, author, text, len(entry.game.log), services.config.calendar_ms())
    store_id = entry.meta.store_id
    await services.db.run(lambda store, conn: store.append_chat(store_id, line))
    announce(services, entry, room, author, text)


async def read(services: Chatting, entry: HubGame, room: str) -> list[dict[str, Any]]:
    """The room's last :data:`SHOWN` lines, oldest first, in lichess' shape
    (``{"user": ..., "text": ...}``)."""
    lines = await _kept(services, entry)
    return [{"user": line.author, "text": line.text}
            for line in lines if line.room == room][-SHOWN:]


async def exported(services: Chatting, entry: HubGame, rooms: tuple[str, ...]
                   ) -> list[dict[str, Any]]:
    """Every line of ``rooms``, in the order written, for the game's export: each one's
    ``room``, ``user``, ``text`` and ``events`` (the game's events when it was written,
    where it falls in the log)."""
    return [{"room": line.room, "user": line.author, "text": line.text, "events": line.events}
            for line in await _kept(services, entry) if line.room in rooms]


async def _kept(services: Chatting, entry: HubGame) -> list[ChatLine]:
    store_id = entry.meta.store_id
    lines: list[ChatLine] = await services.reader.run(lambda store, conn: store.chat(store_id))
    return lines


def announce(services: Chatting, entry: HubGame, room: str, author: str, text: str) -> None:
    """Send a written line as a ``chatLine`` on the game's streams (the players' streams
    are known to :mod:`presence`): a ``player`` line to the players only; a ``spectator``
    line to every other stream (and to the processes relaying the game), and to a player
    only if his account is a BOT (a program answering spectators, as lichess-bot does):
    a person playing takes no advice from the spectators (F23 11.3.1)."""
    line = ndjson(shapes.chat_line(room, author, text))
    seats = services.presence.games.get(entry.id)
    players = (set(), set()) if seats is None else seats.queues
    if room == "spectator":
        people = [side for side in (Side.WHITE, Side.BLACK) if not _bot(services, entry, side)]
        entry.publish(line, skip=frozenset(q for side in people for q in players[side]))
        return
    for queue in (*players[0], *players[1]):
        if not queue.full():
            queue.put_nowait(line)


def _bot(services: Chatting, entry: HubGame, side: Side) -> bool:
    account = entry.meta.seat(side).account
    found = None if account is None else services.members.accounts.by_id(account)
    return found is not None and found.is_bot
