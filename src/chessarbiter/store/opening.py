"""Which store a path names: a folder (an existing one, or a path ending in ``/``) holds
JSON-lines journals; anything else is a SQLite database file."""

from __future__ import annotations

import os
from pathlib import Path

from chessarbiter.store.base import EventStore
from chessarbiter.store.jsonl import JsonlStore
from chessarbiter.store.sqlite import SqliteStore


def is_folder(text: str) -> bool:
    """Whether ``text`` names a JSON-lines store (a folder) rather than a SQLite file."""
    return text.endswith(("/", os.sep)) or Path(text).is_dir()


def open_store(text: str) -> EventStore:
    """The store ``text`` names (created when missing); ``StoreError`` if it cannot be."""
    path = Path(text)
    return JsonlStore(path) if is_folder(text) else SqliteStore(path)
