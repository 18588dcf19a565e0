"""The SQLite store: every game in one database file, one row per event.

Durability: the database runs in WAL mode with ``synchronous=FULL``, so each append is one
transaction whose commit syncs the write-ahead log before it returns; an event acknowledged
survives a crash of the program or of the machine. A writer killed mid-transaction leaves a
torn WAL frame that SQLite ignores on the next open (the last committed state is read).
Readers in other processes see every committed event while a game is being written.

Threads: a store owns its connection and serialises its use with a lock, so any thread may
write (a terminal game records an engine's move and a fallen flag from other threads than the
one that opened it).

The schema is versioned by ``PRAGMA user_version``: :data:`MIGRATIONS` lists the SQL that
brings a database from each version to the next; a database newer than this program is
refused."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final, TypeVar

from chessarbiter.arbiter.events import Event
from chessarbiter.arbiter.game import Game
from chessarbiter.store.base import GameInfo, StoreError
from chessarbiter.store.chat import ChatLine
from chessarbiter.store.rows import event_row, game_header, game_infos, replay_rows, setup_row

T = TypeVar("T")

MIGRATIONS: Final[tuple[tuple[str, ...], ...]] = (
    (
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            setup TEXT NOT NULL,
            start TEXT,
            log_version INTEGER NOT NULL,  -- the JSON-lines log format (LOG_VERSION)
            solver TEXT,  -- SOLVER_VERSION of the recorded analyses
            tags TEXT NOT NULL,
            created_ms INTEGER NOT NULL,
            updated_ms INTEGER NOT NULL,
            outcome TEXT
        )""",
        """CREATE TABLE events (
            game_id INTEGER NOT NULL REFERENCES games (id),
            seq INTEGER NOT NULL,
            at_ms INTEGER NOT NULL,
            kind TEXT NOT NULL,
            json TEXT NOT NULL,
            PRIMARY KEY (game_id, seq)
        ) WITHOUT ROWID""",
    ),
    (  # a game's chat, a stream of its own beside its events (store/chat.py)
        """CREATE TABLE chat (
            id INTEGER PRIMARY KEY,  -- the order the lines were written in
            game_id INTEGER NOT NULL REFERENCES games (id),
            events INTEGER NOT NULL,  -- the game's events when the line was written
            at_ms INTEGER NOT NULL,
            room TEXT NOT NULL,
            author TEXT NOT NULL,
            text TEXT NOT NULL
        )""",
        "CREATE INDEX chat_game ON chat (game_id, id)",
    ),
)
"""The SQL from each schema version to the next (version 0 is an empty file)."""
BUSY_MS: Final = 30_000
"""How long a writer waits for another to finish its transaction."""


def _wall_ms() -> int:
    return time.time_ns() // 1_000_000


def transaction(db: sqlite3.Connection, path: Path,
                work: Callable[[sqlite3.Connection], Any]) -> Any:
    """Run ``work`` on ``db`` (the database at ``path``) in one transaction, committed (and
    synced) before returning; a :class:`StoreError` naming the file when it fails."""
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            result = work(db)
        except BaseException:
            if db.in_transaction:  # SQLite rolls back by itself on some errors (a full disk)
                db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot write ({exc})") from None
    return result


def open_wal(path: Path, what: str,
             migrate: Callable[[sqlite3.Connection], None]) -> sqlite3.Connection:
    """The SQLite database at ``path`` (created, with its folder, when missing) in
    write-ahead-log mode with synced commits and foreign keys, brought to the schema by
    ``migrate``; a :class:`StoreError` naming the file when it cannot be, or is not ``what``.
    The connection may be used from any thread, one at a time (the caller locks)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, timeout=BUSY_MS / 1000, isolation_level=None,
                             check_same_thread=False)
    except (OSError, sqlite3.Error) as exc:
        raise StoreError(f"{path}: cannot open the store ({exc})") from None
    try:
        mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode != "wal":
            raise StoreError(f"{path}: cannot use a write-ahead log (journal mode {mode})")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        migrate(db)
    except sqlite3.DatabaseError as exc:
        db.close()
        raise StoreError(f"{path}: not {what} ({exc})") from None
    except StoreError:
        db.close()
        raise
    return db


class SqliteStore:
    """Games in the SQLite database at ``path`` (created, with its folder, when missing);
    ``now`` gives the wall time in milliseconds for the created/updated columns."""

    def __init__(self, path: Path, now: Callable[[], int] = _wall_ms) -> None:
        self.path = path
        self._now = now
        self._lock = threading.RLock()
        """Held by each use of the connection: one thread at a time."""
        self._db = open_wal(path, "a game store", self._migrate)

    def _migrate(self, db: sqlite3.Connection) -> None:
        db.execute("BEGIN IMMEDIATE")
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > len(MIGRATIONS):
                raise StoreError(f"{self.path}: schema version {version} is newer than this "
                                 f"program's ({len(MIGRATIONS)})")
            for number in range(version, len(MIGRATIONS)):
                for statement in MIGRATIONS[number]:
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {number + 1}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def _write(self, work: Callable[[sqlite3.Connection], Any]) -> Any:
        """Run ``work`` in one transaction, committed (and synced) before returning."""
        with self._lock:
            return transaction(self._db, self.path, work)

    def create(self, game: Game) -> str:
        columns = setup_row(game)
        now = self._now()
        outcome = None if game.outcome is None else str(game.outcome)

        def work(db: sqlite3.Connection) -> int:
            cursor = db.execute(
                "INSERT INTO games (setup, start, log_version, solver, tags, created_ms, "
                "updated_ms, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (*columns, now, now, outcome))
            game_id = cursor.lastrowid
            assert game_id is not None
            db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                           [(game_id, seq, *event_row(e)) for seq, e in enumerate(game.log, 1)])
            return game_id

        return str(self._write(work))

    def append(self, game_id: str, event: Event, outcome: str | None = None) -> None:
        self.append_batch(((game_id, event, outcome),))

    def append_batch(self, entries: Sequence[tuple[str, Event, str | None]]) -> None:
        """Record several ``(game_id, event, outcome)`` appends, of one game or many, in one
        transaction (one sync for all: a server's group commit); all or none are written.
        A few statements for the whole batch (per :data:`BATCH_ROWS` appends), not three
        per append: each statement hands the interpreter's lock to the other threads and
        takes it back, which a busy event loop makes wait (up to the switch interval)."""
        numbered = [(game_id, self._id(game_id), event_row(event), outcome)
                    for game_id, event, outcome in entries]

        def work(db: sqlite3.Connection) -> None:
            for first in range(0, len(numbered), BATCH_ROWS):
                _append_rows(db, numbered[first:first + BATCH_ROWS], self._now(), self.path)

        self._write(work)

    def load(self, game_id: str) -> Game:
        number = self._id(game_id)
        try:
            with self._lock:
                db = self._db
                db.execute("BEGIN")  # one snapshot of the game and its events
                try:
                    row = db.execute("SELECT setup, start, log_version, solver FROM games "
                                     "WHERE id = ?", (number,)).fetchone()
                    rows = db.execute("SELECT seq, at_ms, kind, json FROM events "
                                      "WHERE game_id = ? ORDER BY seq", (number,)).fetchall()
                finally:
                    db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreError(f"game {game_id}: cannot be read ({exc})") from None
        if row is None:
            raise StoreError(f"game {game_id}: no such game in {self.path}")
        game = game_header(game_id, row)
        replay_rows(game_id, game, rows, recorded=row[3] is not None)
        return game

    def append_chat(self, game_id: str, line: ChatLine) -> None:
        number = self._id(game_id)

        def work(db: sqlite3.Connection) -> None:
            try:
                db.execute("INSERT INTO chat (game_id, events, at_ms, room, author, text) "
                           "VALUES (?, ?, ?, ?, ?, ?)", (number, line.events, line.at_ms,
                                                         line.room, line.author, line.text))
            except sqlite3.IntegrityError:
                raise StoreError(f"game {game_id}: no such game in {self.path}") from None

        self._write(work)

    def chat(self, game_id: str) -> list[ChatLine]:
        number = self._id(game_id)
        try:
            with self._lock:
                rows = self._db.execute("SELECT room, author, text, events, at_ms FROM chat "
                                        "WHERE game_id = ? ORDER BY id", (number,)).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"game {game_id}: cannot be read ({exc})") from None
        return [ChatLine(*row) for row in rows]

    def games(self) -> list[GameInfo]:
        try:
            with self._lock:
                rows = self._db.execute("SELECT id, tags, outcome, updated_ms FROM games "
                                        "ORDER BY id").fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot be read ({exc})") from None
        return game_infos(rows)

    def where(self, game_id: str) -> str:
        return f"{self.path} game {game_id}"

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _id(self, game_id: str) -> int:
        if not game_id.isascii() or not game_id.isdigit():
            raise StoreError(f"game {game_id!r}: a game id is a number")
        return int(game_id)


BATCH_ROWS: Final = 128
"""Appends written by one statement of :meth:`SqliteStore.append_batch` at most (five
parameters each: within SQLite's oldest limit of 999)."""


def runs(items: Sequence[T], most: int) -> Iterator[Sequence[T]]:
    """``items`` in consecutive runs whose lengths are powers of two, none longer than
    ``most`` (a power of two), longest first. A statement written for ``n`` rows is then one
    of a few lengths, which SQLite keeps prepared (the connection's cache holds 128); one
    per batch size would be prepared again each time, the interpreter's lock handed over
    during each preparation."""
    first = 0
    while first < len(items):
        size = min(most, 1 << ((len(items) - first).bit_length() - 1))
        yield items[first:first + size]
        first += size


def padded(numbers: Sequence[int]) -> list[int]:
    """``numbers`` (not empty) repeated at the end up to a power of two, for an ``IN`` list
    of one of a few lengths (see :func:`runs`)."""
    size = 1 << (len(numbers) - 1).bit_length()
    return [*numbers, *[numbers[-1]] * (size - len(numbers))]


def _append_rows(db: sqlite3.Connection,
                 rows: Sequence[tuple[str, int, tuple[Any, ...], str | None]], now: int,
                 path: Path) -> None:
    """Append ``(game_id, number, event row, outcome)`` rows in a few statements: the games'
    last numbers, their existence, the events (one per :func:`runs`), the games' times (and
    one per outcome)."""
    numbers = padded(sorted({number for _, number, _, _ in rows}))
    marks = ",".join("?" * len(numbers))
    last = dict(db.execute(f"SELECT game_id, max(seq) FROM events WHERE game_id IN ({marks}) "
                           "GROUP BY game_id", numbers).fetchall())
    known = {row[0] for row in db.execute(f"SELECT id FROM games WHERE id IN ({marks})",
                                          numbers)}
    records: list[tuple[Any, ...]] = []
    for game_id, number, row, _ in rows:
        if number not in known:
            raise StoreError(f"game {game_id}: no such game in {path}")
        seq = last.get(number, 0) + 1
        last[number] = seq
        records.append((number, seq, *row))
    for run in runs(records, BATCH_ROWS):
        db.execute("INSERT INTO events VALUES " + ",".join(["(?, ?, ?, ?, ?)"] * len(run)),
                   [value for record in run for value in record])
    db.execute(f"UPDATE games SET updated_ms = ? WHERE id IN ({marks})", (now, *numbers))
    for _, number, _, outcome in rows:
        if outcome is not None:
            db.execute("UPDATE games SET outcome = ? WHERE id = ?", (outcome, number))
