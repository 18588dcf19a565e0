"""The fan-out of streams: an account's events (``gameStart``, ``challenge``, ...) to its
event streams, and a game's lines to the streams other processes relay. One implementation
is chosen when the server is assembled (:func:`chessarbiter.server.app.open_services`): in this
process (:class:`InProcess`), or through Redis for a cluster
(:class:`chessarbiter.server.streams.bus.RedisFanout`); the hub and the routes use it alike."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Final, Protocol

from chessarbiter.server.streams.lines import Line, close_queue

USER_QUEUE: Final = 256
"""Events an account's stream may fall behind before it is closed (the client reconnects)."""

Relay = Callable[[Line], None]
"""Gets every line a game's owner sends its own streams."""


def unrelayed(line: Line) -> None:
    """The relay of a game no other process relays: nothing goes further."""


class Fanout(Protocol):
    """Where an account's events and a game's lines go beyond this process's queues."""

    user_streams: dict[str, set[asyncio.Queue[Line]]]
    """The accounts' event streams held by this process (the keep-alives go to them)."""

    async def start(self) -> None:
        """Connect (before the hub resumes any game)."""

    async def stop(self) -> None:
        """Send what is queued and disconnect (once the games are stopped)."""

    def notify(self, account: str, line: bytes) -> None:
        """An account's event, to its event streams (on every process)."""

    async def subscribe_user(self, account: str) -> asyncio.Queue[Line]:
        """A queue of the account's events (from every process)."""

    async def unsubscribe_user(self, account: str, queue: asyncio.Queue[Line]) -> None:
        """The account's event stream ``queue`` closed."""

    def relay_for(self, game_id: str) -> Relay:
        """What also gets the game's lines (another process's relays)."""

    def watch(self, game_id: str) -> None:
        """Another process relays the game's stream: its lines go out from now on."""


class InProcess:
    """The fan-out of one process: every stream is a queue here."""

    def __init__(self) -> None:
        self.user_streams: dict[str, set[asyncio.Queue[Line]]] = {}

    async def start(self) -> None:
        """Nothing to connect."""

    async def stop(self) -> None:
        """Nothing to disconnect."""

    def notify(self, account: str, line: bytes) -> None:
        queues = self.user_streams.get(account)
        if not queues:
            return
        for queue in tuple(queues):
            try:
                queue.put_nowait(line)
            except asyncio.QueueFull:  # a stream too far behind ends (the client reconnects)
                queues.discard(queue)
                close_queue(queue)

    async def subscribe_user(self, account: str) -> asyncio.Queue[Line]:
        return self.add_user_stream(account, asyncio.Queue(USER_QUEUE))

    async def unsubscribe_user(self, account: str, queue: asyncio.Queue[Line]) -> None:
        self.drop_user_stream(account, queue)

    def add_user_stream(self, account: str, queue: asyncio.Queue[Line]
                        ) -> asyncio.Queue[Line]:
        self.user_streams.setdefault(account, set()).add(queue)
        return queue

    def drop_user_stream(self, account: str, queue: asyncio.Queue[Line]) -> None:
        queues = self.user_streams.get(account)
        if queues is not None:
            queues.discard(queue)
            if not queues:
                del self.user_streams[account]

    def relay_for(self, game_id: str) -> Relay:
        return unrelayed  # no other process

    def watch(self, game_id: str) -> None:
        """No other process relays anything."""
