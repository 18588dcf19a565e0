"""Results kept by key and version, computed once for all who ask: the tournaments' renderings
(:class:`~chessarbiter.server.tournaments.desk.Desk`), each kept with the version of the
tournament it shows. Whoever asks for a kept version gets the kept result; concurrent askers
of a version not kept yet share one computation (single flight); a new version replaces the
old. The least recently used keys go beyond ``size``."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Kept(Generic[T]):
    """Results by key, each with its version, at most ``size`` keys (LRU)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[Hashable, tuple[Hashable, asyncio.Future[T]]] = \
            OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    async def get(self, key: Hashable, version: Hashable,
                  compute: Callable[[], Awaitable[T]]) -> T:
        """The result of ``key`` at ``version``: kept, being computed, or computed now by
        ``compute`` (in a task of its own, so that an asker going away does not stop it for
        the others). A failure is not kept: every asker waiting gets it, the next computes
        again."""
        found = self._entries.get(key)
        if found is not None and found[0] == version:
            self._entries.move_to_end(key)
            return await asyncio.shield(found[1])
        task: asyncio.Future[T] = asyncio.ensure_future(compute())
        self._entries[key] = (version, task)
        self._entries.move_to_end(key)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)
        task.add_done_callback(lambda done: self._failed(key, done))
        return await asyncio.shield(task)

    def _failed(self, key: Hashable, done: asyncio.Future[Any]) -> None:
        if done.cancelled() or done.exception() is not None:
            found = self._entries.get(key)
            if found is not None and found[1] is done:
                del self._entries[key]
