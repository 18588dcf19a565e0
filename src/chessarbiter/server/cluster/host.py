"""What the cluster needs of the game room (the hub, which it is given when the server is
assembled, :func:`chessarbiter.server.app.open_hub`): declared here so that the cluster
knows no hub."""

from __future__ import annotations

from typing import Protocol

from chessarbiter.server.games.dormant import Dormant
from chessarbiter.server.games.host import Stored
from chessarbiter.server.games.loading import Loader
from chessarbiter.server.games.table import HubGame
from chessarbiter.server.limits import Limits


class ClusterHost(Stored, Protocol):
    """Also the games in memory and the dormant ones, loading (:attr:`loader`) and dropping a
    game, and the limits on streams."""

    @property
    def games(self) -> dict[str, HubGame]: ...

    @property
    def dormant(self) -> Dormant: ...

    @property
    def limits(self) -> Limits: ...

    @property
    def loader(self) -> Loader: ...

    def forget(self, entry: HubGame) -> None: ...
