"""The flag timers: each game with a running clock has one, set with ``loop.call_at`` for the
instant its flag falls plus the lag allowed (Art. 6.8). When it fires on the game's owner,
the flag is recorded in the game's sequence (``record``, the game room's), so a command
that arrived first is served first and one arriving after the instant records the flag
before its own event."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from chessarbiter.server.games.table import HubGame

log = logging.getLogger(__name__)


def flag_instant(entry: HubGame) -> int | None:
    """When the running display's flag falls (game time), ``None`` without one."""
    game = entry.game
    if entry.over or game.pending_ruling is not None:
        return None
    left = game.time_to_flag()
    return None if left is None else entry.live.last_at() + left


def flag_fallen(entry: HubGame) -> bool:
    """Whether the flag of the side to move has fallen, the lag allowed, by the instant
    :meth:`HubGame.looked_at` gives."""
    fell = flag_instant(entry)
    side = entry.game.to_move
    return fell is not None and entry.looked_at(side) - entry.allowance(side) >= fell


class Flags:
    """The flag timers of the games in ``games``: set when ``timers`` is on, firing only
    where this process ``owns`` the game; ``record`` records a fallen flag (in the game's
    sequence)."""

    def __init__(self, timers: bool, games: dict[str, HubGame], owns: Callable[[str], bool],
                 record: Callable[[HubGame], Awaitable[None]]) -> None:
        self.timers = timers
        self.games = games
        self.owns = owns
        self.record = record

    def observe(self, entry: HubGame) -> asyncio.Future[None] | None:
        """Record a flag fallen (lag allowed) by now (Art. 6.8, 6.9), in the game's
        sequence: the task doing it (one per game at a time), or ``None`` if no flag has
        fallen."""
        if entry.flagging is not None:
            return entry.flagging
        if not flag_fallen(entry):
            return None
        task = asyncio.get_running_loop().create_task(self._in_sequence(entry))
        entry.flagging = task
        return task

    async def _in_sequence(self, entry: HubGame) -> None:
        try:
            async with entry.sequence:
                if self.games.get(entry.id) is entry:
                    await self.record(entry)
        finally:
            entry.flagging = None

    def schedule(self, entry: HubGame) -> None:
        """Set the game's one timer at the instant its flag falls (plus the lag allowed).
        A timer set for an earlier instant is kept (it looks, finds no flag fallen and is
        set again then): most moves move the instant later, and setting a timer on every
        move cost more than the rare early look."""
        fell = flag_instant(entry) if self.timers else None
        if fell is None:
            self.cancel(entry)
            return
        delay_ms = fell + entry.allowance(entry.game.to_move) - entry.live.time()
        loop = asyncio.get_running_loop()
        at = loop.time() + max(delay_ms, 0) / 1000
        if entry.timer is not None:
            if entry.timer_at <= at:
                return
            entry.timer.cancel()
        entry.timer = loop.call_at(at, self._on_timer, entry)
        entry.timer_at = at

    @staticmethod
    def cancel(entry: HubGame) -> None:
        """Stop the game's timer."""
        if entry.timer is not None:
            entry.timer.cancel()
            entry.timer = None

    def _on_timer(self, entry: HubGame) -> None:
        entry.timer = None
        if self.games.get(entry.id) is not entry or not self.owns(entry.id):
            return
        recorded = self.observe(entry)
        if recorded is None:
            if not entry.arrivals:  # else set again when the last command is served
                self.schedule(entry)  # the time source is behind the loop's clock: later
        else:
            recorded.add_done_callback(_log_failure)

    def fire_due(self) -> int:
        """Start recording every flag fallen by now, as the timers do when they are due
        (for a time source that does not follow the loop's clock: tests); how many."""
        count = 0
        for entry in tuple(self.games.values()):
            recorded = self.observe(entry)
            if recorded is not None:
                recorded.add_done_callback(_log_failure)
                count += 1
        return count


def _log_failure(future: asyncio.Future[None]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("a flag could not be recorded: %s", future.exception())
