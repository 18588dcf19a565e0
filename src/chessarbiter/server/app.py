"""The server assembled: its services, each built once here and given to those that use it
(:func:`open_services`: the game room, the ownership of the games, the fan-out of streams,
the lobby, the limits, ...; one process, or its part of a cluster), where the tournaments
are kept, the ASGI application (the route table's routes, the tournaments' and the browser
pages, over one :class:`Hub` started and stopped with the app) and the production stack in
front of it."""

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
from chessarbiter.server.games.db import Database, Worker
from chessarbiter.server.games.hub import Hub
from chessarbiter.server.games.loading import Loader
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
from chessarbiter.server.lobby.lobby import Lobby
from chessarbiter.server.lobby.memory import MemoryLobby
from chessarbiter.server.lobby.store import LobbyStore
from chessarbiter.server.members import CheckAccounts, Members
from chessarbiter.server.streams.fanout import Fanout, InProcess
from chessarbiter.server.tournaments.keeping import InFile, Shared
from chessarbiter.store.base import StoreError
from chessarbiter.store.names import is_postgres


def page_routes() -> list[BaseRoute]:
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


def open_services(config: ServerConfig, db: Database | None = None) -> Services:
    """The server's services over ``db`` (made from ``config`` when not given), each built
    once and given to those that use it: one process (every game its own, streams, lobby
    and limits in memory), or with a bus (``config.bus``) this process's part of a cluster
    (games owned by lease, streams, lobby and limits through Redis)."""
    database = db or Database(config.db)
    reader = Worker(config.db, "chessarbiter-db-read")
    members = Members(database, reader)
    loader = Loader(reader, config.now_ms)
    if config.bus is None:
        fanout: Fanout = InProcess()
        limits = Limits(config.now_ms)
        hub = Hub(config, database, reader, members, loader, fanout)
        store: LobbyStore = MemoryLobby(config.now_ms)
    else:
        from chessarbiter.server.cluster.cluster import Cluster
        from chessarbiter.server.cluster.limits import RedisCounts
        from chessarbiter.server.lobby.cluster_lobby import RedisLobby
        from chessarbiter.server.streams.bus import RedisFanout

        redis = RedisFanout(config.bus)
        fanout = redis
        address = config.advertise or f"{config.host}:{config.port}"
        counts = RedisCounts(config.bus, address, config.calendar_ms)
        limits = Limits(config.calendar_ms, counts)
        hub = Hub(config, database, reader, members, loader, fanout)
        cluster = Cluster(hub, config.bus, redis, address, counts, config=config,
                          db=database, reader=reader, members=members, loader=loader,
                          limits=limits)
        loader.ownership = cluster
        store = RedisLobby(config.bus, redis.channels)
    return Services(config=config, hub=hub, members=members, loader=loader,
                    dormant=loader.dormant, limits=limits, fanout=fanout,
                    presence=Presence(config), db=database, reader=reader,
                    lobby=Lobby(hub, members, config.now_ms, store),
                    ownership=loader.ownership)


class Server:
    """The server's ASGI app, as ``chessarbiter serve`` runs it and the tests call it: each
    request's token and session made current first
    (:class:`~chessarbiter.server.members.CheckAccounts`); in a cluster, a request about a
    game another process owns goes there next
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


def create_app(config: ServerConfig | None = None, services: Services | None = None
               ) -> Server:
    """The server: ``services`` (:func:`open_services` from ``config`` when not given), whose
    game room starts with the app's lifespan; the routes reach them through
    ``state.services``; its routes are the route table's (:data:`API`) and the pages'."""
    built = services or open_services(config or ServerConfig())
    app = starlette_app(built)
    entry: ASGIApp = FastPath(app, API.hot, Share(app, API.game_of, writing=built.db.writing,
                                                  prompt=web.PLAYING))
    if built.config.bus is not None:
        from chessarbiter.server.cluster.cluster import Cluster, Forwarding

        assert isinstance(built.ownership, Cluster)  # as open_services made it
        entry = Forwarding(entry, built.ownership, API.game_of)
    return Server(app, CheckAccounts(entry, built.members))


def starlette_app(services: Services) -> Starlette:
    """The Starlette app over ``services``: every route, the guards, the error handlers."""
    hub = services.hub

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    config = services.config
    tournaments.attach(services, Shared() if is_postgres(str(config.db))
                       else InFile(Path(config.db)))
    routes: list[BaseRoute] = [
        *API.routes(),
        *tournaments.page_routes(),
        *page_routes(),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[
        Middleware(SecurityHeaders), Middleware(Cors), Middleware(BodyLimit)],
                    exception_handlers={
        ApiError: api_error, HTTPException: http_error, sqlite3.Error: database_error,
        ClientDisconnect: client_gone,
        StoreError: database_error, Exception: server_error})
    app.state.services = services
    app.state.openapi = api_document()
    return app
