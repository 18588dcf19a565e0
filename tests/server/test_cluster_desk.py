"""A tournament's desk on a cluster's process (in process, over PostgreSQL and Redis): when
the next round is paired, a game of the last round that another process took meanwhile is
left to that process (which enters its result), not refused with a 503.

The desk used to ask who owned the game, then load it: a process taking the game between
the two (its sweep, a player's request) made the pairing answer 503 "another process owns
it" under load. Now taking the game is the one step (its lease), and a game another process
holds is skipped."""

from __future__ import annotations

import asyncio

import pytest

from chessarbiter.server.accounts import Role
from chessarbiter.server.app import create_app, open_services
from chessarbiter.server.cluster.cluster import Cluster
from chessarbiter.server.cluster.lease import Leases
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.errors import ApiError
from chessarbiter.server.tournaments.api import read_settings
from chessarbiter.server.tournaments.desk import DESKS
from chessarbiter.tournament.events import Registered
from tests.server.test_cluster import free_port
from tests.services import fresh_bus, fresh_schema


def test_pairing_leaves_a_game_another_process_took_meanwhile_to_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    dsn, bus = fresh_schema("cluster_desk"), fresh_bus("cluster_desk")

    async def run() -> None:
        services = open_services(ServerConfig(db=dsn, bus=bus, port=free_port(), timers=False))
        create_app(services=services)  # the desk attaches to the hub
        await services.hub.start()
        other = Leases(bus, "10.0.0.2:9000")
        try:
            director, _ = await services.members.add("Director", Role.ARBITER)
            for name in ("Ann", "Bob"):
                await services.members.add(name)
            desk = DESKS[services.hub]
            number = await desk.create(director, read_settings(
                {"name": "Open", "system": "roundrobin"}), "5+3", "online")
            for name in ("Ann", "Bob"):
                await desk.register(number, Registered(name, 1500))
            [board] = await desk.pair(director, number)
            game_id = board.game_id
            assert game_id is not None and game_id in services.hub.games

            # another process takes the game over: this one has lost its lease
            cluster = services.ownership
            assert isinstance(cluster, Cluster)
            with cluster._lock:
                lease = cluster.held.pop(game_id)
            services.hub.forget(services.hub.games[game_id])
            await asyncio.to_thread(cluster.leases.release, lease)
            assert await asyncio.to_thread(other.take, game_id) is not None

            async def no_one(game_id: str) -> str | None:
                return None  # as asked the instant before the other process took it

            monkeypatch.setattr(cluster, "owner", no_one)
            with pytest.raises(ApiError) as refused:
                await desk.pair(director, number)
            # past the last round's games: the tournament's own answer, not a 503
            assert (refused.value.status, refused.value.message) == (
                400, "pair: all 1 rounds are paired")
            assert game_id not in services.hub.games  # left to its owner
        finally:
            other.close()
            await services.hub.stop()

    asyncio.run(run())
