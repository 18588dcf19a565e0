"""Which process owns a game, as the game room and the routes ask it: one implementation is
chosen when the server is assembled (:func:`chessarbiter.server.app.open_services`): this process
alone (:class:`SingleProcess`), or its part of a cluster
(:class:`chessarbiter.server.cluster.cluster.Cluster`). Declared here so that the game room
knows no cluster."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, Protocol

Fence = Callable[[Any, str], None]
"""Fences a new game in the store as its row is written (the store, the game's store id; in
the writer's thread), so that only its owner's writes go in."""


def unfenced(store: Any, store_id: str) -> None:
    """A game of one process: nothing to fence."""


class Ownership(Protocol):
    """This process's part in owning the games."""

    async def start(self) -> None:
        """Connect (before the hub resumes the games it can take)."""

    def run(self) -> None:
        """Start keeping the games owned (once the hub has resumed them)."""

    async def stop(self) -> None:
        """Give the games up and disconnect (once their writes are stored)."""

    def owns(self, game_id: str) -> bool:
        """Whether this process may act as the game's owner now."""

    async def reserve(self, game_id: str) -> Fence:
        """Take a new game before its row is written, so that no other process, seeing an
        unfinished game no one holds, takes it meanwhile: how its row is fenced as it is
        written; :class:`~chessarbiter.server.errors.OwnedElsewhere` (503) if another
        process holds the id."""

    async def give_up(self, game_id: str) -> None:
        """Let a game reserved here go (its row could not be written)."""

    async def admit(self, game_id: str, store_id: str) -> bool:
        """Take the game before loading it: whether it resumes as taken over (its last owner
        may have been another process: the profile's outage rule and a flag fallen meanwhile
        are applied first); :class:`~chessarbiter.server.errors.OwnedElsewhere` (503) if
        another process holds it: checked and taken in one step."""

    async def owner(self, game_id: str) -> str | None:
        """The address of the process owning the game when it is not this one."""

    async def playing_elsewhere(self, account: str, here: Collection[str]
                                ) -> list[dict[str, Any]]:
        """The ``game`` objects of the unfinished games ``account`` plays that are not
        among the games ``here`` (owned by another process)."""


class SingleProcess:
    """A server of one process: it owns every game."""

    async def start(self) -> None:
        """Nothing to connect."""

    def run(self) -> None:
        """Nothing to keep."""

    async def stop(self) -> None:
        """Nothing to give up."""

    def owns(self, game_id: str) -> bool:
        return True

    async def reserve(self, game_id: str) -> Fence:
        return unfenced

    async def give_up(self, game_id: str) -> None:
        """Nothing to let go."""

    async def admit(self, game_id: str, store_id: str) -> bool:
        return False  # never held elsewhere

    async def owner(self, game_id: str) -> str | None:
        return None

    async def playing_elsewhere(self, account: str, here: Collection[str]
                                ) -> list[dict[str, Any]]:
        return []
