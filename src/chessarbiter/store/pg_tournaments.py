"""Tournaments in the PostgreSQL database of the games (:mod:`.postgres`): the same logs as
:class:`~chessarbiter.store.tournaments.TournamentStore` keeps in SQLite, shared by every
server process of a cluster.

Each append is one transaction committed with ``synchronous_commit=on`` before it returns.
It names the sequence number it expects to write; the events' primary key refuses a second
writer that read the same log, whichever process it runs in. The tables are versioned apart
from the games' (the one-row table ``tournament_schema``), migrated under the games' advisory
lock."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any, Final

import psycopg

from chessarbiter.store.base import StoreError
from chessarbiter.store.postgres import migrate
from chessarbiter.store.tournaments import StoredEvent, TournamentInfo, parse_events

MIGRATIONS: Final[tuple[tuple[str, ...], ...]] = (
    (
        """CREATE TABLE tournaments (
            id BIGSERIAL PRIMARY KEY,
            name TEXT NOT NULL,
            created_ms BIGINT NOT NULL,
            updated_ms BIGINT NOT NULL
        )""",
        """CREATE TABLE tournament_events (
            tournament_id BIGINT NOT NULL REFERENCES tournaments (id),
            seq INTEGER NOT NULL,  -- 1, 2, ... in the order they were accepted
            at_ms BIGINT NOT NULL,
            kind TEXT NOT NULL,
            json TEXT NOT NULL,
            PRIMARY KEY (tournament_id, seq)
        )""",
    ),
)
"""The SQL from each version of the tournament tables to the next."""


def _wall_ms() -> int:
    return time.time_ns() // 1_000_000


class PostgresTournamentStore:
    """The tournaments of the PostgreSQL connection ``db`` (in autocommit; ``name`` says
    which database in errors); ``now`` gives the wall time in milliseconds. Call
    :meth:`migrate` once before the first use of a database."""

    def __init__(self, db: psycopg.Connection[Any], name: str,
                 now: Callable[[], int] = _wall_ms) -> None:
        self._db = db
        self.name = name
        self._now = now

    def migrate(self) -> None:
        """Create or upgrade the tables; ``StoreError`` if they are newer than this program."""
        self._run(f"{self.name}: the tournament tables", lambda: migrate(
            self._db, "tournament_schema", MIGRATIONS, f"{self.name}: tournament schema"))

    def _run(self, what: str, work: Callable[[], Any]) -> Any:
        try:
            return work()
        except psycopg.Error as exc:
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise StoreError(f"{what}: {reason}") from None

    def create(self, name: str, kind: str, data: dict[str, Any]) -> int:
        """A new tournament whose first event is ``kind``/``data``; its id."""
        now = self._now()

        def work() -> int:
            with self._db.transaction():
                row = self._db.execute(
                    "INSERT INTO tournaments (name, created_ms, updated_ms) VALUES (%s, %s, %s) "
                    "RETURNING id", (name, now, now)).fetchone()
                assert row is not None
                self._db.execute("INSERT INTO tournament_events VALUES (%s, 1, %s, %s, %s)",
                                 (row[0], now, kind, json.dumps(data)))
                return int(row[0])

        number: int = self._run(f"{self.name}: a new tournament", work)
        return number

    def append(self, tournament_id: int, seq: int, kind: str, data: dict[str, Any]) -> None:
        """Record event number ``seq`` (the next one); ``StoreError`` when the tournament is
        unknown or another writer has appended since its log was read."""
        now = self._now()
        where = f"tournament {tournament_id}, event {seq}"

        def work() -> None:
            with self._db.transaction():
                row = self._db.execute(
                    "SELECT (SELECT max(seq) FROM tournament_events WHERE tournament_id = %s), "
                    "EXISTS (SELECT 1 FROM tournaments WHERE id = %s)",
                    (tournament_id, tournament_id)).fetchone()
                assert row is not None
                if not row[1]:
                    raise StoreError(f"tournament {tournament_id}: no such tournament in "
                                     f"{self.name}")
                if (row[0] or 0) + 1 != seq:
                    raise StoreError(f"{where}: the log has {row[0]} events (written "
                                     f"meanwhile by another program)")
                self._db.execute("INSERT INTO tournament_events VALUES (%s, %s, %s, %s, %s)",
                                 (tournament_id, seq, now, kind, json.dumps(data)))
                self._db.execute("UPDATE tournaments SET updated_ms = %s WHERE id = %s",
                                 (now, tournament_id))

        try:
            self._run(where, work)
        except StoreError as exc:
            if "duplicate key" in str(exc):  # another process appended between our reads
                raise StoreError(f"{where}: written meanwhile by another program") from None
            raise

    def events(self, tournament_id: int, after: int = 0) -> list[StoredEvent]:
        """The tournament's events after the first ``after``, in order, read in one
        snapshot."""

        def work() -> tuple[bool, list[tuple[int, int, str, str]]]:
            with self._db.transaction():
                self._db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                known = self._db.execute("SELECT 1 FROM tournaments WHERE id = %s",
                                         (tournament_id,)).fetchone() is not None
                rows = self._db.execute(
                    "SELECT seq, at_ms, kind, json FROM tournament_events WHERE "
                    "tournament_id = %s AND seq > %s ORDER BY seq",
                    (tournament_id, after)).fetchall()
            return known, rows

        if not -2**63 <= tournament_id < 2**63:
            raise StoreError(f"tournament {tournament_id}: no such tournament in {self.name}")
        known, rows = self._run(f"tournament {tournament_id}: cannot be read", work)
        if not known:
            raise StoreError(f"tournament {tournament_id}: no such tournament in {self.name}")
        return parse_events(tournament_id, rows, after)

    def event_count(self, tournament_id: int) -> int:
        """The number of events in the tournament's log (0: no such tournament), read from
        the events' primary key without reading them."""
        if not -2**63 <= tournament_id < 2**63:
            return 0
        row = self._run(f"tournament {tournament_id}: cannot be read", lambda: self._db.execute(
            "SELECT max(seq) FROM tournament_events WHERE tournament_id = %s",
            (tournament_id,)).fetchone())
        return int(row[0] or 0) if row is not None else 0

    def tournaments(self) -> list[TournamentInfo]:
        """Every tournament, oldest first."""
        rows = self._run(f"{self.name}: cannot be read", lambda: self._db.execute(
            "SELECT id, name, (SELECT count(*) FROM tournament_events WHERE "
            "tournament_id = id), updated_ms FROM tournaments ORDER BY id").fetchall())
        return [TournamentInfo(int(number), name, int(count), updated / 1000)
                for number, name, count, updated in rows]
