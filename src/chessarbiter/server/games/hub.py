"""The game hub: every live game in memory over the SQLite store, acting as the arbiter.

Every command for a game (a player's move, offer, claim, abort or resignation, a flag, an
arbiter's decision) goes through the game's one sequence (:attr:`HubGame.sequence`), from
the check to the commit: commands for the same game are served one after the other, each
on the game as the previous one left it. A player's event is stamped when the request
arrived (lag-compensated), ruled on by the arbiter, queued for the store's next group commit
and acknowledged once durable; the update line (serialized once) then goes to every
subscriber's queue. The game's time stands still from the event until then, so no delay of
the server is charged to a player (docs/server.md, "Clocks, flags and lag"). A flag is
recorded in the same sequence when its timer fires (:mod:`~.flags`): a flag against a side
that cannot be mated is a draw, Art. 6.9, by the dead-position analysis, which runs in a
worker thread (:mod:`~.rulings`); an undetermined analysis leaves the game awaiting the
arbiter's ruling. Beside the sequence: the engines' turns (:mod:`~.engines`), the games
nobody starts (:mod:`~.unstarted`) and the keep-alives (:mod:`~.keepalive`). The services it
uses are given to it when the server is assembled
(:func:`chessarbiter.server.app.open_services`) and kept private: the database's writer and
reader, the accounts (:class:`~chessarbiter.server.accounts.Members`), the fan-out of
streams, and the loader, which reads a game from the store when first asked for or due
(:mod:`~.loading`, :mod:`~.dormant`), a game not loaded since the start running on from its
last event from the start (the time the server was down is charged to no one)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

from chessarbiter.arbiter.decisions import Decision
from chessarbiter.arbiter.errors import ArbiterError
from chessarbiter.arbiter.events import Event, FlagObserved, Moved
from chessarbiter.arbiter.game import Game
from chessarbiter.clock.records import Side
from chessarbiter.core.errors import ChessError
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.errors import ApiError, OwnedElsewhere
from chessarbiter.server.games import correspondence, repository, shapes
from chessarbiter.server.games.collector import keep_pauses_short
from chessarbiter.server.games.db import Database, Worker
from chessarbiter.server.games.dormant import due_line
from chessarbiter.server.games.engines import Engines
from chessarbiter.server.games.flags import Flags, flag_fallen, flag_instant
from chessarbiter.server.games.keepalive import evict_finished, keep_alive
from chessarbiter.server.games.loading import Loader
from chessarbiter.server.games.meta import GameMeta, Seat, new_id
from chessarbiter.server.games.outage import recover
from chessarbiter.server.games.ownership import Ownership
from chessarbiter.server.games.rulings import Rulings
from chessarbiter.server.games.table import HubGame, ndjson
from chessarbiter.server.games.unstarted import Unstarted
from chessarbiter.server.members import Members
from chessarbiter.server.streams.fanout import Fanout
from chessarbiter.server.streams.lines import close_queue

log = logging.getLogger(__name__)

EventMaker = Callable[[int], Event]
"""An event at a given game time."""


class Hub:
    """The games and the streams of one server (see the module's docstring). Use it on the
    event loop: ``await hub.start()`` ... ``await hub.stop()``."""

    def __init__(self, config: ServerConfig, db: Database, reader: Worker, members: Members,
                 loader: Loader, fanout: Fanout) -> None:
        self._config = config
        self._db = db
        self._reader = reader
        """Loads games (and reads what may take long) beside the writer."""
        self._members = members
        self._loader = loader
        loader.serve(self._entry, self._take_over, self._resume)
        self._dormant = loader.dormant
        self.games = loader.games
        """Games in memory (:attr:`~.loading.Loader.games`)."""
        self._fanout = fanout
        """Where the accounts' events and the games' lines go beyond this process's own
        queues (through Redis in a cluster)."""
        self._flags = Flags(config.timers, self.games, self._owns, self._record_flag)
        self._engines = Engines(config, self._engine_moved)
        self.unstarted = Unstarted(config.now_ms, self.games, self._owns, self._abort)
        self._rulings = Rulings()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self.finish_hooks: list[Callable[[HubGame], None]] = []
        """Called on the loop when a game has ended (durably) or was aborted."""
        self.closing_hooks: list[Callable[[], None]] = []
        """Called on the loop when the hub stops, once the streams are closed (the lobby's
        seeks withdrawn)."""
        self.stop_hooks: list[Callable[[], None]] = []
        """Called (in a thread) when the hub stops, once the games' writes are stored."""
        self.closed_hooks: list[Callable[[], Awaitable[None]]] = []
        """Awaited last when the hub stops (the lobby's connections closed)."""

    @property
    def _ownership(self) -> Ownership:
        """Which games this process owns (the loader's, set when the server is assembled)."""
        return self._loader.ownership

    # -- life --------------------------------------------------------------------------

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            raise RuntimeError("the hub is not started")
        return self._loop

    async def start(self) -> None:
        """Open the database, read the accounts and the unfinished games' deadlines (each
        game is loaded when asked for or due, :mod:`~.dormant`; in a cluster, by the process
        asked for it, or the first whose timer finds it due)."""
        self._loop = asyncio.get_running_loop()
        self._db.start(self._loop)
        self._engines.start()
        self._rulings.start()
        await self._db.run(lambda store, conn: self._members.load(conn))
        await self._fanout.start()
        await self._ownership.start()
        rows = await self._reader.run(lambda store, conn: repository.dormant(conn))
        self._dormant.sleep(rows, self._config.timers)
        self._tasks = [self.loop.create_task(keep_alive(self.games, self._fanout, self._tick)),
                       self.loop.create_task(keep_pauses_short())]
        self._ownership.run()

    async def stop(self) -> None:
        """Stop timers, engines and streams; write what is queued."""
        self._dormant.stop()
        for task in self._tasks:
            task.cancel()
        for entry in self.games.values():
            entry.stop.set()
            self._flags.cancel(entry)
            entry.close_streams()
        for queues in self._fanout.user_streams.values():
            for queue in queues:
                close_queue(queue)
        for hook in self.closing_hooks:
            hook()
        self._engines.stop()
        self._rulings.stop()
        await asyncio.to_thread(self._db.close)
        await asyncio.to_thread(self._reader.close)
        for hook in self.stop_hooks:
            await asyncio.to_thread(hook)
        await self._ownership.stop()  # the games given up once their writes are stored
        await self._fanout.stop()
        for closed in self.closed_hooks:
            await closed()

    def _tick(self, now: float) -> None:
        """Every second (:func:`~.keepalive.keep_alive`): abort the games nobody started in
        time, drop the finished ones nobody follows."""
        if self._config.timers:
            self.unstarted.abort_due()
        evict_finished(self.games, now, self.forget)

    def _owns(self, game_id: str) -> bool:
        return self._ownership.owns(game_id)

    # -- accounts' event streams -----------------------------------------------------------

    def notify(self, account: str | None, data: dict[str, Any]) -> None:
        """Send an event (``gameStart``, ``challenge``, ...) to an account's event streams
        (in a cluster, on every process)."""
        if account is not None:
            self._fanout.notify(account, ndjson(data))

    def _tell(self, entry: HubGame, shape: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
        """Send each player's event streams ``shape`` of the game (``gameStart``,
        ``gameFinish``)."""
        for side in (Side.WHITE, Side.BLACK):
            self.notify(entry.meta.seat(side).account, shape(entry.game_event(side)))

    # -- games -------------------------------------------------------------------------

    async def create_game(self, game: Game, white: Seat, black: Seat, *, source: str,
                          creator: str | None = None, rated: bool = False,
                          game_id: str | None = None, start_clocks: bool = True) -> HubGame:
        """Store a new game with its players and start it (White's clock started where the
        profile says so, unless ``start_clocks`` is false: a tournament round's clocks are
        started by its arbiter); its :class:`HubGame`."""
        most = self._config.max_games - len(self._dormant)
        if len(self.games) >= most and sum(not e.over for e in self.games.values()) >= most:
            raise ApiError(503, f"the server plays {self._config.max_games} games at most")
        public = game_id or new_id()
        while public in self.games:
            public = new_id()

        def work(store: Any, conn: sqlite3.Connection) -> GameMeta:
            store_id = store.create(game)
            fence(store, store_id)
            meta = GameMeta(public, store_id, white, black, self._config.calendar_ms(), source,
                            creator, rated)
            repository.insert_game(conn, game, meta)
            return meta

        fence = await self._ownership.reserve(public)
        try:
            meta = await self._db.run(work)
        except BaseException:
            await self._ownership.give_up(public)
            raise
        entry = self._entry(meta, game)
        self.games[public] = entry
        async with entry.sequence:
            events = len(game.log)
            # () also when it started the clocks (no decision)
            started = entry.live.start() if start_clocks else ()
            if len(game.log) > events:
                await self._record(entry, started)
            self._resume(entry)
        self._tell(entry, shapes.game_started)
        return entry

    async def get(self, game_id: str) -> HubGame:
        """The game ``game_id``, loaded from the store if it is not in memory
        (:meth:`~.loading.Loader.load`: ``ApiError`` 404 if there is none,
        :class:`OwnedElsewhere` (503) if another process of a cluster holds it)."""
        entry = self.games.get(game_id)
        return entry if entry is not None else await self._loader.load(game_id)

    def _entry(self, meta: GameMeta, game: Game) -> HubGame:
        live = correspondence.live_game(game, meta, self._config)
        entry = HubGame(meta, live, self._config.lag_for(game.setup.profile))
        entry.waiting_since = self._config.now_ms()
        entry.relay = self._fanout.relay_for(meta.id)
        return entry

    async def _take_over(self, entry: HubGame) -> HubGame:
        """Play on with a game just loaded by this process as its new owner, after the
        profile's outage rule (as after a restart) and a flag already fallen, recorded with
        the lag allowed as by the game's flag timer (a game loaded at or after its due
        time); the game in memory if it was loaded meanwhile."""
        if entry.id in self.games:
            return self.games[entry.id]
        self.games[entry.id] = entry
        # the former owner's streams may be relayed elsewhere: published until they say so
        self._fanout.watch(entry.id)
        async with entry.sequence:
            events = len(entry.game.log)
            decisions = recover(entry.live)
            if len(entry.game.log) > events:
                await self._record(entry, decisions)
            await self._record_flag(entry)
            self._resume(entry)
        return entry

    def _resume(self, entry: HubGame) -> None:
        self.games[entry.id] = entry
        self._flags.schedule(entry)
        self._engines.turn(entry)

    # -- acting ------------------------------------------------------------------------

    async def act(self, entry: HubGame, side: Side | None, make: EventMaker,
                  arrived: int | None = None) -> tuple[Decision, ...]:
        """Apply a player's (``side``) or the arbiter's (``None``) event stamped when it
        ``arrived`` (the server's time source; default now), whatever it then waited for,
        once any flag fallen by then is recorded; returns the arbiter's decisions once the
        event is durable. In the game's sequence: checked against the game as the previous
        command left it. ``ApiError`` 400 naming the reason if the arbiter rejects it
        (nothing changes), 503 if it could not be stored."""
        arrival = (side, self._config.now_ms() if arrived is None else arrived)
        entry.arrivals.append(arrival)
        try:
            async with entry.sequence:
                return await self._act(entry, side, make, arrival[1])
        finally:
            entry.arrivals.remove(arrival)
            if entry.timer is None and self.games.get(entry.id) is entry:
                self._flags.schedule(entry)  # a flag it held back (:meth:`HubGame.looked_at`)

    async def _act(self, entry: HubGame, side: Side | None, make: EventMaker,
                   arrived: int) -> tuple[Decision, ...]:
        self._check_held(entry)
        if entry.meta.aborted:
            raise ApiError(400, f"game {entry.id}: the game was aborted")
        if side is not None and flag_fallen(entry):
            await self._record_flag(entry)
            if entry.game.is_over:
                raise ApiError(400, f"game {entry.id}: the game is over "
                                    f"({entry.game.outcome})")
        while True:
            now = entry.live.time_at(arrived)
            at = entry.stamp(side, arrived)
            event = make(at)
            try:
                decisions = await self._rulings.rule(entry, event)
            except (ArbiterError, ChessError) as exc:
                raise ApiError(400, f"game {entry.id}: {exc}") from None
            if decisions is not None:
                break  # else another event came first while the analysis ran: again
        if side is not None:
            entry.spend_lag(side, now - at)
        await self._record(entry, decisions)
        return decisions

    def _check_held(self, entry: HubGame) -> None:
        """``ApiError`` 503 unless this hub still holds ``entry`` as the game (a command
        queued behind one whose event could not be stored finds the game dropped)."""
        if self.games.get(entry.id) is not entry:
            raise ApiError(503, f"game {entry.id}: the game was reloaded; try again")
        if not self._ownership.owns(entry.id):
            raise OwnedElsewhere(entry.id, "another process owns it now")

    def _record(self, entry: HubGame, decisions: tuple[Decision, ...]) -> asyncio.Future[None]:
        """Store the game's last event (group commit); on success publish its update line
        and end the game's streams if it ended. The game's time stands still from the event
        until the line goes out (delivered: the opponent's clock starts then), so the wait
        for the store is charged to no one. The engine's turn follows at once, the flag
        timer once delivered."""
        game = entry.game
        event = game.log[-1]
        line = entry.applied(event, decisions)
        entry.live.pause()
        outcome = game.outcome
        ended = outcome is not None
        done: asyncio.Future[None] = self.loop.create_future()

        def stored(error: BaseException | None) -> None:
            entry.live.resume()
            if error is not None:
                log.error("game %s: event %s not stored: %s", entry.id, event.kind, error)
                self.forget(entry)
                if not done.done():
                    done.set_exception(ApiError(503, f"game {entry.id}: the event could not "
                                                     f"be stored ({error})"))
                return
            entry.publish(line)
            self._flags.schedule(entry)
            if ended:
                self._finished(entry)
            if not done.done():
                done.set_result(None)

        if type(event) is Moved:
            entry.waiting_since = self._config.now_ms()
        self._db.append(entry.meta.store_id, event, None if outcome is None else str(outcome),
                       stored, due_line(game, entry.meta))
        if ended:
            entry.stop.set()
        else:
            self._engines.turn(entry)
        return done

    def forget(self, entry: HubGame) -> None:
        """Drop a game from memory (another process owns it now; its event could not be
        stored; it is finished and nobody follows it): read from the store when next asked
        for."""
        entry.stop.set()
        self._flags.cancel(entry)
        entry.close_streams()
        if self.games.get(entry.id) is entry:
            del self.games[entry.id]

    def _finished(self, entry: HubGame) -> None:
        entry.publish(None)
        entry.subscribers.clear()
        meta = entry.meta
        self._db.submit(lambda store, conn: repository.finish(conn, meta))
        self._tell(entry, shapes.game_finished)
        for hook in self.finish_hooks:
            hook(entry)
        self._engines.close(entry)

    async def abort(self, entry: HubGame, side: Side) -> None:
        """Abort a game before both players have moved (no result: lichess' abort), in the
        game's sequence (no move or resignation comes between the check and the abort)."""
        async with entry.sequence:
            await self._abort(entry)

    async def _abort(self, entry: HubGame) -> None:
        self._check_held(entry)
        if entry.over:
            raise ApiError(400, f"game {entry.id}: the game is over")
        if len(entry.moves) >= 2:
            raise ApiError(400, f"game {entry.id}: a game can be aborted only before both "
                                "players have moved; resign or offer a draw")
        meta = entry.meta.aborting()
        await self._db.run(lambda store, conn: repository.finish(conn, meta))
        entry.publish(entry.aborted(meta))
        entry.stop.set()
        self._flags.cancel(entry)
        self._finished(entry)

    # -- flags and engines -------------------------------------------------------------

    async def _record_flag(self, entry: HubGame) -> None:
        """Record the flag fallen, if one has (in the game's sequence)."""
        while True:
            fell = flag_instant(entry)
            if fell is None or not flag_fallen(entry):
                return
            try:
                decisions = await self._rulings.rule(entry, FlagObserved(fell))
            except ArbiterError as exc:  # e.g. a claim awaits the arbiter's ruling first
                log.info("game %s: flag not recorded: %s", entry.id, exc)
                return
            if decisions is not None:
                await self._record(entry, decisions)
                return

    def fire_due(self) -> int:
        """Start recording every flag fallen by now (as the timers do when they are due),
        then aborting the games not started in time (as the keep-alive tick does): for a
        time source that does not follow the loop's clock (tests). How many flags."""
        count = self._flags.fire_due()
        self.unstarted.abort_due()
        return count

    async def _engine_moved(self, entry: HubGame, side: Side, make: EventMaker) -> None:
        if self.games.get(entry.id) is entry:
            await self.act(entry, side, make)
