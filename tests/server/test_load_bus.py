"""What a cluster spends per move on Redis: an owner publishes only the games another process
relays (from the relay's request for the stream's first line, for as long as it is told so),
the relays say which games they relay, and the leases are renewed by one script call per
many leases with the same answers as one by one."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator

import httpx
import pytest

from tests.server.test_cluster import free_port
from tests.services import fresh_bus, fresh_schema, redis_url

pytest.importorskip("redis", reason="redis (the Python client) is not installed")
import redis

from chessarbiter.server.app import create_app, open_services
from chessarbiter.server.cluster import RELAY_HEADER
from chessarbiter.server.cluster.cluster import Cluster
from chessarbiter.server.cluster.lease import RENEW_CHUNK, Leases
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.streams.bus import WATCH_TTL_S, Bus


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_game_is_relayed_until_the_relays_stop_saying_so() -> None:
    clock = Clock()
    bus = Bus("redis://127.0.0.1:1/0", now=clock)  # not connected: nothing is sent
    assert not bus.relayed("g1")
    bus.watch("g1")
    clock.now += WATCH_TTL_S - 1
    assert bus.relayed("g1") and not bus.relayed("g2")
    bus.watch("g1")  # told again: a new term
    clock.now += WATCH_TTL_S - 1
    assert bus.relayed("g1")
    clock.now += 2
    assert not bus.relayed("g1")


@pytest.fixture
def prefix() -> Iterator[str]:
    """A key prefix of the test's own, its keys deleted afterwards."""
    name = f"test:{uuid.uuid4().hex}:"
    yield name
    client = redis.Redis.from_url(redis_url())
    for key in client.scan_iter(f"{name}*"):
        client.delete(key)
    client.close()


def test_an_owner_learns_which_games_another_process_relays(prefix: str) -> None:
    url = redis_url()

    async def run() -> tuple[bool, bool, bool]:
        owner, relay = Bus(url, prefix), Bus(url, prefix)
        await owner.start()
        await relay.start()
        try:
            queue = await relay.subscribe("g1")
            before = owner.relayed("g1")
            await relay.announce()
            for _ in range(200):  # the announcement crosses Redis
                if owner.relayed("g1"):
                    break
                await asyncio.sleep(0.01)
            told = owner.relayed("g1")
            owner.publish("g1", b"line\n")
            line = await asyncio.wait_for(queue.get(), 5)
            return before, told and not owner.relayed("g2"), line == b"line\n"
        finally:
            await relay.stop()
            await owner.stop()

    assert asyncio.run(run()) == (False, True, True)


def test_leases_renewed_together_answer_as_one_by_one(prefix: str) -> None:
    url = redis_url()
    mine, theirs = (Leases(url, address, prefix=prefix, ttl_ms=60_000, margin_ms=1_000)
                    for address in ("a:1", "b:2"))
    count = RENEW_CHUNK + 7  # two script calls
    held = [mine.take(f"g{n}") for n in range(count)]
    assert all(lease is not None for lease in held)
    leases = [lease for lease in held if lease is not None]
    lost = {3, RENEW_CHUNK + 1}  # expired, then taken by another process
    for n in lost:
        mine.redis.delete(mine.key(f"g{n}"))
        assert theirs.take(f"g{n}") is not None
    renewed = mine.renew_all(leases)
    assert [n for n, lease in enumerate(renewed) if lease is None] == sorted(lost)
    assert all(new.token == old.token and new.valid_until >= old.valid_until
               for new, old in zip(renewed, leases, strict=True) if new is not None)
    assert [mine.renew(lease) is None for lease in leases] == [
        n in lost for n in range(count)]
    mine.close()
    theirs.close()


def test_an_owner_publishes_a_game_only_once_a_relay_asked_for_its_stream() -> None:
    dsn, url = fresh_schema("load_relayed"), fresh_bus("load_relayed")

    async def run() -> tuple[int, bool, int, bool]:
        services = open_services(ServerConfig(db=dsn, bus=url, port=free_port(), timers=False))
        await services.hub.start()
        assert isinstance(services.ownership, Cluster)
        bus = services.ownership.bus
        try:
            app = create_app(services=services)
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                         base_url="http://test") as client:
                game = (await client.post("/api/challenge/open", json={})).json()
                white = {"Authorization": f"Bearer {game['secretWhite']}"}
                moves = f"/api/board/game/{game['id']}/move/"
                await client.post(moves + "e2e4", headers=white)
                alone = bus.published  # its streams all here: nothing for Redis
                await client.get(f"/api/game/{game['id']}")
                asked = bus.relayed(game["id"])  # by a client: still nothing
                await client.get(f"/api/game/{game['id']}", headers={RELAY_HEADER: "b:1"})
                await client.post(moves + "e7e5",
                                  headers={"Authorization": f"Bearer {game['secretBlack']}"})
                for _ in range(500):
                    if bus.published:
                        break
                    await asyncio.sleep(0.01)
                return alone, asked, bus.published, bus.relayed(game["id"])
        finally:
            await services.hub.stop()

    alone, asked, published, relayed = asyncio.run(run())
    assert alone == 0 and not asked
    assert published == 1 and relayed  # the move after the relay's request went out
