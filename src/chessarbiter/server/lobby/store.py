"""Where the lobby keeps its challenges and seeks (:class:`LobbyStore`): in this process's
memory (:class:`~chessarbiter.server.lobby.memory.MemoryLobby`) or in Redis, shared by a
cluster's processes (:class:`~chessarbiter.server.lobby.cluster_lobby.RedisLobby`); one is
chosen when the server is assembled (:func:`chessarbiter.server.app.open_services`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from chessarbiter.clock.records import Side
from chessarbiter.server.accounts import Account
from chessarbiter.server.lobby.requests import GameRequest


@dataclass
class Challenge:
    """A direct challenge from ``challenger`` to ``dest``; ``status``: ``created``,
    ``accepted``, ``declined`` or ``canceled``; ``created_ms``: when it was made (the
    server's time source); ``final_color``: the challenger's colour, drawn when the
    challenge is made if it asks for ``random`` (lichess' ``finalColor``)."""

    id: str
    challenger: Account
    dest: Account
    request: GameRequest
    status: str = "created"
    decline_reason: str = ""
    created_ms: int = 0
    final_color: Side = Side.WHITE


Seated = tuple[str, Side, str | None]
"""A seeker's game: its id, the seeker's side and (anonymous) the game secret."""


@dataclass(frozen=True)
class Paired:
    """The game of two seeks that paired: the seat of the one who waited and of the one
    who came."""

    waiting: Seated
    coming: Seated


Pair = Callable[[Account | None, str, Account | None, GameRequest], Awaitable[Paired]]
"""Create the game of two seeks that pair, from the waiting seeker's account and the
colour it asked for, and the newcomer's account and request."""


class LobbyStore(Protocol):
    """The open challenges and the waiting seeks."""

    async def keep(self, challenge: Challenge) -> None:
        """Keep an open challenge until it is taken or expires."""

    async def find(self, challenge_id: str) -> Challenge:
        """The open challenge ``challenge_id``; ``ApiError`` 404 if there is none (or it
        expired)."""

    async def take(self, challenge: Challenge) -> None:
        """Close an open challenge: only one caller does (accept, decline or cancel);
        ``ApiError`` 404 for the others."""

    async def pending_for(self, account: Account) -> tuple[list[Challenge], list[Challenge]]:
        """The open challenges to and from ``account``."""

    async def seek(self, account: Account | None, request: GameRequest, pair: Pair
                   ) -> Seated:
        """Pair with a waiting seek for the same game (``pair`` makes the game, and the
        waiting seeker is told its seat) or wait until one comes; cancelled when the seeker
        goes away."""

    def close(self) -> None:
        """The server stops: the seeks waiting here end."""

    async def aclose(self) -> None:
        """Disconnect (last, when the server has stopped)."""
