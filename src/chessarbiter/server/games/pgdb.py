"""The server's database on PostgreSQL: the game store (:class:`PostgresStore`) and the
server's own tables in the same database, for a cluster of server processes sharing it.

The server's SQL is written for SQLite (``?`` placeholders); :class:`Connection` runs it on a
PostgreSQL connection in autocommit (each statement its own durable transaction), its failures
raised as :class:`StoreError`. This module is the PostgreSQL backend: it needs psycopg (the
``[scale]`` extra) and is imported only for a ``postgresql://`` database."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any, Final

import psycopg

from chessarbiter.store.base import StoreError
from chessarbiter.store.names import described
from chessarbiter.store.pg_tournaments import PostgresTournamentStore
from chessarbiter.store.postgres import MIGRATION_LOCK, PostgresStore, reason

UPGRADES: Final = (
    # The accounts' creation time was first made INTEGER, 32 bits here: widened in place.
    "ALTER TABLE server_accounts ALTER COLUMN created_ms TYPE BIGINT",
)
"""Statements run after the schema on PostgreSQL, each harmless when already applied."""


class Connection:
    """The part of a ``sqlite3.Connection`` the server uses, on PostgreSQL."""

    def __init__(self, db: psycopg.Connection[Any]) -> None:
        self.db = db

    def execute(self, sql: str, params: Sequence[Any] = ()) -> psycopg.Cursor[Any]:
        """Run one statement with SQLite's ``?`` placeholders; ``StoreError`` if it fails."""
        try:
            return self.db.execute(sql.replace("?", "%s"), params)
        except psycopg.Error as exc:
            raise StoreError(f"PostgreSQL: {reason(exc)}") from None

    def execute_lazily(self, sql: str, params: Sequence[Any]) -> None:
        """Run one statement in a transaction not waited for on disk (``synchronous_commit``
        off: the next synced commit makes it durable; a crash may lose it, which its reader
        must detect), the whole in one round trip; ``StoreError`` if it fails."""
        query = f"BEGIN; SET LOCAL synchronous_commit = off; {sql.replace('?', '%s')}; COMMIT"
        try:
            with psycopg.ClientCursor(self.db) as cursor:
                cursor.execute(query, params)
        except psycopg.Error as exc:
            with contextlib.suppress(psycopg.Error):
                self.db.execute("ROLLBACK")
            raise StoreError(f"PostgreSQL: {reason(exc)}") from None

    def close(self) -> None:
        self.db.close()


def open_postgres(dsn: str, schema: Sequence[str]) -> tuple[PostgresStore, Connection]:
    """The store and a connection for the server's tables (created by ``schema``)."""
    store = PostgresStore(dsn)
    try:
        db = psycopg.connect(dsn, autocommit=True)
        db.execute("SET synchronous_commit = on")
        with db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            for statement in (*schema, *UPGRADES):
                db.execute(statement)
    except psycopg.Error as exc:
        store.close()
        raise StoreError(f"{described(dsn)}: cannot open the server's tables ({exc})") from None
    return store, Connection(db)


def shared_tournaments(store: object, conn: object) -> PostgresTournamentStore | None:
    """The tournaments of the server's PostgreSQL database, when ``store`` and ``conn`` are
    :func:`open_postgres`'s (``None`` for another database)."""
    if isinstance(store, PostgresStore) and isinstance(conn, Connection):
        return PostgresTournamentStore(conn.db, store.name)
    return None
