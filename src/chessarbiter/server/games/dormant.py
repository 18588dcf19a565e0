"""The games a restarted server has not loaded yet.

A server starts without rebuilding its unfinished games: it reads one line per game from
``server_deadlines`` (kept by the database's writer with every batch: the game's players,
the events of its log, how long after its last event the game is next *due*) and loads a
game when it is asked for (a request, a stream, a player's list of games) or when it falls
due: its flag may fall, its first move is late (``START_TIMEOUT_MS``), an engine is to move.
The game's time runs on from its last event from the instant the server listens, so the
time it was down is charged to no one (docs/server.md, "Storage and restarts"). A line that
is not the log's (its events differ: a crash between a commit and the line's update, a game
from an older version) makes the game due at once."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from chessarbiter.arbiter.game import Game
from chessarbiter.clock.correspondence import deadline_ms
from chessarbiter.laws.profiles import Outage
from chessarbiter.server.errors import ApiError, OwnedElsewhere
from chessarbiter.server.games.db import Due
from chessarbiter.server.games.meta import GameMeta
from chessarbiter.server.limits import START_TIMEOUT_MS

log = logging.getLogger(__name__)


def due_after(game: Game, meta: GameMeta) -> int | None:
    """How long after its last event (game time) the game needs its server if nobody asks
    for it: its flag may fall (Art. 6.8), its first move is late; at once (0) when an
    engine is to move or the arbiter has to act (a ruling awaited; an over-the-board game,
    interrupted by the restart, :func:`chessarbiter.server.games.outage.recover`, waits for him
    to start the clocks: both in the arbiter's list of games) or when it is a correspondence
    game (its deadlines are dates, which the time the server was down may have passed:
    :mod:`chessarbiter.server.games.correspondence`); ``None`` for nothing."""
    if meta.aborted or game.is_over:
        return None
    if meta.seat(game.to_move).engine is not None or game.pending_ruling is not None \
            or game.profile.outage is Outage.ARBITER \
            or deadline_ms(game.setup.control) is not None:
        return 0
    dues = [] if (left := game.time_to_flag()) is None else [left]
    if len(game.records) < 2 and meta.source != "tournament":
        dues.append(START_TIMEOUT_MS)
    return min(dues, default=None)


def due_line(game: Game, meta: GameMeta) -> Due:
    """The game's line of deadlines after its last event."""
    return meta.id, len(game.log), due_after(game, meta)


def deadline_row(game: Game, meta: GameMeta) -> tuple[Any, ...]:
    """The line of a new game, with its players' accounts."""
    return meta.id, meta.white.account, meta.black.account, len(game.log), \
        due_after(game, meta)


@dataclass
class Sleeper:
    """A game not loaded since the start: its players' accounts, when it is due (the
    server's time source; ``None``: never) and the events of its log then (``None``: not
    known, its line was stale)."""

    accounts: tuple[str | None, str | None]
    due: int | None
    events: int | None = None
    timer: asyncio.TimerHandle | None = None


class Dormant:
    """The unfinished games not loaded since the start, by id and by player; each one is
    loaded by ``load`` (the loader's) when it is due (:meth:`sleep`) or woken
    (:meth:`wake`)."""

    def __init__(self, load: Callable[[str], Awaitable[object]],
                 now_ms: Callable[[], int]) -> None:
        self.games: dict[str, Sleeper] = {}
        self.by_account: dict[str, set[str]] = {}
        self.load = load
        self.now_ms = now_ms
        """The server's time source."""
        self.listening_at = 0
        """When the hub was started: the dormant games' time runs from then."""
        self._wakes: asyncio.Queue[str] = asyncio.Queue()
        self._waker: asyncio.Task[None] | None = None

    def sleep(self, rows: list[tuple[Any, ...]], timers: bool) -> None:
        """The dormant games of :func:`~.repository.dormant`'s ``rows``, their time running
        from now; with ``timers``, each one loaded when it falls due, one after the other."""
        self.listening_at = now = self.now_ms()
        self._fill(rows, now)
        loop = asyncio.get_running_loop()
        self._waker = loop.create_task(self._waken())
        if not timers:
            return
        base = loop.time()
        for game_id, sleeper in self.games.items():
            if sleeper.due is not None:
                sleeper.timer = loop.call_at(base + max(sleeper.due - now, 0) / 1000,
                                             self._wakes.put_nowait, game_id)

    def stop(self) -> None:
        if self._waker is not None:
            self._waker.cancel()

    async def _waken(self) -> None:
        while True:
            await self.wake([await self._wakes.get()])

    async def wake(self, game_ids: list[str]) -> None:
        """Load the dormant games among ``game_ids``, one after the other (one that cannot
        be read is logged)."""
        for game_id in game_ids:
            if game_id not in self:
                continue
            try:
                await self.load(game_id)
            except OwnedElsewhere:  # a cluster's: another process plays it, its timer runs
                self.pop(game_id)
            except ApiError as exc:
                log.error("game %s: not resumed: %s", game_id, exc.message)

    async def wake_due(self) -> int:
        """Load the dormant games due by now, as their timers do (the arbiter's list of
        games, which shows those he must act on loaded: they are due at once; a time source
        that does not follow the loop's clock: tests); how many."""
        due = self.due(self.now_ms())
        await self.wake(due)
        return len(due)

    def _fill(self, rows: list[tuple[Any, ...]], listening: int) -> None:
        """The games of ``rows``, their time running from ``listening``."""
        for game_id, white, black, due_ms, fresh, events in rows:
            if not fresh:
                white = black = events = None
                due_ms = 0
            due = None if due_ms is None else listening + int(due_ms)
            self.games[game_id] = Sleeper((white, black), due, events)
            for account in {white, black} - {None}:
                self.by_account.setdefault(account, set()).add(game_id)

    def pop(self, game_id: str) -> Sleeper | None:
        """The game, no longer dormant (``None`` if it was not)."""
        sleeper = self.games.pop(game_id, None)
        if sleeper is None:
            return None
        if sleeper.timer is not None:
            sleeper.timer.cancel()
        for account in set(sleeper.accounts) - {None}:
            games = self.by_account.get(account)  # type: ignore[arg-type]
            if games is not None:
                games.discard(game_id)
                if not games:
                    del self.by_account[account]  # type: ignore[arg-type]
        return sleeper

    def due(self, now: int) -> list[str]:
        """The games due by ``now``."""
        return [game_id for game_id, s in self.games.items()
                if s.due is not None and s.due <= now]

    def of(self, account: str) -> list[str]:
        """The games ``account`` plays."""
        return sorted(self.by_account.get(account, ()))

    def __len__(self) -> int:
        return len(self.games)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self.games
