"""``chessarbiter serve``: a game server applying the Laws, speaking the lichess Board API.

``create_app(config)`` is the ASGI app (Starlette); :class:`Hub` holds the live games over
the SQLite store. See docs/server.md."""

from chessarbiter.server.app import create_app
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.games.hub import Hub

__all__ = ["Hub", "ServerConfig", "create_app"]
