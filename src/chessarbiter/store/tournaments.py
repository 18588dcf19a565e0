"""Tournaments in the SQLite game database: one row per tournament, one per event of its log.

The store keeps each event as its kind and a JSON object (what ``tournament.log`` writes);
it knows nothing of their meaning. Durability is the game store's (docs/store.md): WAL
mode, ``synchronous=FULL``, each append one transaction synced before it returns. An append
names the sequence number it expects to write, so two writers that both read a log and then
append cannot interleave: the second is refused and re-reads.

The tables are versioned apart from the games' (``PRAGMA user_version``) in the one-row
table ``tournament_schema``, so either store can open the file first.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Protocol

from chessarbiter.store.base import StoreError
from chessarbiter.store.sqlite import open_wal, transaction

MIGRATIONS: Final[tuple[tuple[str, ...], ...]] = (
    (
        "CREATE TABLE tournament_schema (version INTEGER NOT NULL)",
        "INSERT INTO tournament_schema VALUES (0)",
        """CREATE TABLE tournaments (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            created_ms INTEGER NOT NULL,
            updated_ms INTEGER NOT NULL
        )""",
        """CREATE TABLE tournament_events (
            tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
            seq INTEGER NOT NULL,  -- 1, 2, ... in the order they were accepted
            at_ms INTEGER NOT NULL,
            kind TEXT NOT NULL,
            json TEXT NOT NULL,
            PRIMARY KEY (tournament_id, seq)
        ) WITHOUT ROWID""",
    ),
)
"""The SQL from each version of the tournament tables to the next."""


def _wall_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass(frozen=True)
class TournamentInfo:
    """One tournament of the list: id, name, events so far, last written (epoch seconds)."""

    tournament_id: int
    name: str
    events: int
    updated: float


@dataclass(frozen=True)
class StoredEvent:
    """One event as stored: sequence number, wall time, kind and the JSON object."""

    seq: int
    at_ms: int
    kind: str
    data: dict[str, Any]


class TournamentLogs(Protocol):
    """Where tournaments' logs are kept: :class:`TournamentStore` (SQLite) or
    :class:`~chessarbiter.store.pg_tournaments.PostgresTournamentStore`."""

    def create(self, name: str, kind: str, data: dict[str, Any]) -> int: ...

    def append(self, tournament_id: int, seq: int, kind: str, data: dict[str, Any]) -> None: ...

    def events(self, tournament_id: int, after: int = 0) -> list[StoredEvent]: ...

    def event_count(self, tournament_id: int) -> int: ...

    def tournaments(self) -> list[TournamentInfo]: ...


def parse_events(tournament_id: int, rows: Iterable[tuple[int, int, str, str]],
                 after: int = 0) -> list[StoredEvent]:
    """The stored rows (seq, at_ms, kind, JSON text) of a tournament's log from event
    ``after + 1`` on, checked: numbered ``after + 1``, ... without a gap, each a JSON
    object."""
    found = []
    for expected, (seq, at_ms, kind, text) in enumerate(rows, after + 1):
        where = f"tournament {tournament_id}, event {seq}"
        if seq != expected:
            raise StoreError(f"{where}: expected event {expected} (one is missing)")
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise StoreError(f"{where}: not JSON ({exc})") from None
        if not isinstance(data, dict):
            raise StoreError(f"{where}: not a JSON object")
        found.append(StoredEvent(seq, at_ms, kind, data))
    return found


class TournamentStore:
    """The tournaments of the SQLite database at ``path`` (created with its folder when
    missing); ``now`` gives the wall time in milliseconds."""

    def __init__(self, path: Path, now: Callable[[], int] = _wall_ms) -> None:
        self.path = path
        self._now = now
        self._db = open_wal(path, "a tournament store",
                            lambda db: transaction(db, path, self._migrate))

    def _migrate(self, db: sqlite3.Connection) -> None:
        exists = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                            "name = 'tournament_schema'").fetchone()
        version = db.execute("SELECT version FROM tournament_schema").fetchone()[0] \
            if exists else 0
        if version > len(MIGRATIONS):
            raise StoreError(f"{self.path}: tournament schema version {version} is newer than "
                             f"this program's ({len(MIGRATIONS)})")
        for number in range(version, len(MIGRATIONS)):
            for statement in MIGRATIONS[number]:
                db.execute(statement)
            db.execute("UPDATE tournament_schema SET version = ?", (number + 1,))

    def _write(self, work: Callable[[sqlite3.Connection], Any]) -> Any:
        """Run ``work`` in one transaction, committed (and synced) before returning."""
        return transaction(self._db, self.path, work)

    def create(self, name: str, kind: str, data: dict[str, Any]) -> int:
        """A new tournament whose first event is ``kind``/``data``; its id."""
        now = self._now()

        def work(db: sqlite3.Connection) -> int:
            cursor = db.execute("INSERT INTO tournaments (name, created_ms, updated_ms) "
                                "VALUES (?, ?, ?)", (name, now, now))
            number = cursor.lastrowid
            assert number is not None
            db.execute("INSERT INTO tournament_events VALUES (?, 1, ?, ?, ?)",
                       (number, now, kind, json.dumps(data)))
            return number

        number: int = self._write(work)
        return number

    def append(self, tournament_id: int, seq: int, kind: str, data: dict[str, Any]) -> None:
        """Record event number ``seq`` (the next one); ``StoreError`` when the tournament is
        unknown or another writer has appended since its log was read."""
        now = self._now()

        def work(db: sqlite3.Connection) -> None:
            row = db.execute("SELECT (SELECT max(seq) FROM tournament_events WHERE "
                             "tournament_id = ?), EXISTS (SELECT 1 FROM tournaments "
                             "WHERE id = ?)", (tournament_id, tournament_id)).fetchone()
            if not row[1]:
                raise StoreError(f"tournament {tournament_id}: no such tournament in "
                                 f"{self.path}")
            if (row[0] or 0) + 1 != seq:
                raise StoreError(f"tournament {tournament_id}, event {seq}: the log has "
                                 f"{row[0]} events (written meanwhile by another program)")
            db.execute("INSERT INTO tournament_events VALUES (?, ?, ?, ?, ?)",
                       (tournament_id, seq, now, kind, json.dumps(data)))
            db.execute("UPDATE tournaments SET updated_ms = ? WHERE id = ?",
                       (now, tournament_id))

        self._write(work)

    def events(self, tournament_id: int, after: int = 0) -> list[StoredEvent]:
        """The tournament's events after the first ``after``, in order, read in one
        snapshot."""
        try:
            db = self._db
            db.execute("BEGIN")
            try:
                known = db.execute("SELECT 1 FROM tournaments WHERE id = ?",
                                   (tournament_id,)).fetchone()
                rows = db.execute("SELECT seq, at_ms, kind, json FROM tournament_events "
                                  "WHERE tournament_id = ? AND seq > ? ORDER BY seq",
                                  (tournament_id, after)).fetchall()
            finally:
                db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreError(f"tournament {tournament_id}: cannot be read ({exc})") from None
        if known is None:
            raise StoreError(f"tournament {tournament_id}: no such tournament in {self.path}")
        return parse_events(tournament_id, rows, after)

    def event_count(self, tournament_id: int) -> int:
        """The number of events in the tournament's log (0: no such tournament), read from
        the events' index without reading them: it changes with every event written, by
        any program."""
        try:
            row = self._db.execute("SELECT max(seq) FROM tournament_events WHERE "
                                   "tournament_id = ?", (tournament_id,)).fetchone()
        except sqlite3.Error as exc:
            raise StoreError(f"tournament {tournament_id}: cannot be read ({exc})") from None
        return int(row[0] or 0)

    def tournaments(self) -> list[TournamentInfo]:
        """Every tournament, oldest first."""
        try:
            rows = self._db.execute(
                "SELECT id, name, (SELECT count(*) FROM tournament_events WHERE "
                "tournament_id = id), updated_ms FROM tournaments ORDER BY id").fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot be read ({exc})") from None
        return [TournamentInfo(number, name, count, updated / 1000)
                for number, name, count, updated in rows]

    def close(self) -> None:
        self._db.close()
