"""Where the tournament desk keeps the tournaments' logs, chosen once when the server is
assembled (:func:`chessarbiter.server.app.starlette_app`) by its database: in the games'
SQLite file (:class:`InFile`: every change made by the server passes through this
process's desk), or in the PostgreSQL database the processes of a cluster share
(:class:`Shared`: another process may change a tournament at any time). The desk asks no
other question about it."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from chessarbiter.store.base import StoreError
from chessarbiter.store.tournaments import TournamentLogs, TournamentStore


class Keeping(Protocol):
    """The tournaments' logs, as the desk's thread reads and writes them."""

    only_here: bool
    """Whether every change the server makes to a tournament passes through this desk (a
    version read lately may then be trusted, :data:`~.desk.VERSION_TRUSTED_MS`)."""

    def logs(self, store: Any, conn: Any) -> TournamentLogs:
        """The logs, for one piece of work in the desk's thread (the worker's ``store`` and
        ``conn``); made ready at the first."""

    def close(self) -> None:
        """In the desk's thread, before its connection is closed."""


class InFile:
    """The logs in the games' SQLite file at ``path``, through a store of their own."""

    only_here = True

    def __init__(self, path: Path) -> None:
        self.path = path
        self._store: TournamentStore | None = None

    def logs(self, store: Any, conn: Any) -> TournamentLogs:
        if self._store is None:
            self._store = TournamentStore(self.path)
        return self._store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None


class Shared:
    """The logs in the server's PostgreSQL database, on the desk's own connection."""

    only_here = False

    def __init__(self) -> None:
        self._ready = False

    def logs(self, store: Any, conn: Any) -> TournamentLogs:
        from chessarbiter.server.games.pgdb import shared_tournaments  # psycopg: [scale]

        found = shared_tournaments(store, conn)
        if found is None:
            raise StoreError("the tournaments are kept in PostgreSQL, the database is not")
        if not self._ready:
            found.migrate()
            self._ready = True
        return found

    def close(self) -> None:
        """Nothing of its own to close."""
