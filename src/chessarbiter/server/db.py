"""The server's database: the game store (:class:`SqliteStore`) and the server's own tables
(accounts, each game's players and settings) in the same SQLite file, used by one writer
thread so the event loop never waits on a disk sync.

Events are group-committed: the appends waiting when the thread is free are written in one
transaction (one sync), and each one's callback runs on the event loop once it is durable —
a move is acknowledged only then (a batch that fails is written again append by append, so
only the append at fault fails). Other work (creating a game, loading, accounts) runs in the
same thread, in order."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypeVar

from chessarbiter.arbiter.events import Event
from chessarbiter.store.base import StoreError
from chessarbiter.store.names import described, is_postgres
from chessarbiter.store.sqlite import BUSY_MS, SqliteStore

T = TypeVar("T")

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
    """CREATE TABLE IF NOT EXISTS server_chat (
        game TEXT NOT NULL,  -- server_games.id
        room TEXT NOT NULL,  -- player | spectator
        author TEXT NOT NULL,  -- the writer's account name
        text TEXT NOT NULL,
        at_ms BIGINT NOT NULL  -- wall ms
    )""",
)
"""The server's tables beside the store's (``CREATE ... IF NOT EXISTS``: the store's schema
version is its own)."""

Done = Callable[[BaseException | None], None]
"""Called on the event loop once an append is durable (``None``) or failed (the error)."""


@dataclass(frozen=True)
class _Append:
    store_id: str
    event: Event
    outcome: str | None
    done: Done


@dataclass(frozen=True)
class _Call:
    work: Callable[[SqliteStore, sqlite3.Connection], Any]
    future: Future[Any]


class Database:
    """The store and the server's tables at ``path``, served by one thread; :meth:`start`
    opens them (``StoreError`` if it cannot), :meth:`close` finishes the queued work."""

    def __init__(self, path: Path | str) -> None:
        self.path = path
        self.name = described(str(path))
        """The database for people (a URI without its password)."""
        self._queue: queue.SimpleQueue[_Append | _Call | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.batches = 0
        """Transactions written for appends (each one sync), for measurements."""

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

    def append(self, store_id: str, event: Event, outcome: str | None, done: Done) -> None:
        """Queue one event of a game for the next group commit."""
        self._queue.put(_Append(store_id, event, outcome, done))

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
        try:
            while True:
                item = pending if pending is not None else self._queue.get()
                pending = None
                if item is None:
                    break
                if isinstance(item, _Call):
                    self._do_call(item, store, conn)
                    continue
                batch = [item]
                while True:  # every append waiting joins the transaction
                    try:
                        nxt = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if not isinstance(nxt, _Append):
                        pending = nxt
                        break
                    batch.append(nxt)
                self._commit(batch, store)
        finally:
            store.close()
            conn.close()

    def _open(self) -> tuple[Any, Any]:
        """The store and the connection for the server's tables: SQLite, or PostgreSQL
        for a ``postgresql://`` URI (a cluster's shared database)."""
        if is_postgres(str(self.path)):
            from chessarbiter.server.pgdb import open_postgres

            return open_postgres(str(self.path), SCHEMA)
        store = SqliteStore(Path(self.path))
        conn = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None)
        conn.execute("PRAGMA synchronous=FULL")
        for statement in SCHEMA:
            conn.execute(statement)
        return store, conn

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
        try:
            store.append_batch([(a.store_id, a.event, a.outcome) for a in batch])
            self.batches += 1
            results = [(a.done, None) for a in batch]
        except Exception:
            results = [(a.done, self._alone(a, store)) for a in batch]
        if self._loop is None:
            _finish(results)
            return
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            self._loop.call_soon_threadsafe(_finish, results)

    def _alone(self, item: _Append, store: SqliteStore) -> BaseException | None:
        try:
            store.append(item.store_id, item.event, item.outcome)
        except Exception as exc:  # reported to the one waiting; the thread goes on
            return exc
        self.batches += 1
        return None


def _finish(results: list[tuple[Done, BaseException | None]]) -> None:
    for done, error in results:
        done(error)
