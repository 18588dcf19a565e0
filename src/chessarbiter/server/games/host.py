"""What the parts beside the hub and above it need of it, as narrow protocols, so that none
of them below the HTTP side imports the hub (``tests/test_layers.py``): presence needs its
configuration (:class:`Configured`), the chat and the cluster also its database threads
and accounts (:class:`Stored`)."""

from __future__ import annotations

from typing import Protocol

from chessarbiter.server.accounts import Members
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.games.db import Database, Worker


class Configured(Protocol):
    """The server's configuration (the time source, whether timers run)."""

    @property
    def config(self) -> ServerConfig: ...


class Stored(Configured, Protocol):
    """Also the database's writer and reader, and the accounts."""

    @property
    def db(self) -> Database: ...

    @property
    def reader(self) -> Worker: ...

    @property
    def members(self) -> Members: ...
