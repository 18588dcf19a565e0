"""Games nobody starts, aborted as lichess aborts them: the player to move has let
:data:`~chessarbiter.server.limits.START_TIMEOUT_MS` (in correspondence: the days per move)
pass without the side's first move (a tournament game, an engine's turn or a game awaiting
the arbiter's ruling excepted). Looked at every second (:mod:`~.keepalive`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from chessarbiter.server.errors import ApiError
from chessarbiter.server.games import correspondence
from chessarbiter.server.games.table import HubGame
from chessarbiter.server.limits import START_TIMEOUT_MS

log = logging.getLogger(__name__)


def unstarted(entry: HubGame, now: int) -> bool:
    """Whether the player to move of ``entry`` has let the time for the side's first move
    pass by ``now`` (the server's time source)."""
    if len(entry.moves) >= 2 or entry.meta.source == "tournament":
        return False  # first, as the cheapest: every game is looked at every second
    game = entry.game
    overdue = correspondence.first_move_overdue(entry.live)  # days, not a minute
    return (not entry.over
            and (now - entry.waiting_since >= START_TIMEOUT_MS if overdue is None
                 else overdue)
            and game.pending_ruling is None
            and entry.meta.seat(game.to_move).engine is None)


class Unstarted:
    """The aborts of the games in ``games`` that this process ``owns``: ``abort`` aborts
    one (in its sequence); ``now_ms`` is the server's time source."""

    def __init__(self, now_ms: Callable[[], int], games: dict[str, HubGame],
                 owns: Callable[[str], bool],
                 abort: Callable[[HubGame], Awaitable[None]]) -> None:
        self.now_ms = now_ms
        self.games = games
        self.owns = owns
        self.abort = abort
        self._tasks: set[asyncio.Task[Any]] = set()

    def _due(self, entry: HubGame, now: int) -> bool:
        return (unstarted(entry, now) and self.games.get(entry.id) is entry
                and self.owns(entry.id))

    def abort_due(self) -> int:
        """Start aborting the games not started in time; how many."""
        now = self.now_ms()
        count = 0
        for entry in tuple(self.games.values()):
            if entry.aborting or not self._due(entry, now):
                continue
            entry.aborting = True
            task = asyncio.get_running_loop().create_task(self._abort(entry))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            count += 1
        return count

    async def _abort(self, entry: HubGame) -> None:
        try:
            async with entry.sequence:
                if self._due(entry, self.now_ms()):
                    await self.abort(entry)
                    log.info("game %s: aborted, not started in time", entry.id)
        except ApiError as exc:
            log.error("game %s: not aborted: %s", entry.id, exc.message)
        finally:
            entry.aborting = False
