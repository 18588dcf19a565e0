"""Where games are kept: an :class:`EventStore` records a game's setup and each event as the
arbiter accepts it, and gives the game back replayed (the analyses read, not run again).
Three stores: JSON-lines files, one per game (:class:`JsonlStore`), one SQLite database
(:class:`SqliteStore`) and a PostgreSQL database shared by several processes
(``store.postgres.PostgresStore``, imported only when asked: psycopg is the optional extra
``scale``); :func:`open_store` picks one by the path or URI it is given."""

from chessarbiter.store.base import EventStore, GameInfo, Recording, StoreError
from chessarbiter.store.jsonl import JsonlStore
from chessarbiter.store.opening import open_store
from chessarbiter.store.sqlite import SqliteStore

__all__ = ["EventStore", "GameInfo", "JsonlStore", "Recording", "SqliteStore", "StoreError",
           "open_store"]
