"""The server is assembled once (``open_hub``, which ``create_app`` calls): one process gets
every game, in-process streams and a lobby in memory; a process of a cluster gets its part
of the cluster, the streams through Redis and the lobby in Redis. The routes and the game
room then use whichever they got, without asking (no branch on whether a cluster is on)."""

from __future__ import annotations

import re
from pathlib import Path

from chessarbiter.server.app import create_app, open_hub
from chessarbiter.server.cluster.cluster import Cluster, Forwarding
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.games.ownership import SingleProcess
from chessarbiter.server.lobby.cluster_lobby import RedisLobby
from chessarbiter.server.lobby.lobby import lobby_of
from chessarbiter.server.lobby.memory import MemoryLobby
from chessarbiter.server.streams.bus import RedisFanout
from chessarbiter.server.streams.fanout import InProcess

SERVER = Path(__file__).parents[2] / "src" / "chessarbiter" / "server"
ASKS_FOR_A_CLUSTER = re.compile(r"cluster is (not )?None|\b(hub|self)\.cluster\b")


def test_one_process_owns_every_game_and_keeps_streams_and_lobby_in_memory(
        tmp_path: Path) -> None:
    hub = open_hub(ServerConfig(db=tmp_path / "games.sqlite"))
    assert isinstance(hub.ownership, SingleProcess)
    assert type(hub.fanout) is InProcess
    assert isinstance(lobby_of(hub).store, MemoryLobby)
    assert hub.ownership.owns("anygame")
    app = create_app(hub=hub)
    assert not isinstance(app.entry, Forwarding)


def test_a_cluster_process_gets_the_cluster_the_redis_fanout_and_lobby() -> None:
    # nothing connects before the hub starts: no PostgreSQL or Redis is needed to assemble
    config = ServerConfig(db="postgresql://nobody@127.0.0.1:1/none",
                          bus="redis://127.0.0.1:1/0", port=8123)
    hub = open_hub(config)
    assert isinstance(hub.ownership, Cluster) and hub.ownership.address == "127.0.0.1:8123"
    assert isinstance(hub.fanout, RedisFanout)
    assert hub.ownership.bus is hub.fanout.games
    store = lobby_of(hub).store
    assert isinstance(store, RedisLobby) and store.bus is hub.fanout.channels
    assert not hub.ownership.owns("anygame")
    app = create_app(hub=hub)
    assert isinstance(app.entry, Forwarding) and app.entry.cluster is hub.ownership


def test_neither_the_routes_nor_the_game_room_ask_whether_a_cluster_is_on() -> None:
    found = [f"{path.relative_to(SERVER)}:{number}"
             for part in ("http", "games")
             for path in sorted((SERVER / part).glob("*.py"))
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if ASKS_FOR_A_CLUSTER.search(line)]
    assert len(list((SERVER / "http").glob("*.py"))) > 5
    assert found == []
