"""Where games are kept: an :class:`EventStore` records a game's setup and each event as the
arbiter accepts it, and gives the game back replayed (the analyses read, not run again).
Two stores: JSON-lines files, one per game (:class:`JsonlStore`), and one SQLite database
(:class:`SqliteStore`); :func:`open_store` picks one by the path it is given."""

from chessarbiter.store.base import EventStore, GameInfo, Recording, StoreError
from chessarbiter.store.jsonl import JsonlStore
from chessarbiter.store.opening import open_store
from chessarbiter.store.sqlite import SqliteStore

__all__ = ["EventStore", "GameInfo", "JsonlStore", "Recording", "SqliteStore", "StoreError",
           "open_store"]
