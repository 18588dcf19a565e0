"""A cluster's process restarted (in process, over PostgreSQL and Redis) loads its games as
one process does (docs/server-ops.md): it listens at once whatever the number of unfinished
games, claims none at the start, and loads each when it is asked for or due, its time
running on from its last event from the instant the process listens. The deadlines it needs
are kept in PostgreSQL by the writer, as in SQLite."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import psycopg
import pytest
from psycopg.pq import TransactionStatus

from chessarbiter.server.app import create_app, open_services
from chessarbiter.server.cluster.cluster import Cluster
from chessarbiter.server.cluster.lease import Leases
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.games.db import SCHEMA, UPDATE_DUES
from chessarbiter.server.games.meta import new_id
from chessarbiter.server.games.pgdb import open_postgres
from chessarbiter.store.base import StoreError
from tests.clock.fake_time import FakeTime
from tests.server.helpers import InProcess
from tests.server.test_api import friendly_game, play
from tests.server.test_cluster import free_port
from tests.services import fresh_bus, fresh_schema

MINUTE = 60_000
COPIES = 1_000


@asynccontextmanager
async def cluster_process(dsn: str, bus: str, clock: FakeTime, starts: list[float]
                          ) -> AsyncIterator[InProcess]:
    """One process of the cluster on ``dsn`` and ``bus``, its games on ``clock``; ``starts``
    gets how long it took to start (after which it listens; seconds)."""
    services = open_services(ServerConfig(db=dsn, bus=bus, port=free_port(), timers=False,
                                now_ms=clock))
    app = create_app(services=services)
    began = time.perf_counter()
    await services.hub.start()
    starts.append(time.perf_counter() - began)
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://test") as client:
            yield InProcess(services.hub, client, clock, services)
    finally:
        await services.hub.stop()


def clone(dsn: str, game_id: str, copies: int) -> list[str]:
    """``copies`` copies of the game ``game_id`` (its log, players and deadline), written
    in one transaction."""
    with psycopg.connect(dsn) as db:
        store_id, meta = db.execute("SELECT store_id, meta FROM server_games WHERE id = %s",
                                    (game_id,)).fetchone() or ("", "")
        numbers = [row[0] for row in db.execute(
            "INSERT INTO games (setup, start, log_version, solver, tags, created_ms, "
            "updated_ms, outcome, last_seq) SELECT setup, start, log_version, solver, tags, "
            "created_ms, updated_ms, outcome, last_seq FROM games, generate_series(1, %s) "
            "WHERE id = %s RETURNING id", (copies, int(store_id))).fetchall()]
        db.execute("INSERT INTO events SELECT m.id, e.seq, e.at_ms, e.kind, e.json "
                   "FROM events e, unnest(%s::bigint[]) AS m(id) WHERE e.game_id = %s",
                   (numbers, int(store_id)))
        deadline = db.execute("SELECT white, black, events, due_ms FROM server_deadlines "
                              "WHERE game = %s", (game_id,)).fetchone() or ()
        ids = [new_id() for _ in numbers]
        with db.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO server_games (id, store_id, meta) VALUES (%s, %s, %s)",
                [(public, str(number),
                  json.dumps(json.loads(meta) | {"id": public, "store_id": str(number)}))
                 for public, number in zip(ids, numbers, strict=True)])
            cursor.executemany("INSERT INTO server_deadlines VALUES (%s, %s, %s, %s, %s)",
                               [(public, *deadline) for public in ids])
    return ids


def test_a_restarted_cluster_process_claims_nothing_and_loads_games_when_asked() -> None:
    dsn, bus = fresh_schema("cluster_restart"), fresh_bus("cluster_restart")
    clock = FakeTime()
    starts: list[float] = []
    found: dict[str, str] = {}

    async def before() -> None:
        async with cluster_process(dsn, bus, clock, starts) as s:
            game_id, alice, bob = await friendly_game(s, **{"clock.limit": "60"})
            await play(s, game_id, "e2e4 e7e5", alice, bob)
            clock.advance(4_000)  # alice thinks; the process stops before her move
            found.update(game=game_id, alice=alice["Authorization"])

    async def after(ids: list[str]) -> None:
        other = Leases(bus, "10.0.0.2:9000")  # another process of the cluster
        try:
            async with cluster_process(dsn, bus, clock, starts) as s:
                await restarted(s, ids, other)
        finally:
            other.close()

    async def restarted(s: InProcess, ids: list[str], other: Leases) -> None:
        listening = clock.ms
        cluster = s.services.ownership
        assert isinstance(cluster, Cluster)
        assert len(s.services.dormant) == COPIES + 1 and not s.hub.games
        assert cluster.held == {}  # nothing claimed at the start
        elsewhere = await asyncio.to_thread(other.take, ids[0])  # the other one plays it
        assert elsewhere is not None
        assert await cluster.sweep() == 0 and not s.hub.games  # nor by the sweep, whose
        assert len(s.services.dormant) == COPIES and ids[0] not in s.services.dormant  # first look
        # forgets the games held elsewhere (nor counts them among this process's games)
        clock.advance(10_000)
        copy = ids[COPIES // 2]
        data = (await s.client.get(f"/api/game/{copy}")).json()  # loaded when asked for
        assert data["state"]["moves"] == "e2e4 e7e5"
        assert (data["state"]["wtime"], data["state"]["btime"]) == (50_000, MINUTE)
        assert list(s.hub.games) == [copy] and cluster.owns(copy)
        moved = await s.post(f"/api/board/game/{copy}/move/g1f3",
                             {"Authorization": found["alice"]})
        assert moved.status_code == 200, moved.text
        # the deadlines were kept in PostgreSQL: every other game's flag falls a minute
        # after the process listens, none before
        assert s.services.dormant.due(listening + MINUTE - 1) == []
        due = s.services.dormant.due(listening + MINUTE)
        assert len(due) == COPIES - 1 and copy not in due
        clock.advance(MINUTE)
        await s.services.dormant.wake(due[:3])  # as their timers do: claimed, loaded, flagged
        for game_id in due[:3]:
            entry = s.hub.games[game_id]
            assert cluster.owns(game_id) and entry.game.outcome is not None
            assert entry.game.outcome.winner is not None

        # games the other process loaded meanwhile are dormant here no more: left to it
        # while it holds them, taken over by the sweep once it is gone
        woken, swept = due[3], due[4]
        leases = [await asyncio.to_thread(other.take, g) for g in (woken, swept)]
        await s.services.dormant.wake([woken])  # its timer: another process plays it
        assert woken not in s.services.dormant and woken not in s.hub.games
        await cluster.sweep()
        assert swept not in s.services.dormant and swept not in s.hub.games
        assert len(s.services.dormant) == COPIES - 6
        for lease in leases:
            assert lease is not None
            await asyncio.to_thread(other.release, lease)
        assert await cluster.sweep() == 2
        assert {woken, swept} <= set(s.hub.games) and cluster.owns(swept)
        assert ids[0] not in s.hub.games  # still held by the other process

    asyncio.run(before())
    clock.advance(60 * MINUTE)  # the downtime
    ids = clone(dsn, found["game"], COPIES)
    asyncio.run(after(ids))
    print(f"\n{COPIES + 1} unfinished games: the process listened after {starts[1]:.2f} s")
    assert starts[1] < 2.0


def test_deadlines_are_written_in_one_statement_and_a_failure_leaves_nothing_open() -> None:
    store, conn = open_postgres(fresh_schema("cluster_restart"), SCHEMA)
    try:
        for game in ("a", "b", "c"):
            conn.execute("INSERT INTO server_deadlines VALUES (?, ?, ?, ?, ?)",
                         (game, None, None, 1, 0))
        conn.execute_lazily(UPDATE_DUES, [[3, 5], [None, 60_000], ["a", "c"]])
        assert conn.execute("SELECT game, events, due_ms FROM server_deadlines ORDER BY game"
                            ).fetchall() == [("a", 3, None), ("b", 1, 0), ("c", 5, 60_000)]
        with pytest.raises(StoreError):
            conn.execute_lazily(UPDATE_DUES, [["x"], [1], ["a"]])  # not a number
        assert conn.db.info.transaction_status == TransactionStatus.IDLE
        assert conn.execute("SELECT events FROM server_deadlines WHERE game = 'a'"
                            ).fetchall() == [(3,)]
    finally:
        conn.close()
        store.close()


def test_a_game_being_created_is_not_taken_by_another_process_s_sweep() -> None:
    """A new game's lease is taken before its row is written: another process's sweep,
    which takes the unfinished games no one holds, leaves it to its creator (it took it
    and the creation answered 503 when the lease came after the row)."""
    dsn, bus = fresh_schema("cluster_restart"), fresh_bus("cluster_restart")
    clock = FakeTime()
    swept: list[int] = []

    async def both() -> None:
        async with cluster_process(dsn, bus, clock, []) as a, \
                cluster_process(dsn, bus, clock, []) as b:
            other = b.services.ownership
            assert isinstance(other, Cluster)
            run = a.services.db.run

            async def run_then_sweep(work: Any) -> Any:
                done = await run(work)
                if "create_game" in work.__qualname__:  # the row written, the game not
                    swept.append(await other.sweep())  # yet in memory: B sweeps now
                return done

            a.services.db.run = run_then_sweep  # type: ignore[method-assign]
            game_id, alice, bob = await friendly_game(a)
            await play(a, game_id, "e2e4 e7e5", alice, bob)
            assert swept == [0] and game_id not in b.hub.games
            assert a.services.ownership.owns(game_id) and not other.owns(game_id)

    asyncio.run(both())
