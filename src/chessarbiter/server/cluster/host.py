"""What the cluster needs of the game room (the hub, which it is given when the server is
assembled, :func:`chessarbiter.server.app.open_services`): declared here so that the cluster
knows no hub."""

from __future__ import annotations

from typing import Protocol

from chessarbiter.server.games.table import HubGame


class ClusterHost(Protocol):
    """Dropping a game from memory (another process owns it now)."""

    def forget(self, entry: HubGame) -> None: ...
