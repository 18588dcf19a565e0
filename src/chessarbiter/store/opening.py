"""Which store a text names: a ``postgresql://`` (or ``postgres://``) URI is a PostgreSQL
database; a folder (an existing one, or a path ending in ``/``) holds JSON-lines journals;
anything else is a SQLite database file."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

from chessarbiter.store.base import EventStore, StoreError
from chessarbiter.store.jsonl import JsonlStore
from chessarbiter.store.sqlite import SqliteStore

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
"""How a PostgreSQL connection URI begins."""


def is_folder(text: str) -> bool:
    """Whether ``text`` names a JSON-lines store (a folder) rather than a SQLite file."""
    return text.endswith(("/", os.sep)) or Path(text).is_dir()


def is_postgres(text: str) -> bool:
    """Whether ``text`` is a PostgreSQL connection URI."""
    return text.startswith(POSTGRES_SCHEMES)


def described(text: str) -> str:
    """``text`` for people: a connection URI without its password or query."""
    if not is_postgres(text):
        return text
    parts = urlsplit(text)
    user = f"{parts.username}@" if parts.username else ""
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{user}{host}{port}{parts.path}"


def open_store(text: str) -> EventStore:
    """The store ``text`` names (created when missing); ``StoreError`` if it cannot be."""
    if is_postgres(text):
        try:
            from chessarbiter.store.postgres import PostgresStore  # psycopg: only when asked
        except ImportError:
            raise StoreError("a postgresql:// store needs psycopg: pip install "
                             "'chessarbiter[scale]'") from None
        return PostgresStore(text)
    path = Path(text)
    return JsonlStore(path) if is_folder(text) else SqliteStore(path)
