"""What the hub asks of a cluster (:class:`chessarbiter.server.cluster.cluster.Cluster`,
injected when the server is assembled): whether this process owns a game, the accounts and
events shared between processes. Declared here so that the game room knows no cluster."""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from chessarbiter.server.accounts import Account
from chessarbiter.server.streams.lines import Line


class Ownership(Protocol):
    """This process's part of a cluster, as the game room and the routes use it."""

    async def start(self) -> None:
        """Connect (before the hub resumes the games it can take)."""

    def run(self) -> None:
        """Start keeping the games owned (once the hub has resumed them)."""

    async def stop(self) -> None:
        """Give the games up and disconnect (once their writes are stored)."""

    def owns(self, game_id: str) -> bool:
        """Whether this process may act as the game's owner now."""

    async def claim(self, game_id: str, store_id: str) -> bool:
        """Take the game; whether it is ours."""

    async def admit(self, game_id: str, store_id: str) -> None:
        """Take the game before loading it; ``ApiError`` 503 if another process holds it."""

    async def owner(self, game_id: str) -> str | None:
        """The address of the process owning the game when it is not this one."""

    def published(self, game_id: str, line: Line) -> None:
        """A line the owner sent its own streams, for the other processes' streams."""

    def watch(self, game_id: str) -> None:
        """Another process relays the game's stream: its lines go out from now on."""

    def notify(self, account: str, data: dict[str, Any]) -> None:
        """An account's event, to its event streams on every process."""

    async def account_named(self, name: str) -> Account | None:
        """The account named ``name``, wherever it was made."""

    async def playing(self, account: str) -> list[dict[str, Any]]:
        """The ``game`` objects of the unfinished games ``account`` plays, wherever owned."""

    async def subscribe_user(self, account: str) -> asyncio.Queue[Line]:
        """A queue of the account's events from every process."""

    async def unsubscribe_user(self, account: str, queue: asyncio.Queue[Line]) -> None:
        """The account's event stream ``queue`` closed."""
