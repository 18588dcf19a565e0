"""The hot routes without the framework's layers: a move and a game's stream.

Under load nearly every request is a move (``POST /api/board/game/{id}/move/{uci}``) and
nearly every line sent is a game stream's (``GET /api/board/game/stream/{id}``). Through
Starlette each passes two error middlewares and the router's match against every route.
:class:`FastPath` sends these two routes straight to their endpoints (the same ASGI
endpoints, :mod:`chessarbiter.server.http.asgi`, so the same answers: an unexpected error is
answered and logged by the app's own handler) and everything else to the app. Measured in
``docs/server-ops.md`` (``bench/load_server.py``).
"""

from __future__ import annotations

from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.types import Receive, Scope, Send

from chessarbiter.server.http import board_api
from chessarbiter.server.http.asgi import Raw
from chessarbiter.server.http.failures import server_error

GAME_PREFIXES = ("board", "bot")
"""``/api/board/game/...`` and ``/api/bot/game/...`` (the same routes)."""


def match(method: str, path: str) -> tuple[Raw, dict[str, Any]] | None:
    """The endpoint and path parameters of a hot route, as the app's router would find
    them (``None``: not a hot route)."""
    parts = path.split("/")
    if len(parts) < 6 or parts[1] != "api" or parts[2] not in GAME_PREFIXES or (
            parts[3] != "game") or not all(parts[4:]):
        return None
    if method == "POST" and len(parts) == 7 and parts[5] == "move":
        return board_api.move, {"gameId": parts[4], "move": parts[6]}
    if method == "GET" and len(parts) == 6 and parts[4] == "stream":
        return board_api.game_stream, {"gameId": parts[5]}
    return None


class FastPath:
    """An ASGI app: the hot routes served directly, the rest by ``app``."""

    def __init__(self, app: Starlette) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = match(scope["method"], scope["path"]) if scope["type"] == "http" else None
        if found is None:
            await self.app(scope, receive, send)
            return
        endpoint, params = found
        scope["app"] = self.app
        scope["path_params"] = params
        try:
            await endpoint(scope, receive, send)
        except Exception as exc:  # as the app's last handler: a 500 in JSON, logged
            response = await server_error(Request(scope, receive), exc)
            await response(scope, receive, send)
