"""A cluster's process (in process, over PostgreSQL and Redis) reads an account it does not
know from the shared database and trusts what it read for ``CHECK_S`` only (a token changed
or removed there stops working), and pairs no seek whose process stopped renewing
it, and learns its pairing from Redis when the bus's message is lost."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from chessarbiter.clock.records import Side
from chessarbiter.server import members as members_module
from chessarbiter.server.accounts import Role, insert_account, select_account
from chessarbiter.server.app import open_services
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.http.services import Services
from chessarbiter.server.lobby import cluster_lobby
from chessarbiter.server.lobby.cluster_lobby import RedisLobby, wall_ms
from chessarbiter.server.lobby.requests import read_request
from chessarbiter.server.members import CHECK_S
from tests.server.test_cluster import free_port
from tests.services import fresh_bus, fresh_schema


@asynccontextmanager
async def cluster_hub(dsn: str, bus: str) -> AsyncIterator[Services]:
    services = open_services(ServerConfig(db=dsn, bus=bus, port=free_port(), timers=False))
    await services.hub.start()
    try:
        yield services
    finally:
        await services.hub.stop()


def test_a_token_is_read_from_the_database_and_trusted_for_a_while(
        monkeypatch: pytest.MonkeyPatch) -> None:
    dsn, bus = fresh_schema("cluster_accounts"), fresh_bus("cluster_accounts")

    async def run() -> None:
        async with cluster_hub(dsn, bus) as services:
            members = services.members
            now = [1000.0]
            members.clock = lambda: now[0]
            account, token, _ = await services.db.run(  # made by another process
                lambda store, conn: insert_account(conn, "Ann"))
            assert members.accounts.by_token(token) is None
            await members.check_token(token)
            assert members.accounts.by_token(token) == account
            await services.db.run(lambda store, conn: conn.execute(
                "UPDATE server_accounts SET role = 'arbiter' WHERE id = 'ann'"))
            now[0] += CHECK_S - 1
            await members.check_token(token)
            await members.settled()
            trusted = members.accounts.by_token(token)
            assert trusted is not None and trusted.role is Role.PLAYER
            now[0] += 1
            await members.check_token(token)
            await members.settled()
            read_again = members.accounts.by_token(token)
            assert read_again is not None and read_again.is_arbiter
            await services.db.run(lambda store, conn: conn.execute(
                "DELETE FROM server_accounts WHERE id = 'ann'"))
            now[0] += CHECK_S
            await members.check_token(token)
            await members.settled()
            assert members.accounts.by_token(token) is None
            assert await members.named("nobody") is None
            reads = []  # a made-up token costs one database read per CHECK_S

            def counted(*args: Any) -> Any:
                reads.append(args)
                return select_account(*args)

            monkeypatch.setattr(members_module, "select_account", counted)
            for _ in range(3):
                await members.check_token("cha_madeup")
            assert len(reads) == 1 and members.accounts.by_token("cha_madeup") is None
            now[0] += CHECK_S
            await members.check_token("cha_madeup")
            assert len(reads) == 2

    asyncio.run(run())


def test_a_seek_its_process_stopped_renewing_pairs_with_no_one() -> None:
    dsn, bus = fresh_schema("cluster_seeks"), fresh_bus("cluster_seeks")
    request = read_request({"time": "9", "increment": "9"}, minutes=True)

    async def run() -> None:
        async with cluster_hub(dsn, bus) as services:
            lobby = services.lobby
            store = lobby.store
            assert isinstance(store, RedisLobby)
            kind = store._seeks(request)
            await store.redis.delete(kind)
            dead = json.dumps({"id": "deadseek", "at": 0, "request": request.to_json(),
                               "account": None})
            await store.redis.zadd(kind, {dead: wall_ms() - 1})  # lapsed
            waiting = asyncio.create_task(lobby.seek(None, request))

            async def seeks() -> list[str]:
                while True:
                    found: list[str] = await store.redis.zrange(kind, 0, -1)
                    if dead not in found:
                        return found
                    await asyncio.sleep(0.01)

            alive = await asyncio.wait_for(seeks(), 10)
            assert len(alive) == 1 and json.loads(alive[0])["id"] != "deadseek"
            game_id, side, secret = await asyncio.wait_for(lobby.seek(None, request), 10)
            their_id, their_side, their_secret = await asyncio.wait_for(waiting, 10)
            assert game_id == their_id and side is their_side.opponent
            assert secret and their_secret and secret != their_secret
            assert await store.redis.zrange(kind, 0, -1) == []

    asyncio.run(run())


def test_a_pairing_whose_message_was_lost_is_read_from_redis(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster_lobby, "SEEK_RENEW_S", 0.02)
    dsn, bus = fresh_schema("cluster_told"), fresh_bus("cluster_told")
    request = read_request({"time": "11", "increment": "11"}, minutes=True)

    async def run() -> None:
        async with cluster_hub(dsn, bus) as services:
            lobby = services.lobby
            store = lobby.store
            assert isinstance(store, RedisLobby)
            kind = store._seeks(request)
            await store.redis.delete(kind)
            waiting = asyncio.create_task(lobby.seek(None, request))

            async def waiting_seek() -> str:
                while not (found := await store.redis.zrange(kind, 0, -1)):
                    await asyncio.sleep(0.01)
                seek_id: str = json.loads(found[0])["id"]
                return seek_id

            seek_id = await asyncio.wait_for(waiting_seek(), 10)
            told = {"gameId": "abcdefgh", "color": "black", "secret": "s3cret"}
            await store.redis.set(store._told(seek_id), json.dumps(told))  # no message
            paired = await asyncio.wait_for(waiting, 10)
            assert paired == ("abcdefgh", Side.BLACK, "s3cret")
            assert await store.redis.zrange(kind, 0, -1) == []
            await store.redis.delete(store._told(seek_id))

    asyncio.run(run())
