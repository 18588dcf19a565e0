"""The ASGI application: the Board API, the arbiter's routes, the OpenAPI document and the
browser pages, over one :class:`Hub` started and stopped with the app."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from chessarbiter.server import tournaments, web
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.errors import ApiError
from chessarbiter.server.games.hub import Hub
from chessarbiter.server.http import arbiter_api, board_api, bot_api, games_api
from chessarbiter.server.http.cors import Cors
from chessarbiter.server.http.guard import BodyLimit, SecurityHeaders
from chessarbiter.server.http.openapi import document
from chessarbiter.store.base import StoreError

log = logging.getLogger(__name__)


def page_routes(hub: Hub) -> list[BaseRoute]:
    """The browser pages (chessarbiter.server.web plugs its routes in here)."""
    return web.routes()


async def openapi(request: Request) -> Response:
    return JSONResponse(document())


async def api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return JSONResponse({"error": exc.message}, status_code=exc.status, headers=exc.headers)


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404 and web.wants_page(request):  # a mistyped address
        return web.missing("No such page", f"There is no page at {request.url.path}.")
    return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code,
                        headers=exc.headers)


async def database_error(request: Request, exc: Exception) -> Response:
    """A database that fails (a full disk, a lost connection): 503 saying so."""
    log.error("%s %s: the database failed: %s", request.method, request.url.path, exc)
    cause = (str(exc) if isinstance(exc, sqlite3.Error)
             else str(exc).partition(": ")[2] if isinstance(exc, StoreError)
             else type(exc).__name__)  # the store's text without the file's path
    return JSONResponse({"error": f"the server's database failed ({cause}); nothing was "
                                  "changed, try again later"}, status_code=503)


async def server_error(request: Request, exc: Exception) -> Response:
    """The last handler (and the fast path's): a failure of SQLite, the store or the
    PostgreSQL driver as :func:`database_error`; anything else a 500 naming the error's
    kind (logged with its traceback)."""
    if isinstance(exc, sqlite3.Error | StoreError) or \
            type(exc).__module__.partition(".")[0] == "psycopg":
        return await database_error(request, exc)
    log.exception("%s %s failed", request.method, request.url.path, exc_info=exc)
    return JSONResponse({"error": f"internal error: {type(exc).__name__}"}, status_code=500)


def create_app(config: ServerConfig | None = None, hub: Hub | None = None) -> Starlette:
    """The server's app: ``hub`` (made from ``config`` when not given) starts with the app's
    lifespan and is ``app.state.hub``."""
    the_hub = hub or Hub(config or ServerConfig())

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await the_hub.start()
        try:
            yield
        finally:
            await the_hub.stop()

    routes: list[BaseRoute] = [
        *board_api.routes(),
        *bot_api.routes(),
        *games_api.routes(),
        *arbiter_api.routes(),
        Route("/api/openapi.json", openapi, methods=["GET"]),
        *tournaments.routes(the_hub),
        *page_routes(the_hub),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[
        Middleware(SecurityHeaders), Middleware(Cors), Middleware(BodyLimit)],
                    exception_handlers={
        ApiError: api_error, HTTPException: http_error, sqlite3.Error: database_error,
        StoreError: database_error, Exception: server_error})
    app.state.hub = the_hub
    return app
