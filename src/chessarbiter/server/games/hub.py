"""The game hub: every live game in memory over the SQLite store, acting as the arbiter.

Every command for a game (a player's move, offer, claim, abort or resignation, a flag, an
arbiter's decision) goes through the game's one sequence (:attr:`HubGame.sequence`), from
the check to the commit: commands for the same game are served one after the other, each
on the game as the previous one left it. A player's event is stamped when the request
arrived (lag-compensated), ruled on by the arbiter, queued for the store's next group commit
and acknowledged once durable; the update line (serialized once) then goes to every
subscriber's queue. The game's time stands still from the event until then, so no delay of
the server is charged to a player (docs/server.md, "Clocks, flags and lag"). Each game
with a running clock has one timer, set with ``loop.call_at`` for the instant its flag
falls: it records the flag through the arbiter (a flag against a side that cannot be mated
is a draw, Art. 6.9, by the dead-position analysis; an undetermined analysis leaves the
game awaiting the arbiter's ruling). Engines think in worker threads. On start, the
unfinished games are not rebuilt: each is loaded when first asked for or due
(:mod:`~chessarbiter.server.games.dormant`), its time running on from its last event from the
start (the time the server was down is charged to no one)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any, Final

from chessarbiter.arbiter.decisions import Decision
from chessarbiter.arbiter.errors import AnalysisAsked, ArbiterError
from chessarbiter.arbiter.events import (
    Analysis,
    Event,
    FlagObserved,
    Moved,
    Question,
)
from chessarbiter.arbiter.game import Game
from chessarbiter.clock.records import Side
from chessarbiter.core.errors import ChessError
from chessarbiter.server.accounts import (
    Account,
    Accounts,
    Role,
    Sessions,
    delete_session,
    hash_secret,
    insert_account,
    insert_session,
)
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.errors import ApiError, OwnedElsewhere
from chessarbiter.server.games import correspondence, repository, shapes
from chessarbiter.server.games.collector import keep_pauses_short
from chessarbiter.server.games.db import Database, Worker
from chessarbiter.server.games.dormant import Dormant, due_line
from chessarbiter.server.games.meta import GameMeta, Seat, new_id
from chessarbiter.server.games.outage import recover
from chessarbiter.server.games.ownership import Ownership, SingleProcess
from chessarbiter.server.games.table import HubGame, ndjson
from chessarbiter.server.limits import START_TIMEOUT_MS, Limits
from chessarbiter.server.streams.fanout import Fanout, InProcess
from chessarbiter.server.streams.lines import Line, close_queue
from chessarbiter.store.base import StoreError

log = logging.getLogger(__name__)

KEEPALIVE_S: Final = 7.0
"""A stream with nothing to say gets an empty line this often (as lichess)."""

KEEPALIVE_TICK_S: Final = 1.0
"""How often the games' streams are looked at for one (the lines' spacing is at most
:data:`KEEPALIVE_S` plus this)."""

KEEP_FINISHED_S: Final = 60.0
"""A finished game stays in memory this long after its last line (its players' last reads,
the page's PGN), then is read from the store when asked for: memory holds the live games,
not every game played since the start."""

RULING_WORKERS: Final = 2
"""Threads for the dead-position analyses a ruling asks for (flags, resignations)."""

EventMaker = Callable[[int], Event]
"""An event at a given game time."""


def wall_ms() -> int:
    return time.time_ns() // 1_000_000


class Hub:
    """The games, the accounts and the streams of one server (see the module's docstring).
    Use it on the event loop: ``await hub.start()`` ... ``await hub.stop()``."""

    def __init__(self, config: ServerConfig, db: Database | None = None, *,
                 fanout: Fanout | None = None) -> None:
        self.config = config
        self.db = db or Database(config.db)
        self.reader = Worker(config.db, "chessarbiter-db-read")
        """Loads games (and reads what may take long) beside the writer."""
        self.accounts = Accounts()
        self.games: dict[str, HubGame] = {}
        """Games in memory: the unfinished games loaded (asked for, due, or created since
        the start) and finished ones asked for since."""
        self.dormant = Dormant()
        """The unfinished games not loaded since the start (:mod:`~.dormant`)."""
        self.listening_at = 0
        """When the hub was started (the server's time source): the dormant games' time
        runs from then."""
        self._wakes: asyncio.Queue[str] = asyncio.Queue()
        self.limits = Limits(config.now_ms)
        self.sessions = Sessions(wall_ms)
        """The browsers signed in (``POST /api/session``)."""
        self.fanout: Fanout = InProcess() if fanout is None else fanout
        """Where the accounts' events and the games' lines go beyond this process's own
        queues (through Redis in a cluster)."""
        self._engines: ThreadPoolExecutor | None = None
        self._rulings: ThreadPoolExecutor | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._keepalive: asyncio.Task[None] | None = None
        self._collector: asyncio.Task[None] | None = None
        self._waker: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.finish_hooks: list[Callable[[HubGame], None]] = []
        """Called on the loop when a game has ended (durably) or was aborted."""
        self.closing_hooks: list[Callable[[], None]] = []
        """Called on the loop when the hub stops, once the streams are closed (the lobby's
        seeks withdrawn)."""
        self.stop_hooks: list[Callable[[], None]] = []
        """Called (in a thread) when the hub stops, once the games' writes are stored."""
        self.closed_hooks: list[Callable[[], Awaitable[None]]] = []
        """Awaited last when the hub stops (the lobby's connections closed)."""
        self.ownership: Ownership = SingleProcess()
        """Which games this process owns: all of them, or in a cluster (``config.bus``) those
        whose lease it holds (set when the server is assembled,
        :func:`chessarbiter.server.app.open_hub`)."""

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
        self.db.start(self._loop)
        self._engines = ThreadPoolExecutor(self.config.engine_workers,
                                           thread_name_prefix="chessarbiter-engine")
        self._rulings = ThreadPoolExecutor(RULING_WORKERS,
                                           thread_name_prefix="chessarbiter-ruling")
        await self.db.run(self._load_accounts)
        await self.fanout.start()
        await self.ownership.start()
        rows = await self.reader.run(lambda store, conn: repository.dormant(conn))
        self._sleep(rows)
        self._keepalive = self.loop.create_task(self._keep_alive())
        self._collector = self.loop.create_task(keep_pauses_short())
        self._waker = self.loop.create_task(self._waken())
        self.ownership.run()

    def _sleep(self, rows: list[tuple[Any, ...]]) -> None:
        """The dormant games of ``rows``, each woken when due (its timer)."""
        self.listening_at = now = self.config.now_ms()
        self.dormant.fill(rows, now)
        if not self.config.timers:
            return
        loop = self.loop
        base = loop.time()
        for game_id, sleeper in self.dormant.games.items():
            if sleeper.due is not None:
                sleeper.timer = loop.call_at(base + max(sleeper.due - now, 0) / 1000,
                                             self._wakes.put_nowait, game_id)

    async def _waken(self) -> None:
        """Load the dormant games as they fall due, one after the other."""
        while True:
            await self.wake([await self._wakes.get()])

    async def wake(self, game_ids: list[str]) -> None:
        """Load the dormant games among ``game_ids``, one after the other (one that cannot
        be read is logged)."""
        for game_id in game_ids:
            if game_id not in self.dormant:
                continue
            try:
                await self.get(game_id)
            except OwnedElsewhere:  # a cluster's: another process plays it, its timer runs
                self.dormant.pop(game_id)
            except ApiError as exc:
                log.error("game %s: not resumed: %s", game_id, exc.message)

    async def wake_due(self) -> int:
        """Load the dormant games due by now, as their timers do (the arbiter's list of
        games, which shows those he must act on loaded: they are due at once; a time source
        that does not follow the loop's clock: tests); how many."""
        due = self.dormant.due(self.config.now_ms())
        await self.wake(due)
        return len(due)

    async def stop(self) -> None:
        """Stop timers, engines and streams; write what is queued."""
        for task in (self._keepalive, self._collector, self._waker):
            if task is not None:
                task.cancel()
        for entry in self.games.values():
            entry.stop.set()
            if entry.timer is not None:
                entry.timer.cancel()
            entry.close_streams()
        for queues in self.fanout.user_streams.values():
            for queue in queues:
                close_queue(queue)
        for hook in self.closing_hooks:
            hook()
        for pool in (self._engines, self._rulings):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        await asyncio.to_thread(self.db.close)
        await asyncio.to_thread(self.reader.close)
        for hook in self.stop_hooks:
            await asyncio.to_thread(hook)
        await self.ownership.stop()  # the games given up once their writes are stored
        await self.fanout.stop()
        for closed in self.closed_hooks:
            await closed()

    # -- accounts ----------------------------------------------------------------------

    async def account_named(self, name: str) -> Account | None:
        """The account named ``name`` (in a cluster, wherever it was made)."""
        known = self.accounts.by_name(name)
        return known if known is not None else await self.ownership.account_named(name)

    async def add_account(self, name: str, role: Role = Role.PLAYER) -> tuple[Account, str]:
        """A new named account and its API token (shown once; kept hashed);
        ``AccountError`` if the name is invalid or taken."""
        account, token, digest = await self.db.run(
            lambda store, conn: insert_account(conn, name, role))
        self.accounts.remember(account, digest)
        return account, token

    def _load_accounts(self, store: Any, conn: sqlite3.Connection) -> None:
        self.accounts.load(conn)
        self.sessions.load(conn)

    async def open_session(self, account: Account) -> str:
        """A new browser session for ``account`` (stored): its secret, for the cookie."""
        created = wall_ms()
        secret, digest = await self.db.run(
            lambda store, conn: insert_session(conn, account.id, created))
        self.sessions.remember(digest, account.id, created)
        return secret

    async def close_session(self, secret: str) -> None:
        """End the browser session ``secret``."""
        digest = hash_secret(secret)
        await self.db.run(lambda store, conn: delete_session(conn, digest))
        self.sessions.forget(digest)

    # -- games -------------------------------------------------------------------------

    async def create_game(self, game: Game, white: Seat, black: Seat, *, source: str,
                          creator: str | None = None, rated: bool = False,
                          game_id: str | None = None, start_clocks: bool = True) -> HubGame:
        """Store a new game with its players and start it (White's clock started where the
        profile says so, unless ``start_clocks`` is false: a tournament round's clocks are
        started by its arbiter); its :class:`HubGame`."""
        most = self.config.max_games - len(self.dormant)
        if len(self.games) >= most and sum(not e.over for e in self.games.values()) >= most:
            raise ApiError(503, f"the server plays {self.config.max_games} games at most")
        public = game_id or new_id()
        while public in self.games:
            public = new_id()

        def work(store: Any, conn: sqlite3.Connection) -> GameMeta:
            store_id = store.create(game)
            fence(store, store_id)
            meta = GameMeta(public, store_id, white, black, self.config.calendar_ms(), source,
                            creator, rated)
            repository.insert_game(conn, game, meta)
            return meta

        fence = await self.ownership.reserve(public)
        try:
            meta = await self.db.run(work)
        except BaseException:
            await self.ownership.give_up(public)
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
        for side in (Side.WHITE, Side.BLACK):
            self._notify_start(entry, side)
        return entry

    async def exists(self, game_id: str) -> bool:
        """Whether there is a game ``game_id``, whichever process of a cluster owns it."""
        if game_id in self.games:
            return True
        return await self.reader.run(lambda store, conn: repository.exists(conn, game_id))

    async def get(self, game_id: str) -> HubGame:
        """The game ``game_id`` (loaded from the store if it is not in memory: a dormant
        game then plays on, its time running from the start, :mod:`~.dormant`);
        ``ApiError`` 404 if there is none, :class:`OwnedElsewhere` (503) if another process
        of a cluster holds it."""
        entry = self.games.get(game_id)
        if entry is not None:
            return entry
        if not (game_id.isascii() and game_id.isalnum() and len(game_id) <= 32):
            raise ApiError(404, f"no game {game_id[:40]!r}")
        row = await self.reader.run(lambda store, conn: repository.game_row(conn, game_id))
        if row is None:
            raise ApiError(404, f"no game {game_id!r}")
        if game_id in self.games:  # loaded meanwhile
            return self.games[game_id]
        taken = await self.ownership.admit(game_id, row[1])
        try:
            entry = await self._load(*row)
        except (StoreError, ValueError) as exc:
            raise ApiError(404, f"game {game_id!r} cannot be read: {exc}") from None
        if game_id in self.games:
            return self.games[game_id]
        sleeper = self.dormant.pop(game_id)
        if sleeper is not None and (not taken or sleeper.events == len(entry.game.log)):
            # first asked for (or due) since the start, as it was then: from the start on
            entry.live.resume(self.listening_at)
            entry.waiting_since = self.listening_at
            return await self._take_over(entry)
        if taken:  # from its last event on from now (its owner gone: not charged)
            return await self._take_over(entry)  # its flag timer runs here now
        self.games[game_id] = entry
        if not entry.over:  # dropped when an event could not be stored: plays on
            self._resume(entry)
        return entry

    async def _load(self, game_id: str, store_id: str, meta_text: str) -> HubGame:
        meta = GameMeta.from_json(meta_text)
        game = await self.reader.run(lambda store, conn: store.load(store_id))
        return self._entry(meta, game)

    def _entry(self, meta: GameMeta, game: Game) -> HubGame:
        live = correspondence.live_game(game, meta, self.config)
        entry = HubGame(meta, live, self.config.lag_for(game.setup.profile))
        entry.waiting_since = self.config.now_ms()
        entry.relay = self.fanout.relay_for(meta.id)
        return entry

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
        return await self._take_over(await self._load(game_id, store_id, row[2]))

    async def _take_over(self, entry: HubGame) -> HubGame:
        """Play on with a game just loaded by this process as its new owner, after the
        profile's outage rule (as after a restart) and a flag already fallen, recorded with
        the lag allowed as by the game's flag timer (a game loaded at or after its due
        time); the game in memory if it was loaded meanwhile."""
        if entry.id in self.games:
            return self.games[entry.id]
        self.games[entry.id] = entry
        # the former owner's streams may be relayed elsewhere: published until they say so
        self.fanout.watch(entry.id)
        async with entry.sequence:
            events = len(entry.game.log)
            decisions = recover(entry.live)
            if len(entry.game.log) > events:
                await self._record(entry, decisions)
            await self._record_flag(entry)
            self._resume(entry)
        return entry

    def forget(self, entry: HubGame) -> None:
        """Drop a game from memory (another process owns it now)."""
        self._drop(entry)

    def _resume(self, entry: HubGame) -> None:
        self.games[entry.id] = entry
        self._schedule(entry)
        self._engine_turn(entry)

    # -- acting ------------------------------------------------------------------------

    async def act(self, entry: HubGame, side: Side | None, make: EventMaker,
                  arrived: int | None = None) -> tuple[Decision, ...]:
        """Apply a player's (``side``) or the arbiter's (``None``) event stamped when it
        ``arrived`` (the server's time source; default now), whatever it then waited for,
        once any flag fallen by then is recorded; returns the arbiter's decisions once the
        event is durable. In the game's sequence: checked against the game as the previous
        command left it. ``ApiError`` 400 naming the reason if the arbiter rejects it
        (nothing changes), 503 if it could not be stored."""
        arrival = (side, self.config.now_ms() if arrived is None else arrived)
        entry.arrivals.append(arrival)
        try:
            async with entry.sequence:
                return await self._act(entry, side, make, arrival[1])
        finally:
            entry.arrivals.remove(arrival)
            if entry.timer is None and self.games.get(entry.id) is entry:
                self._schedule(entry)  # a flag it held back (:meth:`HubGame.looked_at`)

    async def _act(self, entry: HubGame, side: Side | None, make: EventMaker,
                   arrived: int) -> tuple[Decision, ...]:
        self._check_held(entry)
        if entry.meta.aborted:
            raise ApiError(400, f"game {entry.id}: the game was aborted")
        if side is not None and self._flag_fallen(entry):
            await self._record_flag(entry)
            if entry.game.is_over:
                raise ApiError(400, f"game {entry.id}: the game is over "
                                    f"({entry.game.outcome})")
        while True:
            now = entry.live.time_at(arrived)
            at = entry.stamp(side, arrived)
            event = make(at)
            try:
                decisions = await self._rule(entry, event)
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
        if not self.ownership.owns(entry.id):
            raise OwnedElsewhere(entry.id, "another process owns it now")

    async def _rule(self, entry: HubGame, event: Event) -> tuple[Decision, ...] | None:
        """The arbiter's ruling on ``event``. When the ruling asks whether a side can still
        checkmate (the arbiter says so: :class:`AnalysisAsked`; a flag, Art. 6.9; a
        resignation under F23 5.1.2), the analysis runs in a worker thread (it may take
        seconds) and the event is applied with its answer recorded, as the arbiter records
        it; ``None`` if the game changed meanwhile."""
        if self._rulings is None:
            return entry.live.apply(event)
        try:
            return entry.game.apply_unless_asked(event)
        except AnalysisAsked as asked:
            question = asked
        version = entry.version
        verdict = await self.loop.run_in_executor(self._rulings, question.answer)
        if entry.version != version:
            return None
        analysis = Analysis(Question.CAN_MATE, verdict.outcome, verdict.reason)
        ruled = replace(event, analysis=analysis)  # type: ignore[arg-type]
        return entry.game.replay_event(ruled, recorded=True)

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
                self._drop(entry)
                if not done.done():
                    done.set_exception(ApiError(503, f"game {entry.id}: the event could not "
                                                     f"be stored ({error})"))
                return
            entry.publish(line)
            self._schedule(entry)
            if ended:
                self._finished(entry)
            if not done.done():
                done.set_result(None)

        if type(event) is Moved:
            entry.waiting_since = self.config.now_ms()
        self.db.append(entry.meta.store_id, event, None if outcome is None else str(outcome),
                       stored, due_line(game, entry.meta))
        if ended:
            entry.stop.set()
        else:
            self._engine_turn(entry)
        return done

    def _drop(self, entry: HubGame) -> None:
        """Forget a game whose event could not be stored: loaded again from the store when
        next asked for."""
        entry.stop.set()
        if entry.timer is not None:
            entry.timer.cancel()
        entry.close_streams()
        if self.games.get(entry.id) is entry:
            del self.games[entry.id]

    def _finished(self, entry: HubGame) -> None:
        entry.publish(None)
        entry.subscribers.clear()
        meta = entry.meta
        self.db.submit(lambda store, conn: repository.finish(conn, meta))
        for side in (Side.WHITE, Side.BLACK):
            self._notify_finish(entry, side)
        for hook in self.finish_hooks:
            hook(entry)
        if entry.engine is not None and self._engines is not None:
            engine, entry.engine = entry.engine, None
            self.loop.run_in_executor(self._engines, engine.close)  # an external process ends

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
        await self.db.run(lambda store, conn: repository.finish(conn, meta))
        entry.publish(entry.aborted(meta))
        entry.stop.set()
        if entry.timer is not None:
            entry.timer.cancel()
            entry.timer = None
        self._finished(entry)

    # -- flags -------------------------------------------------------------------------

    def _flag_instant(self, entry: HubGame) -> int | None:
        """When the running display's flag falls (game time), ``None`` without one."""
        game = entry.game
        if entry.over or game.pending_ruling is not None:
            return None
        left = game.time_to_flag()
        return None if left is None else entry.live.last_at() + left

    def _observe_flag(self, entry: HubGame) -> asyncio.Future[None] | None:
        """Record a flag fallen (lag allowed) by now (Art. 6.8, 6.9), in the game's
        sequence: the task doing it (one per game at a time), or ``None`` if no flag has
        fallen."""
        if entry.flagging is not None:
            return entry.flagging
        if not self._flag_fallen(entry):
            return None
        task = self.loop.create_task(self._flag_in_sequence(entry))
        entry.flagging = task
        return task

    async def _flag_in_sequence(self, entry: HubGame) -> None:
        try:
            async with entry.sequence:
                if self.games.get(entry.id) is entry:
                    await self._record_flag(entry)
        finally:
            entry.flagging = None

    def _flag_fallen(self, entry: HubGame) -> bool:
        fell = self._flag_instant(entry)
        side = entry.game.to_move
        return fell is not None and entry.looked_at(side) - entry.allowance(side) >= fell

    async def _record_flag(self, entry: HubGame) -> None:
        """Record the flag fallen, if one has (in the game's sequence)."""
        while True:
            fell = self._flag_instant(entry)
            if fell is None or not self._flag_fallen(entry):
                return
            try:
                decisions = await self._rule(entry, FlagObserved(fell))
            except ArbiterError as exc:  # e.g. a claim awaits the arbiter's ruling first
                log.info("game %s: flag not recorded: %s", entry.id, exc)
                return
            if decisions is not None:
                await self._record(entry, decisions)
                return

    def _schedule(self, entry: HubGame) -> None:
        """Set the game's one timer at the instant its flag falls (plus the lag allowed).
        A timer set for an earlier instant is kept (it looks, finds no flag fallen and is
        set again then): most moves move the instant later, and setting a timer on every
        move cost more than the rare early look."""
        fell = self._flag_instant(entry) if self.config.timers else None
        if fell is None:
            if entry.timer is not None:
                entry.timer.cancel()
                entry.timer = None
            return
        delay_ms = fell + entry.allowance(entry.game.to_move) - entry.live.time()
        loop = self.loop
        at = loop.time() + max(delay_ms, 0) / 1000
        if entry.timer is not None:
            if entry.timer_at <= at:
                return
            entry.timer.cancel()
        entry.timer = loop.call_at(at, self._on_timer, entry)
        entry.timer_at = at

    def _on_timer(self, entry: HubGame) -> None:
        entry.timer = None
        if self.games.get(entry.id) is not entry or not self.ownership.owns(entry.id):
            return
        recorded = self._observe_flag(entry)
        if recorded is None:
            if not entry.arrivals:  # else set again when the last command is served
                self._schedule(entry)  # the time source is behind the loop's clock: later
        else:
            recorded.add_done_callback(_log_failure)

    def fire_due(self) -> int:
        """Start recording every flag fallen by now (as the timers do when they are due),
        then aborting the games not started in time (as the keep-alive tick does): for a
        time source that does not follow the loop's clock (tests). How many flags."""
        count = 0
        for entry in tuple(self.games.values()):
            recorded = self._observe_flag(entry)
            if recorded is not None:
                recorded.add_done_callback(_log_failure)
                count += 1
        self.abort_unstarted()
        return count

    # -- games nobody starts -------------------------------------------------------------

    def _unstarted(self, entry: HubGame, now: int) -> bool:
        """Whether the player to move has let :data:`START_TIMEOUT_MS` (in correspondence:
        the days per move) pass without the side's first move (a tournament game, an
        engine's turn or a game awaiting the arbiter's ruling excepted)."""
        if len(entry.moves) >= 2 or entry.meta.source == "tournament":
            return False  # first, as the cheapest: every game is looked at every second
        game = entry.game
        overdue = correspondence.first_move_overdue(entry.live)  # days, not a minute
        return (not entry.over
                and (now - entry.waiting_since >= START_TIMEOUT_MS if overdue is None
                     else overdue)
                and game.pending_ruling is None
                and entry.meta.seat(game.to_move).engine is None
                and self.games.get(entry.id) is entry
                and self.ownership.owns(entry.id))

    def abort_unstarted(self) -> int:
        """Start aborting the games whose player to move has not made the side's first move
        within :data:`START_TIMEOUT_MS` (as lichess aborts them); how many."""
        now = self.config.now_ms()
        count = 0
        for entry in tuple(self.games.values()):
            if entry.aborting or not self._unstarted(entry, now):
                continue
            entry.aborting = True
            task = self.loop.create_task(self._abort_unstarted(entry))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            count += 1
        return count

    async def _abort_unstarted(self, entry: HubGame) -> None:
        try:
            async with entry.sequence:
                if self._unstarted(entry, self.config.now_ms()):
                    await self._abort(entry)
                    log.info("game %s: aborted, not started in time", entry.id)
        except ApiError as exc:
            log.error("game %s: not aborted: %s", entry.id, exc.message)
        finally:
            entry.aborting = False

    # -- engines -----------------------------------------------------------------------

    def _engine_turn(self, entry: HubGame) -> None:
        """Start the engine's search when it has the move (in a worker thread)."""
        game = entry.game
        if entry.over or entry.thinking or game.pending_ruling is not None:
            return
        side = game.to_move
        seat = entry.meta.seat(side)
        if seat.engine is None or self._engines is None:
            return
        from chessarbiter.server.games.engines import engine_for, think  # on an engine's turn only

        if entry.engine is None:
            entry.engine = engine_for(seat, self.config, game.setup.chess960)
        entry.thinking = True
        job = self.loop.run_in_executor(
            self._engines, think, entry.engine, game.position(), game.setup.control,
            entry.live.clocks(), entry.stop)
        task = self.loop.create_task(self._engine_moved(entry, side, job))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _engine_moved(self, entry: HubGame, side: Side,
                            job: asyncio.Future[Callable[[Game, int], Event]]) -> None:
        try:
            answer = await job
        except (asyncio.CancelledError, RuntimeError):
            return
        finally:
            entry.thinking = False
        if entry.over or entry.game.to_move is not side or self.games.get(entry.id) is not entry:
            return
        try:
            await self.act(entry, side, lambda at: answer(entry.game, at))
        except ApiError as exc:
            log.error("game %s: the engine's move was refused: %s", entry.id, exc.message)

    # -- streams -----------------------------------------------------------------------

    async def subscribe_user(self, account: str) -> asyncio.Queue[Line]:
        """A queue of the account's events (in a cluster, from every process)."""
        return await self.fanout.subscribe_user(account)

    async def unsubscribe_user(self, account: str, queue: asyncio.Queue[Line]) -> None:
        await self.fanout.unsubscribe_user(account, queue)

    def notify(self, account: str | None, data: dict[str, Any]) -> None:
        """Send an event (``gameStart``, ``challenge``, ...) to an account's event streams
        (in a cluster, on every process)."""
        if account is not None:
            self.fanout.notify(account, ndjson(data))

    def game_event(self, entry: HubGame, side: Side) -> dict[str, Any]:
        """The ``game`` object of ``gameStart``/``gameFinish`` and ``nowPlaying`` for
        ``side``'s player (:func:`shapes.game_event`)."""
        return shapes.game_event(entry.game, entry.meta, entry.moves, entry.live.clocks(),
                                 side)

    def _notify_start(self, entry: HubGame, side: Side) -> None:
        self.notify(entry.meta.seat(side).account,
                    shapes.game_started(self.game_event(entry, side)))

    def _notify_finish(self, entry: HubGame, side: Side) -> None:
        self.notify(entry.meta.seat(side).account,
                    shapes.game_finished(self.game_event(entry, side)))

    async def playing(self, account: str) -> list[tuple[HubGame, Side]]:
        """The unfinished games ``account`` plays here, with its side (the side to move
        when it plays both); its dormant games are loaded first."""
        await self.wake(self.dormant.of(account))
        found = []
        for entry in self.games.values():
            if entry.over:
                continue
            side = entry.side_of(account, None)
            if side is not None:
                found.append((entry, side))
        return found

    async def playing_events(self, account: str) -> list[dict[str, Any]]:
        """The ``game`` objects (:meth:`game_event`) of every unfinished game ``account``
        plays: those here, then (in a cluster) those other processes own."""
        here = {entry.id: self.game_event(entry, side)
                for entry, side in await self.playing(account)}
        return [*here.values(), *await self.ownership.playing_elsewhere(account, here)]

    def evict_finished(self, now: float) -> int:
        """Drop from memory the finished games nobody follows whose last line is
        :data:`KEEP_FINISHED_S` old at ``now`` (``time.monotonic``); how many."""
        old = now - KEEP_FINISHED_S
        gone = [entry for entry in self.games.values()
                if entry.over and not entry.subscribers and entry.published_at <= old]
        for entry in gone:
            self._drop(entry)
        return len(gone)

    async def _keep_alive(self) -> None:
        """Every second, an empty line to each game's streams that have had nothing for
        :data:`KEEPALIVE_S` (so each game at its own instant: all of them at once stalled
        the loop for tens of ms under load), and to the users' idle streams every
        :data:`KEEPALIVE_S`."""
        users_at = time.monotonic() + KEEPALIVE_S
        while True:
            await asyncio.sleep(KEEPALIVE_TICK_S)
            if self.config.timers:
                self.abort_unstarted()
            now = time.monotonic()
            self.evict_finished(now)
            quiet = now - KEEPALIVE_S
            for entry in tuple(self.games.values()):
                if entry.subscribers and entry.published_at <= quiet:
                    entry.publish(b"\n")
            if now < users_at:
                continue
            users_at = now + KEEPALIVE_S
            for queues in self.fanout.user_streams.values():
                for queue in tuple(queues):
                    if queue.empty():
                        queue.put_nowait(b"\n")


def _log_failure(future: asyncio.Future[None]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("a flag could not be recorded: %s", future.exception())

