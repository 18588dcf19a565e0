"""A tournament on a cluster: its log in the shared PostgreSQL database, so that every
process directs it, pairs it and shows it; games created by the pairing process, played
through any process, their results entered by their owners."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import psycopg
import pytest

from tests.server.test_cluster import Cluster, running
from tests.server.test_cluster_lobby import WAIT_S, auth, register


@pytest.fixture(scope="module")
def three() -> Iterator[Cluster]:
    with running("cluster_tournament", 3, "--open-registration") as cluster:
        yield cluster


async def post(client: httpx.AsyncClient, url: str, token: str, **fields: Any
               ) -> dict[str, Any]:
    answer = await client.post(url, headers=auth(token), json=fields)
    assert answer.status_code == 200, f"{url}: {answer.text}"
    data: dict[str, Any] = answer.json()
    return data


async def read(client: httpx.AsyncClient, url: str) -> dict[str, Any]:
    answer = await client.get(url)
    assert answer.status_code == 200, f"{url}: {answer.text}"
    data: dict[str, Any] = answer.json()
    return data


def test_a_round_robin_directed_and_played_through_every_process(three: Cluster) -> None:
    a, b, c = three.urls

    async def run() -> None:
        async with httpx.AsyncClient(timeout=WAIT_S) as client:
            org = (await register(client, a))[1]
            players = dict([await register(client, url)  # name: token
                            for url in (a, b, c, a)])  # made through different processes
            made = await post(client, f"{b}/api/tournament/new", org, name="Cluster open",
                              system="roundrobin", timeControl="5+3", profile="online")
            number = made["id"]
            for token, url in zip(players.values(), (c, a, b, c), strict=True):
                await post(client, f"{url}/api/tournament/{number}/join", token, rating=1500)

            # every process shows the same tournament, which lives in PostgreSQL
            views = [await read(client, f"{url}/api/tournament/{number}") for url in (a, b, c)]
            assert views[0] == views[1] == views[2]
            assert sorted(p["name"] for p in views[0]["players"]) == sorted(players)
            listed = [await read(client, f"{url}/api/tournament") for url in (a, b, c)]
            assert all(number in [t["id"] for t in each["tournaments"]] for each in listed)
            with psycopg.connect(three.dsn) as db:
                row = db.execute("SELECT count(*) FROM tournament_events WHERE "
                                 "tournament_id = %s", (number,)).fetchone()
            assert row is not None and row[0] == 1 + len(players)

            # paired through C: both boards get games (all four players are accounts)
            boards = (await post(client, f"{c}/api/tournament/{number}/pair", org))["boards"]
            assert len(boards) == 2 and all(board["game"] for board in boards)
            for board, url in zip(boards, (a, b), strict=True):  # resigned through others
                await post(client, f"{url}/api/board/game/{board['game']}/resign",
                           players[board["black"]])

            async def entered() -> dict[str, Any]:
                while True:  # the owner enters each result when its game ends
                    view = await read(client, f"{a}/api/tournament/{number}")
                    results = [board["result"] for board in view["pairings"][0]["boards"]]
                    if all(results):
                        return view
                    await asyncio.sleep(0.1)

            view = await asyncio.wait_for(entered(), WAIT_S)
            assert [board["result"] for board in view["pairings"][0]["boards"]] == \
                ["1-0", "1-0"]
            second = (await post(client, f"{b}/api/tournament/{number}/pair", org))["boards"]
            assert len(second) == 2 and {board["game"] for board in second}.isdisjoint(
                board["game"] for board in boards)
            standings = (await read(client, f"{c}/api/tournament/{number}"))["standings"]
            winners = {board["white"] for board in boards}
            assert {row["name"] for row in standings if row["points"] == 1} == winners

    asyncio.run(run())
