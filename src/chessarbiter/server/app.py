"""The ASGI application: the Board API, the arbiter's routes, the OpenAPI document and the
browser pages, over one :class:`Hub` started and stopped with the app."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from chessarbiter.server import arbiter_api, board_api
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.errors import ApiError
from chessarbiter.server.hub import Hub
from chessarbiter.server.openapi import document

log = logging.getLogger(__name__)


def page_routes(hub: Hub) -> list[BaseRoute]:
    """The browser pages (chessarbiter.server.web plugs its routes in here)."""
    return []


async def openapi(request: Request) -> Response:
    return JSONResponse(document())


async def api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return JSONResponse({"error": exc.message}, status_code=exc.status)


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code,
                        headers=exc.headers)


async def server_error(request: Request, exc: Exception) -> Response:
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
        *arbiter_api.routes(),
        Route("/api/openapi.json", openapi, methods=["GET"]),
        *page_routes(the_hub),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={
        ApiError: api_error, HTTPException: http_error, Exception: server_error})
    app.state.hub = the_hub
    return app
