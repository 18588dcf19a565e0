"""The server assembled: the hub with its ownership of the games, its fan-out of streams, its
lobby, its limits and where the tournaments are kept, each chosen once here (one process,
or its part of a cluster), the ASGI
application (the route table's routes, the tournaments' and the browser pages, over one
:class:`Hub` started and stopped with the app) and the production stack in front of it."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Final

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Receive, Scope, Send

from chessarbiter.server import tournaments, web
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.errors import ApiError
from chessarbiter.server.games.db import Database
from chessarbiter.server.games.hub import Hub
from chessarbiter.server.games.presence import Presence
from chessarbiter.server.http.cors import Cors
from chessarbiter.server.http.failures import (
    api_error,
    client_gone,
    database_error,
    server_error,
)
from chessarbiter.server.http.fastpath import FastPath
from chessarbiter.server.http.guard import BodyLimit, SecurityHeaders
from chessarbiter.server.http.openapi import document
from chessarbiter.server.http.routes import ROUTES
from chessarbiter.server.http.services import Services
from chessarbiter.server.http.share import Share
from chessarbiter.server.limits import Limits
from chessarbiter.server.lobby.lobby import Lobby, lobby_of
from chessarbiter.server.lobby.memory import MemoryLobby
from chessarbiter.server.tournaments.keeping import InFile, Shared
from chessarbiter.store.base import StoreError
from chessarbiter.store.names import is_postgres


def page_routes(hub: Hub) -> list[BaseRoute]:
    """The browser pages (chessarbiter.server.web plugs its routes in here)."""
    return web.routes()


API: Final = ROUTES.extended(tournaments.operations())
"""The app's route table: the API's routes (:data:`~chessarbiter.server.http.routes.ROUTES`)
and the tournaments'."""


def api_document() -> dict[str, Any]:
    """The OpenAPI document of every route, the tournaments' among them."""
    return document(API.documented())


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404 and web.wants_page(request):  # a mistyped address
        return web.missing("No such page", f"There is no page at {request.url.path}.")
    return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code,
                        headers=exc.headers)


def open_hub(config: ServerConfig, db: Database | None = None) -> Hub:
    """The server's hub over ``db`` (made from ``config`` when not given) and its lobby: one
    process (every game its own, streams, lobby and limits in memory), or with a bus
    (``config.bus``) this process's part of a cluster (games owned by lease, streams, lobby
    and limits through Redis)."""
    if config.bus is None:
        hub = Hub(config, db)
        Lobby(hub, MemoryLobby(config.now_ms))
        return hub
    from chessarbiter.server.cluster.cluster import Cluster
    from chessarbiter.server.cluster.limits import RedisCounts
    from chessarbiter.server.lobby.cluster_lobby import RedisLobby
    from chessarbiter.server.streams.bus import RedisFanout

    fanout = RedisFanout(config.bus)
    hub = Hub(config, db, fanout=fanout)
    address = config.advertise or f"{config.host}:{config.port}"
    counts = RedisCounts(config.bus, address, config.calendar_ms)
    hub.limits = Limits(config.calendar_ms, counts)
    hub.ownership = Cluster(hub, config.bus, fanout, address, counts)
    Lobby(hub, RedisLobby(config.bus, fanout.channels))
    return hub


class Server:
    """The server's ASGI app, as ``chessarbiter serve`` runs it and the tests call it: in a
    cluster, a request about a game another process owns goes there first
    (:class:`~chessarbiter.server.cluster.cluster.Forwarding`); the hot routes go straight
    to their endpoints (:class:`~chessarbiter.server.http.fastpath.FastPath`); the rest
    through the Starlette app :attr:`app`, those not about a game taking turns
    (:class:`~chessarbiter.server.http.share.Share`) (:attr:`state` is its state:
    ``state.services``, the :class:`~chessarbiter.server.http.services.Services`)."""

    def __init__(self, app: Starlette, entry: ASGIApp) -> None:
        self.app = app
        self.state = app.state
        self.entry = entry
        """The production stack in front of :attr:`app`."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.entry(scope, receive, send)


def create_app(config: ServerConfig | None = None, hub: Hub | None = None) -> Server:
    """The server: ``hub`` (:func:`open_hub` from ``config`` when not given) starts with the
    app's lifespan; the routes reach it and the other services through ``state.services``
    (:func:`services`); its routes are the route table's (:data:`API`)
    and the pages'."""
    the_hub = hub or open_hub(config or ServerConfig())
    app = starlette_app(the_hub)
    entry: ASGIApp = FastPath(app, API.hot, Share(app, API.game_of, writing=the_hub.db.writing,
                                                  prompt=web.PLAYING))
    if the_hub.config.bus is not None:
        from chessarbiter.server.cluster.cluster import Cluster, Forwarding

        assert isinstance(the_hub.ownership, Cluster)  # as open_hub made it
        entry = Forwarding(entry, the_hub.ownership, API.game_of)
    return Server(app, entry)


def services(hub: Hub) -> Services:
    """The services of the server over ``hub``, built once for the routes."""
    return Services(config=hub.config, hub=hub, members=hub.members, loader=hub.loader,
                    dormant=hub.dormant, limits=hub.limits, fanout=hub.fanout,
                    presence=Presence(hub.config), db=hub.db, reader=hub.reader,
                    lobby=lobby_of(hub))


def starlette_app(hub: Hub) -> Starlette:
    """The Starlette app over ``hub``: every route, the guards, the error handlers."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    tournaments.attach(hub, Shared() if is_postgres(str(hub.config.db))
                       else InFile(Path(hub.config.db)))
    routes: list[BaseRoute] = [
        *API.routes(),
        *tournaments.page_routes(),
        *page_routes(hub),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[
        Middleware(SecurityHeaders), Middleware(Cors), Middleware(BodyLimit)],
                    exception_handlers={
        ApiError: api_error, HTTPException: http_error, sqlite3.Error: database_error,
        ClientDisconnect: client_gone,
        StoreError: database_error, Exception: server_error})
    app.state.services = services(hub)
    app.state.openapi = api_document()
    return app
