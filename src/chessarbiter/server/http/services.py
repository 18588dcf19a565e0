"""The server's services, built once when the server is assembled
(:func:`chessarbiter.server.app.create_app`) and kept on the app's state: the routes reach
each one here (:func:`services_of`), the game room (:attr:`Services.hub`) for its own work
only (getting, acting, creating, aborting a game), as lila's modules are given what they
depend on."""

from __future__ import annotations

from dataclasses import dataclass

from starlette.requests import Request

from chessarbiter.server.config import ServerConfig
from chessarbiter.server.games.db import Database, Worker
from chessarbiter.server.games.dormant import Dormant
from chessarbiter.server.games.hub import Hub
from chessarbiter.server.games.loading import Loader
from chessarbiter.server.games.ownership import Ownership
from chessarbiter.server.games.presence import Presence
from chessarbiter.server.limits import Limits
from chessarbiter.server.lobby.lobby import Lobby
from chessarbiter.server.members import Members
from chessarbiter.server.streams.fanout import Fanout


@dataclass(frozen=True, eq=False)
class Services:
    """What the routes use: the configuration, the game room, the accounts and browser
    sessions, the games read from the store and those not loaded since the start, the
    limits, the streams' fan-out and who is at the board, the database's writer and reader,
    the lobby, and which games this process owns."""

    config: ServerConfig
    hub: Hub
    members: Members
    loader: Loader
    dormant: Dormant
    limits: Limits
    fanout: Fanout
    presence: Presence
    db: Database
    reader: Worker
    lobby: Lobby
    ownership: Ownership


def services_of(request: Request) -> Services:
    """The services of the app serving ``request``."""
    services: Services = request.app.state.services
    return services
