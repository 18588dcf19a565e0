"""The server's database: the game store (:class:`SqliteStore`) and the server's own tables
(accounts, each game's players and settings) in the same SQLite file, used by one writer
thread so the event loop never waits on a disk sync.

Events are group-committed: the appends waiting when the thread is free are written in one
transaction (one sync), and each one's callback runs on the event loop once it is durable —
a move is acknowledged only then (a batch that fails is written again append by append, so
only the append at fault fails). Other writes (creating a game, accounts) run in the same
thread, in order. Reads that may take long (loading a game) and the tournaments run in
:class:`Worker` threads with their own connections: they never wait behind the commits nor
hold them up.

After the batches the writer keeps ``server_deadlines`` up to date: for every unfinished
game, how long after its last event something is due (its flag may fall, a first move is
late, an engine is to move), so that a restarted server loads a game only when it is asked
for or due (:meth:`chessarbiter.server.games.hub.Hub.start`). Those lines are written when
the writer has nothing else queued, before any other work, or at least every
:data:`DUES_EVERY_S` under a stream of batches (each game's latest line once): not a
second round trip after every batch, which the next batch's acknowledgements would wait
for.

A batch whose commit takes longer than :data:`SLOW_COMMIT_S` (a disk slow to sync) is
told in the log at once, and those that follow within :data:`TELL_EVERY_S` together after
it (the slowest, how many, the acknowledgements that waited): every move of such a batch
was acknowledged that much later."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypeVar

from chessarbiter.arbiter.events import Event
from chessarbiter.store.base import StoreError
from chessarbiter.store.names import described, is_postgres
from chessarbiter.store.sqlite import BUSY_MS, SqliteStore, runs

T = TypeVar("T")

log = logging.getLogger(__name__)

SCHEMA: Final = (
    """CREATE TABLE IF NOT EXISTS server_accounts (
        id TEXT PRIMARY KEY,  -- the name in lower case
        name TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,  -- sha256 of the API token, hex
        role TEXT NOT NULL,  -- player | arbiter | bot
        created_ms BIGINT NOT NULL  -- wall ms (BIGINT: PostgreSQL's INTEGER is 32 bits)
    )""",
    """CREATE TABLE IF NOT EXISTS server_games (
        id TEXT PRIMARY KEY,  -- the public game id
        store_id TEXT NOT NULL,  -- the id of the game in the store (games.id)
        meta TEXT NOT NULL,  -- players, secrets' hashes, control, profile, creator (JSON)
        finished INTEGER NOT NULL DEFAULT 0
    )""",
    """CREATE TABLE IF NOT EXISTS server_sessions (
        token_hash TEXT PRIMARY KEY,  -- sha256 of the session cookie's secret, hex
        account TEXT NOT NULL,  -- server_accounts.id
        created_ms BIGINT NOT NULL  -- wall ms
    )""",
    """CREATE TABLE IF NOT EXISTS server_deadlines (
        game TEXT PRIMARY KEY,  -- server_games.id, while the game is not finished
        white TEXT,  -- the players' accounts (server_accounts.id; NULL: none)
        black TEXT,
        events INTEGER NOT NULL,  -- the events of the game's log when due_ms was computed
        due_ms BIGINT  -- game time after the last event when it is due (NULL: never)
    )""",
)
"""The server's tables beside the store's (``CREATE ... IF NOT EXISTS``: the store's schema
version is its own)."""

MOVE_CHAT: Final = (
    "BEGIN",
    "INSERT INTO chat (game_id, events, at_ms, room, author, text) SELECT CAST(g.store_id "
    "AS BIGINT), 0, c.at_ms, c.room, c.author, c.text FROM server_chat c JOIN server_games g "
    "ON g.id = c.game ORDER BY c.at_ms",
    "DROP TABLE server_chat",
    "COMMIT",
)
"""The chat lines an earlier version kept in its own table ``server_chat``, moved to the
store's stream of each game (:mod:`chessarbiter.store.chat`), in one transaction."""

Done = Callable[[BaseException | None], None]
"""Called on the event loop once an append is durable (``None``) or failed (the error)."""

Due = tuple[str, int, int | None]
"""A game's line of ``server_deadlines`` after an event: its public id, its events, when
(after the event) it is next due."""

SLOW_COMMIT_S: Final = 0.02
"""A batch's commit that takes longer is told in the log (a warning)."""
TELL_EVERY_S: Final = 1.0
"""The log is told of slow commits at most this often."""
DUES_EVERY_S: Final = 0.25
"""The longest the deadlines' lines wait while batches keep coming."""
UPDATE_DUES: Final = (
    "UPDATE server_deadlines SET events = v.events, due_ms = v.due_ms FROM unnest("
    "CAST(? AS INTEGER[]), CAST(? AS BIGINT[]), CAST(? AS TEXT[])) AS v (events, due_ms, game) "
    "WHERE server_deadlines.game = v.game")
"""PostgreSQL: the deadlines' lines (their events and due times, by game) updated in one
statement (its parameters: the events, the due times and the games, each a list)."""
DUES_ROWS: Final = 256
"""SQLite: the deadlines' lines written by one statement at most (three parameters each:
within SQLite's oldest limit of 999), in runs of a few lengths (``store.sqlite.runs``). A few
statements, not one per line: each hands the interpreter's lock to the other threads and
takes it back, which a busy event loop makes wait."""


def update_dues(count: int) -> str:
    """SQLite: ``count`` deadlines' lines updated in one statement (its parameters: each
    line's events, due time and game, in turn)."""
    values = ",".join(["(?, ?, ?)"] * count)
    return ("UPDATE server_deadlines SET events = v.column1, due_ms = v.column2 FROM "
            f"(VALUES {values}) AS v WHERE server_deadlines.game = v.column3")


@dataclass(frozen=True)
class _Append:
    store_id: str
    event: Event
    outcome: str | None
    done: Done
    due: Due | None


@dataclass(frozen=True)
class _Call:
    work: Callable[[SqliteStore, sqlite3.Connection], Any]
    future: Future[Any]


class Database:
    """The store and the server's tables at ``path``, served by one thread; :meth:`start`
    opens them (``StoreError`` if it cannot), :meth:`close` finishes the queued work."""

    def __init__(self, path: Path | str,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.path = path
        self._clock = clock
        self.name = described(str(path))
        """The database for people (a URI without its password)."""
        self._queue: queue.SimpleQueue[_Append | _Call | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.batches = 0
        """Transactions written for appends (each one sync), for measurements."""
        self.slowest_commit_s = 0.0
        """The longest a batch's commit took, for measurements."""
        self._slow = (0.0, 0, 0)
        """The slowest, how many and the events of the slow commits not told yet."""
        self._quiet_until = -math.inf
        """Slow commits until then are told later, together."""
        self._in_flight = 0
        """Appends queued whose callbacks have not run yet (counted on the event loop)."""

    def start(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        """Open the database in the writer thread; appends' callbacks run on ``loop``."""
        self._loop = loop
        opened: Future[None] = Future()
        self._thread = threading.Thread(target=self._serve, args=(opened,), daemon=True,
                                        name="chessarbiter-db")
        self._thread.start()
        opened.result()

    def call(self, work: Callable[[SqliteStore, sqlite3.Connection], T]) -> T:
        """Run ``work`` in the writer thread and wait for it (outside the event loop)."""
        return self.submit(work).result()

    async def run(self, work: Callable[[SqliteStore, sqlite3.Connection], T]) -> T:
        """Run ``work`` in the writer thread without blocking the event loop."""
        return await asyncio.wrap_future(self.submit(work))

    def append(self, store_id: str, event: Event, outcome: str | None, done: Done,
               due: Due | None = None) -> None:
        """Queue one event of a game for the next group commit (and its deadline)."""
        self._in_flight += 1
        self._queue.put(_Append(store_id, event, outcome, done, due))

    def writing(self) -> bool:
        """Whether events are on their way to the disk, their acknowledgements not yet
        given: other work on the event loop should wait (the game writer needs the
        interpreter to finish them; :class:`~chessarbiter.server.http.share.Share`)."""
        return self._in_flight > 0

    def close(self) -> None:
        """Write what is queued, then close the database."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join()
            self._thread = None

    def submit(self, work: Callable[[SqliteStore, sqlite3.Connection], T]) -> Future[T]:
        """Queue ``work`` for the writer thread (after the appends queued before it)."""
        if self._thread is None:
            raise StoreError(f"{self.name}: the database is not open")
        future: Future[T] = Future()
        self._queue.put(_Call(work, future))
        return future

    # -- the writer thread ------------------------------------------------------------

    def _serve(self, opened: Future[None]) -> None:
        try:
            store, conn = self._open()
        except (StoreError, sqlite3.Error) as exc:
            opened.set_exception(StoreError(f"{self.name}: cannot open the server's "
                                            f"database ({exc})"))
            return
        opened.set_result(None)
        pending: _Append | _Call | None = None
        dues: dict[str, Due] = {}  # each game's latest line not yet written
        written = self._clock()
        closing = False  # the close's None met while gathering a batch
        try:
            while not closing:
                item = pending if pending is not None else self._queue.get()
                pending = None
                if item is None:
                    break
                if isinstance(item, _Call):
                    self._deadlines(dues, conn)  # a call sees them as the log is
                    self._do_call(item, store, conn)
                    continue
                batch = [item]
                while True:  # every append waiting joins the transaction
                    try:
                        nxt = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if not isinstance(nxt, _Append):
                        pending, closing = nxt, nxt is None
                        break
                    batch.append(nxt)
                self._commit(batch, store)
                for append in batch:
                    if append.due is not None:
                        dues[append.due[0]] = append.due
                if pending is None and (self._queue.empty()
                                        or self._clock() - written >= DUES_EVERY_S):
                    self._deadlines(dues, conn)
                    written = self._clock()
            self._deadlines(dues, conn)
        finally:
            store.close()
            conn.close()

    def _open(self) -> tuple[Any, Any]:
        return open_database(self.path)

    @staticmethod
    def _do_call(item: _Call, store: SqliteStore, conn: sqlite3.Connection) -> None:
        try:
            item.future.set_result(item.work(store, conn))
        except BaseException as exc:  # handed to the caller
            item.future.set_exception(exc)

    def _commit(self, batch: list[_Append], store: SqliteStore) -> None:
        """Write ``batch`` in one transaction; if it fails, each append alone, so that only
        the one at fault fails; every append's callback is told."""
        results: list[tuple[Done, BaseException | None]]
        began = self._clock()
        try:
            store.append_batch([(a.store_id, a.event, a.outcome) for a in batch])
            self.batches += 1
            results = [(a.done, None) for a in batch]
        except Exception:
            results = [(a.done, self._alone(a, store)) for a in batch]
        ended = self._clock()
        self._timed(ended - began, ended, len(batch))
        if self._loop is None:
            self._finish(results)
            return
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            self._loop.call_soon_threadsafe(self._finish, results)

    def _finish(self, results: list[tuple[Done, BaseException | None]]) -> None:
        """Tell each append's callback (on the event loop)."""
        self._in_flight -= len(results)
        for done, error in results:
            done(error)

    def _timed(self, took: float, now: float, events: int) -> None:
        """Note a batch's commit; tell the log of the slow ones: the first at once, those
        that follow within :data:`TELL_EVERY_S` together after it."""
        self.slowest_commit_s = max(self.slowest_commit_s, took)
        worst, count, held = self._slow
        if took > SLOW_COMMIT_S:
            worst, count, held = max(worst, took), count + 1, held + events
        if count and now >= self._quiet_until:
            log.warning("the store took up to %.0f ms to commit (%d commits over %.0f ms, %d "
                        "events): their acknowledgements waited as long", worst * 1000, count,
                        SLOW_COMMIT_S * 1000, held)
            worst, count, held = 0.0, 0, 0
            self._quiet_until = now + TELL_EVERY_S
        self._slow = (worst, count, held)

    @staticmethod
    def _deadlines(dues: dict[str, Due], conn: Any) -> None:
        """Write the games' deadlines ``dues`` holds (emptied), in one transaction not
        synced (SQLite's ``synchronous=NORMAL``, PostgreSQL's ``synchronous_commit`` off: the
        next batch's sync makes it durable; a line left behind by a crash is seen to be, its
        events not the log's, and the game is loaded at once after a restart)."""
        rows = [(events, due_ms, game) for game, events, due_ms in dues.values()]
        dues.clear()
        if not rows:
            return
        if not isinstance(conn, sqlite3.Connection):  # PostgreSQL (games.pgdb)
            try:
                conn.execute_lazily(UPDATE_DUES, [list(c) for c in zip(*rows, strict=True)])
            except StoreError as exc:
                log.warning("deadlines not kept (games loaded at once after a restart): %s",
                            exc)
            return
        try:
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("BEGIN")
            for run in runs(rows, DUES_ROWS):
                conn.execute(update_dues(len(run)), [v for row in run for v in row])
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            log.warning("deadlines not kept (games loaded at once after a restart): %s", exc)
        finally:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("PRAGMA synchronous=FULL")

    def _alone(self, item: _Append, store: SqliteStore) -> BaseException | None:
        try:
            store.append(item.store_id, item.event, item.outcome)
        except Exception as exc:  # reported to the one waiting; the thread goes on
            return exc
        self.batches += 1
        return None


def at_once(conn: Any, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
    """Run ``statements`` on the server's connection (SQLite's or :mod:`.pgdb`'s, each
    statement otherwise its own transaction) in one transaction: one sync for all, and all
    or none written."""
    conn.execute("BEGIN")
    try:
        for sql, params in statements:
            conn.execute(sql, params)
    except BaseException:
        with contextlib.suppress(sqlite3.Error, StoreError):
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def open_database(path: Path | str) -> tuple[Any, Any]:
    """The store and a connection for the server's tables at ``path``: SQLite, or
    PostgreSQL for a ``postgresql://`` URI (a cluster's shared database)."""
    if is_postgres(str(path)):
        from chessarbiter.server.games.pgdb import open_postgres

        opened: tuple[Any, Any] = open_postgres(str(path), SCHEMA)
    else:
        store = SqliteStore(Path(path))
        conn = sqlite3.connect(path, timeout=BUSY_MS / 1000, isolation_level=None,
                               check_same_thread=False)
        opened = store, conn
        conn.execute("PRAGMA synchronous=FULL")
        for statement in SCHEMA:
            conn.execute(statement)
    _move_chat(opened[1])
    return opened


def _move_chat(conn: Any) -> None:
    """Run :data:`MOVE_CHAT` when the database still has ``server_chat``; when it fails
    (another connection moving them at the same time) the lines stay where they were."""
    try:
        conn.execute("SELECT 1 FROM server_chat LIMIT 1")
    except (sqlite3.Error, StoreError):
        return  # moved already, or never made
    try:
        for statement in MOVE_CHAT:
            conn.execute(statement)
    except (sqlite3.Error, StoreError) as exc:
        with contextlib.suppress(sqlite3.Error, StoreError):
            conn.execute("ROLLBACK")
        log.warning("chat lines not moved from server_chat yet: %s", exc)


class Worker:
    """A thread with its own store and connection to the server's database, for work that
    must neither wait behind the writer's commits nor hold them up (loading games, the
    tournaments): :meth:`run` queues work for it, opened at the first."""

    def __init__(self, path: Path | str, name: str) -> None:
        self.path = path
        self.name = name
        self._pool: ThreadPoolExecutor | None = None
        self._opened: tuple[Any, Any] | None = None
        self.closing: list[Callable[[], None]] = []
        """Called in the worker's thread before its connection is closed."""

    async def run(self, work: Callable[[Any, Any], T]) -> T:
        """``work(store, conn)`` in the worker's thread, without blocking the event loop."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(1, thread_name_prefix=self.name)
        return await asyncio.get_running_loop().run_in_executor(self._pool, self._call, work)

    def _call(self, work: Callable[[Any, Any], T]) -> T:
        if self._opened is None:
            self._opened = open_database(self.path)
        return work(*self._opened)

    def close(self) -> None:
        """Finish the queued work, then close the connection."""
        if self._pool is None:
            return
        pool, self._pool = self._pool, None
        pool.submit(self._shut).result()
        pool.shutdown()

    def _shut(self) -> None:
        for hook in self.closing:
            hook()
        if self._opened is not None:
            store, conn = self._opened
            self._opened = None
            store.close()
            conn.close()
