"""The cluster's bus: Redis pub/sub carrying each game's stream lines from its owner to the
other processes, which relay them to their clients' streams.

A game's lines go on the channel ``{prefix}game:{id}``, published in order by one task (so
they arrive in the order the owner stamped them; what is queued goes in one pipeline); the
end of a game's stream is an empty message. Each process holds one subscription connection
and hands every message to the local queues subscribed to its game.

An owner publishes only the games another process relays (nothing crosses Redis for a game
whose streams are all held by its owner, the usual case): a relaying process says so when
it asks the owner for the stream's first line (:meth:`Bus.watch`, before that line is
made, so no later line is missed), and then every :data:`WATCH_S` on the channel
``{prefix}watch`` (the ids of the games it relays); the owner publishes a game's lines
until :data:`WATCH_TTL_S` after it was last told.

:class:`RedisFanout` is a cluster's fan-out of streams
(:class:`~chessarbiter.server.streams.fanout.Fanout`): the games' bus, and the named
channels (:class:`Channels`) of the accounts' events and of the lobby's seeks."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any, Final

import redis.asyncio as aioredis

from chessarbiter.server.streams.fanout import InProcess, Relay
from chessarbiter.server.streams.lines import Line, close_queue

log = logging.getLogger(__name__)

END: Final = b""
"""The message that ends a game's streams."""
QUEUE_LIMIT: Final = 256
"""Lines a relayed stream may fall behind before it is closed."""
WATCH_S: Final = 2.0
"""How often a process says which games it relays."""
WATCH_TTL_S: Final = 10.0
"""How long an owner publishes a game's lines after it was last told it is relayed."""


class Bus:
    """Publish and subscribe to games' lines through the Redis at ``url``. Use it on the event
    loop: ``await bus.start()`` ... ``await bus.stop()``."""

    def __init__(self, url: str, prefix: str = "chessarbiter:", *, relays: bool = False,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.url = url
        self.prefix = prefix
        self.relays = relays
        """Say every :data:`WATCH_S` which games this process relays (the games' bus)."""
        self._now = now
        self._redis: aioredis.Redis = aioredis.Redis.from_url(url)
        self._pubsub: Any = self._redis.pubsub()
        self._outbox: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self._local: dict[str, set[asyncio.Queue[Line]]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._watched: dict[str, float] = {}
        """Until when (``now``, s) each game is relayed by another process."""
        self.watching = f"{prefix}watch"
        """The channel on which processes say which games they relay."""
        self._sending = False
        """A pipeline of lines is on its way."""
        self.published = 0

    def channel(self, game_id: str) -> str:
        return f"{self.prefix}game:{game_id}"

    async def start(self) -> None:
        await self._redis.ping()
        await self._pubsub.subscribe(self.watching)  # the connection, before any game
        self._tasks = [asyncio.create_task(self._publishing()),
                       asyncio.create_task(self._receiving())]
        if self.relays:
            self._tasks.append(asyncio.create_task(self._announcing()))

    async def stop(self) -> None:
        """Publish what is queued, then close."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._drained(), 2)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for queues in self._local.values():
            for queue in queues:
                close_queue(queue)
        await self._pubsub.aclose()
        await self._redis.aclose()

    async def _drained(self) -> None:
        while not self._outbox.empty() or self._sending:
            await asyncio.sleep(0.01)

    def watch(self, game_id: str) -> None:
        """Another process relays the game (for :data:`WATCH_TTL_S` from now)."""
        self._watched[game_id] = self._now() + WATCH_TTL_S

    def relayed(self, game_id: str) -> bool:
        """Whether another process relays the game (its lines are to be published)."""
        until = self._watched.get(game_id)
        if until is None:
            return False
        if until < self._now():
            del self._watched[game_id]
            return False
        return True

    def publish(self, game_id: str, line: Line) -> None:
        """Send a game's line (``None``: its end) to the processes relaying it."""
        self._outbox.put_nowait((self.channel(game_id), END if line is None else line))

    async def subscribe(self, game_id: str) -> asyncio.Queue[Line]:
        """A queue receiving the game's lines from now on (``None`` once it ends)."""
        queue: asyncio.Queue[Line] = asyncio.Queue(QUEUE_LIMIT)
        queues = self._local.setdefault(game_id, set())
        if not queues:
            await self._pubsub.subscribe(self.channel(game_id))
        queues.add(queue)
        return queue

    async def unsubscribe(self, game_id: str, queue: asyncio.Queue[Line]) -> None:
        queues = self._local.get(game_id)
        if queues is None:
            return
        queues.discard(queue)
        if not queues:
            del self._local[game_id]
            await self._pubsub.unsubscribe(self.channel(game_id))

    async def _publishing(self) -> None:
        """Publish what is queued, in order: everything waiting in one pipeline."""
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            self._sending = True
            try:
                async with self._redis.pipeline(transaction=False) as pipe:
                    for channel, data in batch:
                        pipe.publish(channel, data)
                    await pipe.execute()
                self.published += len(batch)
            except aioredis.RedisError as exc:
                log.error("bus: %d lines were not published: %s", len(batch), exc)
            finally:
                self._sending = False

    async def announce(self) -> None:
        """Say which games this process relays (if any), and forget the games it was told
        about that expired."""
        now = self._now()
        for game_id in [g for g, until in self._watched.items() if until < now]:
            del self._watched[game_id]
        if self._local:
            await self._redis.publish(self.watching, " ".join(self._local))

    async def _announcing(self) -> None:
        while True:
            await asyncio.sleep(WATCH_S)
            try:
                await self.announce()
            except aioredis.RedisError as exc:
                log.error("bus: cannot say which games are relayed: %s", exc)

    async def _receiving(self) -> None:
        start = len(self.channel(""))
        watching = self.watching.encode()
        while True:
            try:
                message = await self._pubsub.get_message(ignore_subscribe_messages=True,
                                                         timeout=1.0)
            except aioredis.RedisError as exc:
                log.error("bus: cannot receive: %s", exc)
                await asyncio.sleep(0.5)
                continue
            if message is None or message.get("type") != "message":
                continue
            if message["channel"] == watching:
                for game_id in message["data"].decode().split():
                    self.watch(game_id)
                continue
            game_id = message["channel"].decode()[start:]
            data: bytes = message["data"]
            for queue in tuple(self._local.get(game_id, ())):
                try:
                    queue.put_nowait(None if data == END else data)
                except asyncio.QueueFull:
                    self._local[game_id].discard(queue)
                    close_queue(queue)



class Channels(Bus):
    """A bus of named channels ``{prefix}KEY`` (``user:ACCOUNT``: an account's events;
    ``seek:ID``: a seek's pairing)."""

    def channel(self, key: str) -> str:
        return f"{self.prefix}{key}"


class RedisFanout(InProcess):
    """The fan-out of a cluster through the Redis at ``url``: an account's events go on its
    channel, which every process holding one of its event streams relays to it; a game's
    lines go on the games' bus while another process relays the game."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.games = Bus(url, relays=True)
        self.channels = Channels(url, prefix="chessarbiter:lobby:")

    async def start(self) -> None:
        await self.games.start()
        await self.channels.start()

    async def stop(self) -> None:
        await self.games.stop()
        await self.channels.stop()

    def notify(self, account: str, line: bytes) -> None:
        self.channels.publish(f"user:{account}", line)

    async def subscribe_user(self, account: str) -> asyncio.Queue[Line]:
        return self.add_user_stream(account, await self.channels.subscribe(f"user:{account}"))

    async def unsubscribe_user(self, account: str, queue: asyncio.Queue[Line]) -> None:
        self.drop_user_stream(account, queue)
        await self.channels.unsubscribe(f"user:{account}", queue)

    def relay_for(self, game_id: str) -> Relay:
        games = self.games

        def relay(line: Line) -> None:  # keep-alive lines stay local
            if line != b"\n" and games.relayed(game_id):
                games.publish(game_id, line)

        return relay

    def watch(self, game_id: str) -> None:
        self.games.watch(game_id)
