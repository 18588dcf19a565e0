"""A SQLite store whose writes fail from the Nth on, as a full disk or a lost file makes
them fail: the store's own error, raised where the write is made (for every interface's
"a store failure stops the game and loses nothing" tests)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from chessarbiter.store import SqliteStore, StoreError


class FailingStore(SqliteStore):
    """Writes (a game created, events appended) number ``fail_at`` (from 1) and the
    ``failures - 1`` after it raise :class:`StoreError`; the others are made. ``writes``
    counts them all."""

    def __init__(self, path: Path, fail_at: int, failures: int = 1_000_000) -> None:
        super().__init__(path)
        self.fail_at = fail_at
        self.failures = failures
        self.writes = 0

    def _write(self, work: Callable[[sqlite3.Connection], Any]) -> Any:
        self.writes += 1
        if self.fail_at <= self.writes < self.fail_at + self.failures:
            raise StoreError(f"{self.path}: cannot write (disk I/O error, write {self.writes})")
        return super()._write(work)
