"""The games read from the store: a game not in memory is loaded when it is asked for (a
request, a stream, a player's list of games) or due (:mod:`~.dormant`), once this process
may own it (:class:`~.ownership.Ownership`: in a cluster, it takes the game first); then the
game room plays on with it. A dormant game plays on from the start, as it was then: its
time runs from the instant the server listened."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from chessarbiter.arbiter.game import Game
from chessarbiter.clock.records import Side
from chessarbiter.server.errors import ApiError
from chessarbiter.server.games import repository
from chessarbiter.server.games.db import Worker
from chessarbiter.server.games.dormant import Dormant
from chessarbiter.server.games.meta import GameMeta
from chessarbiter.server.games.ownership import Ownership, SingleProcess
from chessarbiter.server.games.table import HubGame
from chessarbiter.store.base import StoreError


class Loader:
    """Loads games through ``reader`` into :attr:`games` (the game room's, in memory), and
    keeps the games not loaded since the start (:attr:`dormant`, loaded here when due).
    The game room gives it (:meth:`serve`) ``make``, which builds a game's
    :class:`HubGame`; ``take_over``, which plays on with a game this process has just
    become the owner of (the outage rule, a flag fallen meanwhile); ``play_on``, with one it
    owned already (dropped from memory)."""

    make: Callable[[GameMeta, Game], HubGame]
    take_over: Callable[[HubGame], Awaitable[HubGame]]
    play_on: Callable[[HubGame], None]

    def __init__(self, reader: Worker, now_ms: Callable[[], int]) -> None:
        self.reader = reader
        self.games: dict[str, HubGame] = {}
        """Games in memory: the unfinished games loaded (asked for, due, or created since
        the start) and finished ones asked for since."""
        self.dormant = Dormant(self._wake, now_ms)
        """The unfinished games not loaded since the start."""
        self.ownership: Ownership = SingleProcess()
        """Which games this process owns: all of them, or in a cluster those whose lease it
        holds (set when the server is assembled, :func:`chessarbiter.server.app.open_services`)."""

    def serve(self, make: Callable[[GameMeta, Game], HubGame],
              take_over: Callable[[HubGame], Awaitable[HubGame]],
              play_on: Callable[[HubGame], None]) -> None:
        """Hand the games read to the game room (see the class's docstring)."""
        self.make = make
        self.take_over = take_over
        self.play_on = play_on

    async def _wake(self, game_id: str) -> HubGame:
        """A dormant game due or woken: the one in memory, else read (:meth:`load`)."""
        entry = self.games.get(game_id)
        return entry if entry is not None else await self.load(game_id)

    async def exists(self, game_id: str) -> bool:
        """Whether there is a game ``game_id``, whichever process of a cluster owns it."""
        if game_id in self.games:
            return True
        return await self.reader.run(lambda store, conn: repository.exists(conn, game_id))

    async def load(self, game_id: str) -> HubGame:
        """The game ``game_id`` read from the store (the one in memory if it was loaded
        meanwhile); ``ApiError`` 404 if there is none,
        :class:`~chessarbiter.server.errors.OwnedElsewhere` (503) if another process of a
        cluster holds it."""
        if not (game_id.isascii() and game_id.isalnum() and len(game_id) <= 32):
            raise ApiError(404, f"no game {game_id[:40]!r}")
        row = await self.reader.run(lambda store, conn: repository.game_row(conn, game_id))
        if row is None:
            raise ApiError(404, f"no game {game_id!r}")
        if game_id in self.games:  # loaded meanwhile
            return self.games[game_id]
        taken = await self.ownership.admit(game_id, row[1])
        try:
            entry = await self._read(*row)
        except (StoreError, ValueError) as exc:
            raise ApiError(404, f"game {game_id!r} cannot be read: {exc}") from None
        if game_id in self.games:
            return self.games[game_id]
        sleeper = self.dormant.pop(game_id)
        if sleeper is not None and (not taken or sleeper.events == len(entry.game.log)):
            # first asked for (or due) since the start, as it was then: from the start on
            entry.live.resume(self.dormant.listening_at)
            entry.waiting_since = self.dormant.listening_at
            return await self.take_over(entry)
        if taken:  # from its last event on from now (its owner gone: not charged)
            return await self.take_over(entry)  # its flag timer runs here now
        self.games[game_id] = entry
        if not entry.over:  # dropped when an event could not be stored: plays on
            self.play_on(entry)
        return entry

    async def _read(self, game_id: str, store_id: str, meta_text: str) -> HubGame:
        meta = GameMeta.from_json(meta_text)
        game = await self.reader.run(lambda store, conn: store.load(store_id))
        return self.make(meta, game)

    async def unfinished(self) -> list[tuple[str, str]]:
        """The games not finished: public id and store id (read by the reader: never the
        writer that acknowledges moves)."""
        rows = await self.reader.run(lambda store, conn: repository.unfinished(conn))
        return rows

    async def resume(self, game_id: str, store_id: str) -> HubGame:
        """Rebuild a game from its log and play on (a cluster taking it over); the game
        in memory if it was loaded meanwhile."""
        row = await self.reader.run(lambda store, conn: repository.game_row(conn, game_id))
        if row is None:
            raise ValueError(f"no game {game_id!r}")
        return await self.take_over(await self._read(game_id, store_id, row[2]))

    async def playing(self, account: str) -> list[tuple[HubGame, Side]]:
        """The unfinished games ``account`` plays here, with its side (the side to move
        when it plays both); its dormant games are loaded first."""
        await self.dormant.wake(self.dormant.of(account))
        found = []
        for entry in self.games.values():
            if entry.over:
                continue
            side = entry.side_of(account, None)
            if side is not None:
                found.append((entry, side))
        return found

    async def playing_events(self, account: str) -> list[dict[str, Any]]:
        """The ``game`` objects (:meth:`HubGame.game_event`) of every unfinished game
        ``account`` plays: those here, then (in a cluster) those other processes own."""
        here = {entry.id: entry.game_event(side) for entry, side in await self.playing(account)}
        return [*here.values(), *await self.ownership.playing_elsewhere(account, here)]
