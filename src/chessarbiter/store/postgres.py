"""The PostgreSQL store: every game in one database, one row per event, shared by any
number of processes (``postgresql://user:password@host:port/database``).

Durability: every ``create`` and ``append`` is one transaction, committed with
``synchronous_commit=on`` before it returns, so the server has flushed it to its write-ahead
log: an acknowledged event survives a crash of the writer, of the server or of the machine. A
writer killed before its commit leaves nothing (PostgreSQL rolls the transaction back).

The schema is versioned by the ``schema_version`` table: :data:`MIGRATIONS` lists the plain SQL
that brings a database from each version to the next, applied under an advisory lock so that
processes opening the store at once migrate it once; a database newer than this program is
refused. The tables live in the connection's schema (``search_path``), so one database can
hold several stores (``?options=-csearch_path%3Dname``)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, Final

import psycopg

from chessarbiter.arbiter.events import Event
from chessarbiter.arbiter.game import Game
from chessarbiter.store.base import GameInfo, StoreError
from chessarbiter.store.chat import ChatLine
from chessarbiter.store.names import described
from chessarbiter.store.rows import event_row, game_header, game_infos, replay_rows, setup_row

MIGRATIONS: Final[tuple[tuple[str, ...], ...]] = (
    (
        """CREATE TABLE games (
            id BIGSERIAL PRIMARY KEY,
            setup TEXT NOT NULL,
            start TEXT,
            log_version INTEGER NOT NULL,  -- the JSON-lines log format (LOG_VERSION)
            solver TEXT,  -- SOLVER_VERSION of the recorded analyses
            tags TEXT NOT NULL,
            created_ms BIGINT NOT NULL,
            updated_ms BIGINT NOT NULL,
            outcome TEXT,
            last_seq INTEGER NOT NULL DEFAULT 0  -- the number of events
        )""",
        """CREATE TABLE events (
            game_id BIGINT NOT NULL REFERENCES games (id),
            seq INTEGER NOT NULL,
            at_ms BIGINT NOT NULL,
            kind TEXT NOT NULL,
            json TEXT NOT NULL,
            PRIMARY KEY (game_id, seq)
        )""",
    ),
    (  # fencing: only the holder of a game's newest lease token may append to it
        "ALTER TABLE games ADD COLUMN fence BIGINT NOT NULL DEFAULT 0",
    ),
    (  # a game's chat, a stream of its own beside its events (store/chat.py)
        """CREATE TABLE chat (
            id BIGSERIAL PRIMARY KEY,  -- the order the lines were written in
            game_id BIGINT NOT NULL REFERENCES games (id),
            events INTEGER NOT NULL,  -- the game's events when the line was written
            at_ms BIGINT NOT NULL,
            room TEXT NOT NULL,
            author TEXT NOT NULL,
            text TEXT NOT NULL
        )""",
        "CREATE INDEX chat_game ON chat (game_id, id)",
    ),
)
"""The SQL from each schema version to the next (version 0 is an empty schema)."""
MIGRATION_LOCK: Final = 0x63686573  # "ches": the advisory lock held while migrating
APPEND: Final = (
    "WITH u AS (UPDATE games g SET last_seq = g.last_seq + b.n, updated_ms = %s, "
    "outcome = coalesce(b.outcome, g.outcome) "
    "FROM unnest(%b::bigint[], %b::integer[], %b::bigint[], %b::text[]) AS b(id, n, fence, "
    "outcome) WHERE g.id = b.id AND g.fence <= b.fence RETURNING g.id, g.last_seq) "
    "INSERT INTO events SELECT e.id, u.last_seq - e.back, e.at_ms, e.kind, e.json "
    "FROM unnest(%b::bigint[], %b::integer[], %b::bigint[], %b::text[], %b::text[]) "
    "AS e(id, back, at_ms, kind, json) LEFT JOIN u ON u.id = e.id")
"""A batch of events appended in one statement (one round trip, one transaction): each
game's row advanced once by its number of events (if its fence lets this store write), the
events numbered after its last; an event of a game not advanced gets no number, which
violates ``NOT NULL`` and so undoes the whole statement. The arrays go in binary (no
quoting of the events' JSON)."""


def migrate(db: psycopg.Connection[Any], versions: str,
            migrations: tuple[tuple[str, ...], ...], what: str) -> None:
    """Bring tables to this program's version (the table ``versions`` records each version
    reached; ``migrations`` the SQL from each to the next), in one transaction under the
    advisory lock; ``StoreError`` naming ``what`` when the database is newer."""
    with db.transaction():
        db.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        db.execute(f"CREATE TABLE IF NOT EXISTS {versions} (version INTEGER NOT NULL)")
        row = db.execute(f"SELECT max(version) FROM {versions}").fetchone()
        version = 0 if row is None or row[0] is None else int(row[0])
        if version > len(migrations):
            raise StoreError(f"{what} version {version} is newer than this program's "
                             f"({len(migrations)})")
        for number in range(version, len(migrations)):
            for statement in migrations[number]:
                db.execute(statement)
            db.execute(f"INSERT INTO {versions} VALUES (%s)", (number + 1,))


def _wall_ms() -> int:
    return time.time_ns() // 1_000_000


class PostgresStore:
    """Games in the PostgreSQL database ``dsn`` names (the tables created when missing);
    ``now`` gives the wall time in milliseconds for the created/updated columns. A connection
    the server dropped is opened again on the next call."""

    def __init__(self, dsn: str, now: Callable[[], int] = _wall_ms) -> None:
        self.dsn = dsn
        self.name = described(dsn)
        self._now = now
        self._fences: dict[str, int] = {}
        """The fencing token this store writes each game with (:meth:`fence`)."""
        self._db = self._connect()
        try:
            self._migrate()
        except psycopg.Error as exc:
            self._db.close()
            raise StoreError(f"{self.name}: not a game store ({reason(exc)})") from None
        except StoreError:
            self._db.close()
            raise

    def _connect(self) -> psycopg.Connection[Any]:
        try:
            db = psycopg.connect(self.dsn, autocommit=True)
            db.execute("SET synchronous_commit = on")
        except psycopg.Error as exc:
            raise StoreError(f"{self.name}: cannot open the store ({reason(exc)})") from None
        return db

    def _migrate(self) -> None:
        migrate(self._db, "schema_version", MIGRATIONS, f"{self.name}: schema")

    def _run(self, what: str, work: Callable[[psycopg.Connection[Any]], Any]) -> Any:
        """``work`` on the connection (opened again if the server dropped it)."""
        if self._db.closed or self._db.broken:
            self._db = self._connect()
        try:
            return work(self._db)
        except psycopg.Error as exc:
            raise StoreError(f"{what}: {reason(exc)}") from None

    def create(self, game: Game) -> str:
        setup, start, version, solver, tags = setup_row(game)
        now = self._now()
        outcome = None if game.outcome is None else str(game.outcome)
        events = [event_row(e) for e in game.log]

        def work(db: psycopg.Connection[Any]) -> int:
            with db.transaction():
                row = db.execute(
                    "INSERT INTO games (setup, start, log_version, solver, tags, created_ms, "
                    "updated_ms, outcome, last_seq) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, "
                    "%s) RETURNING id",
                    (setup, start, version, solver, tags, now, now, outcome, len(events)),
                ).fetchone()
                assert row is not None
                with db.cursor() as cursor:
                    cursor.executemany("INSERT INTO events VALUES (%s, %s, %s, %s, %s)",
                                       [(row[0], seq, *e) for seq, e in enumerate(events, 1)])
                return int(row[0])

        return str(self._run(f"{self.name}: cannot write", work))

    def append(self, game_id: str, event: Event, outcome: str | None = None) -> None:
        self.append_batch(((game_id, event, outcome),))

    def append_batch(self, entries: Sequence[tuple[str, Event, str | None]]) -> None:
        """Record several ``(game_id, event, outcome)`` appends, of one game or many, in one
        transaction (one commit for all: a server's group commit); all or none are
        written."""
        games: dict[int, list[Any]] = {}  # id -> [events, fence, outcome], in order
        events: list[tuple[int, int, str, str]] = []
        for game_id, event, outcome in entries:
            number = self._id(game_id)
            game = games.setdefault(number, [0, self._fences.get(game_id, 0), None])
            game[0] += 1
            if outcome is not None:
                game[2] = outcome
            events.append((number, *event_row(event)))
        backs, seen = [], dict.fromkeys(games, 0)
        for number, *_ in events:  # how many of its game's events follow each one
            seen[number] += 1
            backs.append(games[number][0] - seen[number])
        params = (self._now(), list(games), [g[0] for g in games.values()],
                  [g[1] for g in games.values()], [g[2] for g in games.values()],
                  [e[0] for e in events], backs, [e[1] for e in events],
                  [e[2] for e in events], [e[3] for e in events])

        def work(db: psycopg.Connection[Any]) -> None:
            try:
                db.execute(APPEND, params, prepare=True)
            except psycopg.errors.NotNullViolation:
                raise _Refused(self._refused(db, entries)) from None

        try:
            self._run(f"{self.name}: cannot write", work)
        except _Refused as refused:
            game_id = refused.args[0]
            if game_id in self._fences:
                raise StoreError(f"game {game_id}: no such game in {self.name}, or another "
                                 f"process took it over (fence {self._fences[game_id]})"
                                 ) from None
            raise StoreError(f"game {game_id}: no such game in {self.name}") from None

    def _refused(self, db: psycopg.Connection[Any],
                 entries: Sequence[tuple[str, Event, str | None]]) -> str:
        """The first game of a refused batch that this store may not write (for the
        error's message)."""
        ids = sorted({self._id(game_id) for game_id, _, _ in entries})
        fences = dict(db.execute("SELECT id, fence FROM games WHERE id = ANY(%s)",
                                 (ids,)).fetchall())
        for game_id, _, _ in entries:
            fence = fences.get(self._id(game_id))
            if fence is None or fence > self._fences.get(game_id, 0):
                return game_id
        return entries[0][0]  # the fence moved back since: name the first

    def fence(self, game_id: str, token: int) -> None:
        """Take the game over with the fencing ``token`` (its lease's): from now on only
        appends carrying this token or a newer one are written to it, so a former owner
        that still believes it holds the game cannot write; ``StoreError`` if a newer
        token holds it already or there is no such game."""
        number = self._id(game_id)

        def work(db: psycopg.Connection[Any]) -> bool:
            return db.execute("UPDATE games SET fence = %s WHERE id = %s AND fence <= %s "
                              "RETURNING id", (token, number, token)).fetchone() is not None

        if not self._run(f"{self.name}: cannot write", work):
            raise StoreError(f"game {game_id}: no such game in {self.name}, or a newer "
                             f"owner than fence {token} holds it")
        self._fences[game_id] = token

    def load(self, game_id: str) -> Game:
        number = self._id(game_id)

        def work(db: psycopg.Connection[Any]) -> tuple[Any, list[Any]]:
            with db.transaction():  # one snapshot of the game and its events
                db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                row = db.execute("SELECT setup, start, log_version, solver FROM games "
                                 "WHERE id = %s", (number,)).fetchone()
                rows = db.execute("SELECT seq, at_ms, kind, json FROM events "
                                  "WHERE game_id = %s ORDER BY seq", (number,)).fetchall()
            return row, rows

        row, rows = self._run(f"game {game_id}: cannot be read", work)
        if row is None:
            raise StoreError(f"game {game_id}: no such game in {self.name}")
        game = game_header(game_id, row)
        replay_rows(game_id, game, rows, recorded=row[3] is not None)
        return game

    def append_chat(self, game_id: str, line: ChatLine) -> None:
        number = self._id(game_id)

        def work(db: psycopg.Connection[Any]) -> None:
            try:
                db.execute("INSERT INTO chat (game_id, events, at_ms, room, author, text) "
                           "VALUES (%s, %s, %s, %s, %s, %s)", (
                               number, line.events, line.at_ms, line.room, line.author,
                               line.text))
            except psycopg.errors.ForeignKeyViolation:
                raise _Refused(game_id) from None

        try:
            self._run(f"{self.name}: cannot write", work)
        except _Refused:
            raise StoreError(f"game {game_id}: no such game in {self.name}") from None

    def chat(self, game_id: str) -> list[ChatLine]:
        number = self._id(game_id)
        rows = self._run(f"game {game_id}: cannot be read", lambda db: db.execute(
            "SELECT room, author, text, events, at_ms FROM chat WHERE game_id = %s "
            "ORDER BY id", (number,)).fetchall())
        return [ChatLine(*row) for row in rows]

    def games(self) -> list[GameInfo]:
        rows = self._run(f"{self.name}: cannot be read", lambda db: db.execute(
            "SELECT id, tags, outcome, updated_ms FROM games ORDER BY id").fetchall())
        return game_infos(rows)

    def where(self, game_id: str) -> str:
        return f"{self.name} game {game_id}"

    def close(self) -> None:
        self._db.close()

    def _id(self, game_id: str) -> int:
        if not game_id.isascii() or not game_id.isdigit() or len(game_id) > 18:
            raise StoreError(f"game {game_id!r}: a game id is a number")
        return int(game_id)


class _Refused(Exception):
    """An append that found no game it may write (none, or fenced off)."""


def reason(exc: psycopg.Error) -> str:
    """The server's message, on one line."""
    return " ".join(str(exc).split()) or type(exc).__name__
