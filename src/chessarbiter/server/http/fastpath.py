"""The hot routes without the framework's layers: a move and a game's stream.

Under load nearly every request is a move (``POST /api/board/game/{id}/move/{uci}``) and
nearly every line sent is a game stream's (``GET /api/board/game/stream/{id}``). Through
Starlette each passes two error middlewares and the router's match against every route.
:class:`FastPath` sends the route table's plain-ASGI routes (:mod:`.routes`, those two)
straight to their endpoints (the same endpoints the app routes, so the same answers: an
unexpected error is answered and logged by the app's own handler) and everything else to
the app. Measured in
``docs/server-ops.md`` (``bench/load_server.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from chessarbiter.server.http.asgi import Raw
from chessarbiter.server.http.failures import server_error

HotRoutes = Callable[[str, str], tuple[Raw, dict[str, Any]] | None]
"""A request's hot route and path parameters by its method and path
(:meth:`~chessarbiter.server.http.routes.Table.hot`)."""


class FastPath:
    """An ASGI app: the hot routes (found by ``hot``) served directly, the rest by ``rest``
    (default: ``app``; the server's :class:`~.share.Share` in front of it)."""

    def __init__(self, app: Starlette, hot: HotRoutes, rest: ASGIApp | None = None) -> None:
        self.app = app
        self.hot = hot
        self.rest: ASGIApp = app if rest is None else rest

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = self.hot(scope["method"], scope["path"]) if scope["type"] == "http" else None
        if found is None:
            await self.rest(scope, receive, send)
            return
        endpoint, params = found
        scope["app"] = self.app
        scope["path_params"] = params
        try:
            await endpoint(scope, receive, send)
        except Exception as exc:  # as the app's last handler: a 500 in JSON, logged
            response = await server_error(Request(scope, receive), exc)
            await response(scope, receive, send)
