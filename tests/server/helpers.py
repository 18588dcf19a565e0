"""Servers for the tests: the app in process on a hand-driven clock (httpx over ASGI), or a
real uvicorn server on a free loopback port in a thread (for clients such as berserk)."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from chessarbiter.server.accounts import Role, insert_account
from chessarbiter.server.app import create_app, open_services
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.games.db import Database
from chessarbiter.server.games.hub import Hub
from chessarbiter.server.games.meta import Seat
from chessarbiter.server.games.table import HubGame
from chessarbiter.server.http.services import Services
from chessarbiter.server.lobby.memory import MemoryLobby
from chessarbiter.server.lobby.requests import read_request
from tests.clock.fake_time import FakeTime


@dataclass
class InProcess:
    """A started hub, a client for its app, the clock its games run on, and the app's
    services."""

    hub: Hub
    client: httpx.AsyncClient
    clock: FakeTime
    services: Services

    async def account(self, name: str, role: Role = Role.PLAYER) -> dict[str, str]:
        """A new account's Authorization header."""
        _, token = await self.services.members.add(name, role)
        return {"Authorization": f"Bearer {token}"}

    async def post(self, path: str, headers: dict[str, str] | None = None,
                   **kwargs: Any) -> httpx.Response:
        return await self.client.post(path, headers=headers, **kwargs)

    async def game(self, game_id: str) -> HubGame:
        return await self.hub.get(game_id)


@asynccontextmanager
async def in_process(db: Path, clock: FakeTime | None = None, *,
                     database: Database | None = None, starts: list[float] | None = None,
                     **settings: Any) -> AsyncIterator[InProcess]:
    """The app over a hub on ``db`` (through ``database`` when given) whose games run on
    ``clock`` (a new :class:`FakeTime` by default), with the server's other ``settings``;
    flag timers off unless ``timers=True`` (``hub.fire_due()`` records fallen flags).
    ``starts`` gets how long the hub took to start (after which the server listens;
    seconds)."""
    clock = FakeTime() if clock is None else clock
    config = ServerConfig(db=db, now_ms=clock, **{"timers": False, **settings})
    services = open_services(config, database)
    hub = services.hub
    app = create_app(services=services)
    began = time.perf_counter()
    await hub.start()
    if starts is not None:
        starts.append(time.perf_counter() - began)
    transport = httpx.ASGITransport(app=app)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield InProcess(hub, client, clock, services)
    finally:
        await hub.stop()


async def next_line(queue: asyncio.Queue[bytes | None], timeout: float = 30) -> bytes | None:
    """The next line a subscriber gets (keep-alive lines skipped)."""
    while True:
        line = await asyncio.wait_for(queue.get(), timeout)
        if line != b"\n":
            return line


def add_accounts(db: Path, *names: str, role: Role = Role.PLAYER) -> dict[str, str]:
    """Create accounts in ``db`` (as ``serve --add-account`` does); their tokens."""
    database = Database(db)
    database.start()

    def token(name: str) -> str:
        return database.call(lambda store, conn: insert_account(conn, name, role))[1]

    try:
        return {name: token(name) for name in names}
    finally:
        database.close()


@dataclass
class Live:
    """A real server: its base URL, its hub and its services (running in the server's
    thread)."""

    url: str
    hub: Hub
    services: Services


@contextmanager
def live_server(db: Path, **settings: Any) -> Iterator[Live]:
    """A real server on a free loopback port, in a thread."""
    config = replace(ServerConfig(db=db), **settings)
    services = open_services(config)
    app = create_app(services=services)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning",
                                           timeout_graceful_shutdown=2))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    started = threading.Event()

    def wait() -> None:
        while not server.started and thread.is_alive():
            started.wait(0.02)

    wait()
    assert server.started, "the server did not start"
    try:
        yield Live(f"http://127.0.0.1:{port}", services.hub, services)
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


async def queen_ending(hub: Hub) -> HubGame:
    """An anonymous 5+0 blitz game (``fide-2023-blitz``) from a king and queen against a
    king, White to move: a game whose flag is the only way it can end soon."""
    request = read_request({"timeControl": "5+0", "profile": "fide-2023-blitz",
                            "variant": "fromPosition", "fen": "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"})
    return await hub.create_game(request.game("a", "b"), Seat(), Seat(), source="open")


def memory_lobby(services: Services) -> MemoryLobby:
    """The lobby's store, in memory (one process)."""
    store = services.lobby.store
    assert isinstance(store, MemoryLobby)
    return store
