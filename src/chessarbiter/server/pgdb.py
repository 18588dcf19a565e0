"""The server's database on PostgreSQL: the game store (:class:`PostgresStore`) and the
server's own tables in the same database, for a cluster of server processes sharing it.

The server's SQL is written for SQLite (``?`` placeholders); :class:`Connection` runs it on a
PostgreSQL connection in autocommit (each statement its own durable transaction)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any, Final

import psycopg

from chessarbiter.store.base import StoreError
from chessarbiter.store.names import described
from chessarbiter.store.postgres import MIGRATION_LOCK, PostgresStore

DATABASE_ERRORS: Final = (sqlite3.Error, psycopg.Error)
"""What the server's database connection raises, SQLite's or PostgreSQL's."""
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
        """Run one statement with SQLite's ``?`` placeholders."""
        return self.db.execute(sql.replace("?", "%s"), params)

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
