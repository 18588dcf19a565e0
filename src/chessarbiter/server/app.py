"""The ASGI application: the Board API, the arbiter's routes, the OpenAPI document and the
browser pages, over one :class:`Hub` started and stopped with the app."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from chessarbiter.server import tournaments, web
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.errors import ApiError
from chessarbiter.server.games.db import Database
from chessarbiter.server.games.hub import Hub
from chessarbiter.server.http import arbiter_api, board_api, bot_api, games_api
from chessarbiter.server.http.cors import Cors
from chessarbiter.server.http.failures import api_error, database_error, server_error
from chessarbiter.server.http.guard import BodyLimit, SecurityHeaders
from chessarbiter.server.http.openapi import Op, document
from chessarbiter.server.tournaments.spec import operations as tournament_operations
from chessarbiter.store.base import StoreError


def page_routes(hub: Hub) -> list[BaseRoute]:
    """The browser pages (chessarbiter.server.web plugs its routes in here)."""
    return web.routes()


def api_document() -> dict[str, Any]:
    """The OpenAPI document of every route, the tournaments' among them."""
    return document([Op(**fields) for fields in tournament_operations()])


async def openapi(request: Request) -> Response:
    return JSONResponse(api_document())


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404 and web.wants_page(request):  # a mistyped address
        return web.missing("No such page", f"There is no page at {request.url.path}.")
    return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code,
                        headers=exc.headers)


def open_hub(config: ServerConfig, db: Database | None = None) -> Hub:
    """The server's hub over ``db`` (made from ``config`` when not given); with a bus
    (``config.bus``), this process's part of the cluster, which brings the shared lobby."""
    hub = Hub(config, db)
    if config.bus is not None:
        from chessarbiter.server.cluster.cluster import Cluster

        hub.cluster = Cluster(hub, config.bus,
                              config.advertise or f"{config.host}:{config.port}")
    return hub


def create_app(config: ServerConfig | None = None, hub: Hub | None = None) -> Starlette:
    """The server's app: ``hub`` (:func:`open_hub` from ``config`` when not given) starts
    with the app's lifespan and is ``app.state.hub``."""
    the_hub = hub or open_hub(config or ServerConfig())

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
