"""A real chessarbiter server on a free loopback port, in a thread, for the browser tests."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import httpx
import uvicorn

from chessarbiter.server.accounts import Role
from chessarbiter.server.app import create_app, open_services
from chessarbiter.server.config import ServerConfig

T = TypeVar("T")
START_TIMEOUT_S = 20.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Served:
    """The server running: its ``base`` URL, its ``hub`` and ``services`` (used on the
    server's loop). ``port``: a given one (a server restarted where the pages look for
    it); ``settings``: more of :class:`ServerConfig` (e.g. an injected time source)."""

    def __init__(self, db: Path, port: int | None = None, **settings: Any) -> None:
        config = ServerConfig(port=port or free_port(), db=db, **settings)
        self.port = config.port
        self.services = open_services(config)
        self.hub = self.services.hub
        self.base = f"http://127.0.0.1:{config.port}"
        app = create_app(services=self.services)
        self._server = uvicorn.Server(uvicorn.Config(
            app, host="127.0.0.1", port=config.port, log_level="warning",
            timeout_graceful_shutdown=1))  # open streams do not hold a stop
        self._thread = threading.Thread(target=self._server.run, daemon=True)

    def __enter__(self) -> Served:
        self._thread.start()
        deadline = time.monotonic() + START_TIMEOUT_S
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        """Run a coroutine on the server's loop and return its result."""
        return asyncio.run_coroutine_threadsafe(work, self.hub.loop).result(timeout=10)

    def drop_streams(self, game_id: str) -> None:
        """End every open stream of a game, as a dropped connection does."""

        async def drop() -> None:
            (await self.hub.get(game_id)).close_streams()

        self.run(drop())

    def arbiter_token(self, name: str = "arbiter") -> str:
        _, token = self.run(self.services.members.add(name, Role.ARBITER))
        return token

    def post(self, path: str, token: str, **fields: object) -> Any:
        """An API call by the account of ``token``, which must answer 200: its JSON."""
        reply = httpx.post(self.base + path, json=fields, timeout=10,
                           headers={"Authorization": f"Bearer {token}"})
        assert reply.status_code == 200, reply.text
        return reply.json()

    def open_challenge(self, **fields: str) -> dict[str, Any]:
        """An open challenge (a link per side), as the home page makes it."""
        reply = httpx.post(f"{self.base}/api/challenge/open", json=fields, timeout=10)
        reply.raise_for_status()
        data: dict[str, Any] = reply.json()
        return data
