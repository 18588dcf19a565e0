"""A cluster's limits are the cluster's, not each process's (docs/server.md, "Limits"): an
account that used its creations or its streams through one process is refused (429) by
another; the streams of a process that died stop counting once its hash has expired; a
stream passed on to a game's owner is counted once, where the client holds it, and a
client cannot claim it was (PostgreSQL and Redis; two hubs in process on a calendar driven
by hand, and two processes); without Redis each process counts alone."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
import redis

from chessarbiter.server import limits
from chessarbiter.server.app import create_app, open_services
from chessarbiter.server.cluster.limits import PASSED_ON, STREAMS_TTL_MS, RedisCounts
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.errors import ApiError
from chessarbiter.server.limits import CREATIONS_PER_ACCOUNT, STREAMS_PER_ACCOUNT, Limits
from tests.server.test_cluster import Cluster, free_port, running
from tests.server.test_cluster_lobby import WAIT_S, auth, register
from tests.services import fresh_bus, fresh_schema

PLAIN: dict[str, Any] = {"headers": []}
"""A request's scope as the counts read it: no header."""


@pytest.fixture
def bus() -> Iterator[str]:
    yield fresh_bus("cluster_limits")


@pytest.fixture(scope="module")
def two() -> Iterator[Cluster]:
    with running("cluster_limits_two", 2, "--open-registration") as cluster:
        yield cluster


def test_two_processes_share_an_accounts_creations(bus: str) -> None:
    dsn = fresh_schema("cluster_limits")
    calendar = [1_700_000_000_000]

    async def run() -> None:
        processes = [open_services(ServerConfig(db=dsn, bus=bus, port=free_port(), timers=False,
                                           calendar_ms=lambda: calendar[0])) for _ in range(2)]
        apps = [create_app(services=process) for process in processes]
        for process in processes:
            await process.hub.start()
        clients = [httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://test") for app in apps]
        try:
            _, token = await processes[0].members.add("Alice")
            await processes[0].members.add("Bob")
            one, two = clients
            for _ in range(CREATIONS_PER_ACCOUNT.count):
                made = await one.post("/api/challenge/bob", headers=auth(token))
                assert made.status_code == 200, made.text
            refused = await two.post("/api/challenge/bob", headers=auth(token))
            assert refused.status_code == 429, refused.text
            wait = CREATIONS_PER_ACCOUNT.per_ms // CREATIONS_PER_ACCOUNT.count
            assert refused.headers["Retry-After"] == str(wait // 1000)
            calendar[0] += wait  # one more, for either process
            assert (await two.post("/api/challenge/bob", headers=auth(token))
                    ).status_code == 200
            assert (await one.post("/api/challenge/bob", headers=auth(token))
                    ).status_code == 429
        finally:
            for client in clients:
                await client.aclose()
            for process in processes:
                await process.hub.stop()

    asyncio.run(run())


@contextlib.asynccontextmanager
async def two_processes(bus: str) -> AsyncIterator[tuple[RedisCounts, RedisCounts]]:
    """The counts of two processes of the cluster, started."""
    both = [RedisCounts(bus, address, lambda: 0) for address in ("a:1", "b:1")]
    for counts in both:
        await counts.start()
    try:
        yield both[0], both[1]
    finally:
        for counts in both:
            await counts.stop()


def test_the_streams_of_a_process_gone_count_no_more(bus: str) -> None:
    async def run() -> None:
        async with two_processes(bus) as (gone, alive):
            key = [("account:alice", STREAMS_PER_ACCOUNT)]
            for _ in range(STREAMS_PER_ACCOUNT):
                assert callable(await gone.hold(key, PLAIN))
            assert await alive.hold(key, PLAIN) == "account:alice"
            client = redis.Redis.from_url(bus)
            try:
                assert 0 < client.pttl(gone.mine) <= STREAMS_TTL_MS
                client.delete(gone.mine)  # its time to live ran out: the process died
            finally:
                client.close()
            closes = [await alive.hold(key, PLAIN) for _ in range(STREAMS_PER_ACCOUNT)]
            assert all(callable(close) for close in closes)
            assert await alive.hold(key, PLAIN) == "account:alice"

    asyncio.run(run())


def test_a_stream_passed_on_is_counted_where_it_is_held_and_a_client_cannot_say_so(
        bus: str) -> None:
    async def run() -> None:
        async with two_processes(bus) as (owner, other):
            assert owner.secret == other.secret != ""
            key = [("account:alice", 1)]
            passed = {"headers": [(b"accept", b"*/*"),
                                  (PASSED_ON.encode(), other.passed_on()[1].encode())]}
            forged = {"headers": [(PASSED_ON.encode(), b"guessed")]}
            held = await other.hold(key, PLAIN)
            assert callable(held)
            assert callable(await owner.hold(key, passed))  # counted by the other already
            assert await owner.hold(key, forged) == "account:alice"
            held()
            for _ in range(100):  # the close is counted in Redis by a task of its own
                if callable(await owner.hold(key, forged)):
                    break
                await asyncio.sleep(0.01)
            else:
                raise AssertionError("the stream closed is still counted")

    asyncio.run(run())


def test_an_account_holding_its_streams_at_one_process_is_refused_at_another(
        two: Cluster) -> None:
    async def run() -> None:
        a, b = two.urls
        async with httpx.AsyncClient(timeout=WAIT_S) as client:
            _, token = await register(client, a)
            opened = []
            try:
                for _ in range(limits.STREAMS_PER_ACCOUNT):
                    request = client.build_request("GET", f"{a}/api/stream/event",
                                                   headers=auth(token))
                    opened.append(await client.send(request, stream=True))
                    assert opened[-1].status_code == 200
                over = await client.send(client.build_request(
                    "GET", f"{b}/api/stream/event", headers=auth(token)), stream=True)
                opened.append(over)  # closed at the end should it be open
                assert over.status_code == 429
                assert "per account" in json.loads(await over.aread())["error"]
                opened.remove(over)
                await opened.pop().aclose()
                for _ in range(int(WAIT_S * 10)):  # until the first process sees it closed
                    request = client.build_request("GET", f"{b}/api/stream/event",
                                                   headers=auth(token))
                    again = await client.send(request, stream=True)
                    if again.status_code == 200:
                        opened.append(again)
                        break
                    await again.aclose()
                    await asyncio.sleep(0.1)
                assert opened[-1].status_code == 200 and len(opened) == \
                    limits.STREAMS_PER_ACCOUNT
            finally:
                for response in opened:
                    await response.aclose()

    asyncio.run(run())


def test_while_redis_does_not_answer_a_process_counts_alone(
        caplog: pytest.LogCaptureFixture) -> None:
    async def run() -> None:
        counts = RedisCounts("redis://127.0.0.1:1/0", "a:1", lambda: 0)  # nothing listens
        alone = Limits(lambda: 0, counts)
        for _ in range(CREATIONS_PER_ACCOUNT.count):
            await alone.create("alice", None)
        with pytest.raises(ApiError) as refused:
            await alone.create("alice", None)
        assert refused.value.status == 429
        closes = [await alone.open_stream("alice", None, PLAIN)
                  for _ in range(STREAMS_PER_ACCOUNT)]
        with pytest.raises(ApiError):
            await alone.open_stream("alice", None, PLAIN)
        closes.pop()()
        await alone.open_stream("alice", None, PLAIN)

    asyncio.run(run())
    told = [r.getMessage() for r in caplog.records if "Redis does not answer" in r.getMessage()]
    assert len(told) == 1, told  # once, not at every count
