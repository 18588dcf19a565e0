"""A load balancer may send each request of a user to any process of a cluster: accounts,
challenges, seeks, event streams and the game page work through every process (three
processes over PostgreSQL and Redis)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from chessarbiter.server import limits
from chessarbiter.server.accounts import Role, insert_account
from chessarbiter.server.games.db import Database
from chessarbiter.server.games.meta import new_id
from tests.server.test_cluster import Cluster, running

WAIT_S = 30.0
"""How long an awaited line may take (the machine may be loaded)."""


@pytest.fixture(scope="module")
def three() -> Iterator[Cluster]:
    with running("cluster_lobby", 3, "--open-registration") as cluster:
        yield cluster


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def register(client: httpx.AsyncClient, url: str) -> tuple[str, str]:
    """A new account made through ``url``: its id and token."""
    name = "p" + new_id().lower()
    answer = await client.post(f"{url}/api/register", data={"username": name})
    assert answer.status_code == 200, answer.text
    return answer.json()["id"], answer.json()["token"]


@dataclass
class Events:
    """The lines of an account's event stream held by one process, read as they come."""

    lines: list[dict[str, Any]] = field(default_factory=list)
    task: asyncio.Task[None] | None = None

    async def open(self, client: httpx.AsyncClient, url: str, token: str) -> None:
        opened = asyncio.Event()

        async def read() -> None:
            async with client.stream("GET", f"{url}/api/stream/event",
                                     headers=auth(token)) as stream:
                assert stream.status_code == 200
                opened.set()
                async for line in stream.aiter_lines():
                    if line.strip():
                        self.lines.append(json.loads(line))

        self.task = asyncio.create_task(read())
        waiting = asyncio.create_task(opened.wait())
        await asyncio.wait((self.task, waiting), timeout=WAIT_S,
                           return_when=asyncio.FIRST_COMPLETED)
        waiting.cancel()
        if self.task.done():
            self.task.result()  # the stream was refused: say why
        assert opened.is_set(), "the event stream did not open"

    async def until(self, found: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        async def look() -> dict[str, Any]:
            while True:
                for line in self.lines:
                    if found(line):
                        return line
                assert self.task is not None and not self.task.done(), "the stream ended"
                await asyncio.sleep(0.02)

        return await asyncio.wait_for(look(), WAIT_S)

    def close(self) -> None:
        if self.task is not None:
            self.task.cancel()


async def two_players(client: httpx.AsyncClient, made: tuple[str, str],
                      streams: tuple[str, str]) -> tuple[str, str, str, str, Events, Events]:
    """Alice and Bob registered through the processes ``made``, each with an event stream
    held by the processes ``streams``: their ids, tokens and streams."""
    alice, alice_token = await register(client, made[0])
    bob, bob_token = await register(client, made[1])
    alice_events, bob_events = Events(), Events()
    await alice_events.open(client, streams[0], alice_token)
    await bob_events.open(client, streams[1], bob_token)
    return alice, alice_token, bob, bob_token, alice_events, bob_events


def typed(kind: str, key: str, value: str) -> Callable[[dict[str, Any]], bool]:
    """A line of type ``kind`` about the challenge or game ``value`` (``key``: challenge,
    game)."""
    return lambda line: line["type"] == kind and line[key]["id"] == value


def test_an_account_made_through_one_process_is_known_to_the_others(three: Cluster) -> None:
    async def run() -> None:
        a, b, c = three.urls
        async with httpx.AsyncClient(timeout=WAIT_S) as client:
            name, token = await register(client, a)
            for url in (b, c, a):
                answer = await client.get(f"{url}/api/account", headers=auth(token))
                assert answer.status_code == 200, answer.text
                assert answer.json()["id"] == name
            wrong = await client.get(f"{b}/api/account", headers=auth(token + "x"))
            assert wrong.status_code == 401
            taken = await client.post(f"{c}/api/register", data={"username": name.upper()})
            assert taken.status_code == 400 and "is taken" in taken.text

    asyncio.run(run())


def test_a_challenge_made_on_one_process_is_seen_and_accepted_on_another(
        three: Cluster) -> None:
    async def run() -> None:
        a, b, c = three.urls
        async with httpx.AsyncClient(timeout=WAIT_S) as client:
            alice, alice_token, bob, bob_token, alice_events, bob_events = await two_players(
                client, (a, b), (c, b))
            try:
                made = await client.post(f"{a}/api/challenge/{bob}", headers=auth(alice_token),
                                         data={"clock.limit": "300", "clock.increment": "2",
                                               "color": "white"})
                assert made.status_code == 200, made.text
                challenge_id = made.json()["id"]
                seen = await bob_events.until(typed("challenge", "challenge", challenge_id))
                assert seen["challenge"]["challenger"]["id"] == alice
                listed = (await client.get(f"{c}/api/challenge", headers=auth(bob_token))).json()
                assert [x["id"] for x in listed["in"]] == [challenge_id]
                accepted = await client.post(f"{b}/api/challenge/{challenge_id}/accept",
                                             headers=auth(bob_token))
                assert accepted.status_code == 200, accepted.text
                for events in (alice_events, bob_events):
                    await events.until(lambda line: line["type"] == "gameStart"
                                       and line["game"]["gameId"] == challenge_id)
                listed = (await client.get(f"{c}/api/challenge", headers=auth(bob_token))).json()
                assert listed["in"] == []
                moves = ("e2e4", "e7e5", "g1f3", "b8c6")
                for ply, move in enumerate(moves):  # through every process in turn
                    url = three.urls[ply % 3]
                    token = alice_token if ply % 2 == 0 else bob_token
                    answer = await client.post(
                        f"{url}/api/board/game/{challenge_id}/move/{move}", headers=auth(token))
                    assert answer.status_code == 200, answer.text
                game = (await client.get(f"{c}/api/game/{challenge_id}")).json()
                assert game["state"]["moves"] == " ".join(moves)
                assert game["white"]["id"] == alice and game["black"]["id"] == bob
            finally:
                alice_events.close()
                bob_events.close()
            again = Events()  # a stream opened later, on any process, lists the game
            await again.open(client, a, bob_token)
            try:
                start = await again.until(lambda line: line["type"] == "gameStart")
                assert start["game"]["gameId"] == challenge_id
                assert start["game"]["color"] == "black" and start["game"]["isMyTurn"] is False
            finally:
                again.close()
            playing = await client.get(f"{a}/api/account/playing", headers=auth(alice_token))
            assert [g["gameId"] for g in playing.json()["nowPlaying"]] == [challenge_id]

    asyncio.run(run())


def test_decline_and_cancel_through_other_processes(three: Cluster) -> None:
    async def run() -> None:
        a, b, c = three.urls
        async with httpx.AsyncClient(timeout=WAIT_S) as client:
            alice, alice_token, bob, bob_token, alice_events, bob_events = await two_players(
                client, (a, b), (c, a))
            try:
                first = (await client.post(f"{a}/api/challenge/{bob}",
                                           headers=auth(alice_token))).json()["id"]
                declined = await client.post(f"{b}/api/challenge/{first}/decline",
                                             headers=auth(bob_token), data={"reason": "later"})
                assert declined.status_code == 200, declined.text
                line = await alice_events.until(typed("challengeDeclined", "challenge", first))
                assert line["challenge"]["declineReasonKey"] == "later"
                assert line["challenge"]["challenger"]["id"] == alice
                late = await client.post(f"{c}/api/challenge/{first}/accept",
                                         headers=auth(bob_token))
                assert late.status_code == 404

                second = (await client.post(f"{b}/api/challenge/{bob}",
                                            headers=auth(alice_token))).json()["id"]
                foreign = await client.post(f"{a}/api/challenge/{second}/cancel",
                                            headers=auth(bob_token))
                assert foreign.status_code == 403  # only the challenger cancels
                canceled = await client.post(f"{c}/api/challenge/{second}/cancel",
                                             headers=auth(alice_token))
                assert canceled.status_code == 200, canceled.text
                await bob_events.until(typed("challengeCanceled", "challenge", second))
                late = await client.post(f"{a}/api/challenge/{second}/decline",
                                         headers=auth(bob_token))
                assert late.status_code == 404
            finally:
                alice_events.close()
                bob_events.close()

    asyncio.run(run())


def test_one_accept_wins_when_three_processes_are_asked_at_once(three: Cluster) -> None:
    async def run() -> None:
        a = three.urls[0]
        async with httpx.AsyncClient(timeout=WAIT_S) as client:
            _, alice_token = await register(client, a)
            bob, bob_token = await register(client, a)
            made = await client.post(f"{a}/api/challenge/{bob}", headers=auth(alice_token))
            challenge_id = made.json()["id"]
            answers = await asyncio.gather(*(
                client.post(f"{url}/api/challenge/{challenge_id}/accept",
                            headers=auth(bob_token)) for url in three.urls))
            assert sorted(x.status_code for x in answers) == [200, 404, 404]
            game = await client.get(f"{a}/api/game/{challenge_id}")
            assert game.status_code == 200 and game.json()["state"]["status"] == "started"

    asyncio.run(run())


async def seek(client: httpx.AsyncClient, url: str, token: str | None, color: str
               ) -> dict[str, Any]:
    """A seek through ``url`` (7+7, a control no other test seeks): the line saying which
    game it paired into."""
    headers = auth(token) if token is not None else {}
    async with client.stream("POST", f"{url}/api/board/seek", headers=headers,
                             data={"time": "7", "increment": "7", "color": color}) as stream:
        assert stream.status_code == 200
        async for line in stream.aiter_lines():
            if line.strip():
                found: dict[str, Any] = json.loads(line)
                return found
    raise AssertionError("the seek ended unpaired")


def test_seeks_on_different_processes_pair_into_one_game(three: Cluster) -> None:
    async def run() -> None:
        a, b, c = three.urls
        async with httpx.AsyncClient(timeout=WAIT_S) as client:
            name, token = await register(client, a)
            mine, theirs = await asyncio.wait_for(asyncio.gather(
                seek(client, b, token, "white"), seek(client, c, None, "random")), WAIT_S)
            assert mine["gameId"] == theirs["gameId"]
            assert (mine["color"], theirs["color"]) == ("white", "black")
            assert "secret" in theirs and "secret" not in mine
            game_id = mine["gameId"]
            for url, move, credential in ((c, "d2d4", token), (a, "d7d5", theirs["secret"])):
                answer = await client.post(f"{url}/api/board/game/{game_id}/move/{move}",
                                           headers=auth(credential))
                assert answer.status_code == 200, answer.text
            game = (await client.get(f"{b}/api/game/{game_id}")).json()
            assert game["white"]["id"] == name and game["state"]["moves"] == "d2d4 d7d5"
            pairs = await asyncio.wait_for(asyncio.gather(  # four at once: two games
                *(seek(client, url, None, "random") for url in (a, b, c, a))), WAIT_S)
            games = sorted(p["gameId"] for p in pairs)
            assert games[0] == games[1] and games[2] == games[3] and games[1] != games[2]

    asyncio.run(run())


def test_an_open_challenge_is_joined_and_its_page_served_through_another_process(
        three: Cluster) -> None:
    async def run() -> None:
        a, b, c = three.urls
        async with httpx.AsyncClient(timeout=WAIT_S) as client:
            made = await client.post(f"{a}/api/challenge/open",
                                     data={"clock.limit": "600", "clock.increment": "0"})
            assert made.status_code == 200, made.text
            game_id, secret = made.json()["id"], made.json()["secretBlack"]
            white = made.json()["secretWhite"]
            async with httpx.AsyncClient(timeout=WAIT_S) as browser:
                onward = await browser.get(f"{b}/{game_id}", params={"secret": secret})
                assert onward.status_code == 303  # the secret moved into the cookie
                page = await browser.get(f"{b}{onward.headers['location']}")
            assert page.status_code == 200 and game_id in page.text
            cookie = onward.cookies[f"chessarbiter-{game_id}"]
            assert cookie == secret
            moved = await client.post(f"{a}/api/board/game/{game_id}/move/e2e4",
                                      headers=auth(white))
            assert moved.status_code == 200, moved.text
            jar = {"Cookie": f"chessarbiter-{game_id}={cookie}"}  # the page's requests
            seen = await client.get(f"{c}/api/game/{game_id}", headers=jar)
            assert seen.json()["you"] == "black"
            answer = await client.post(f"{b}/api/board/game/{game_id}/move/c7c5",
                                       headers={**jar, "Origin": b})  # the page's origin
            assert answer.status_code == 200, answer.text
            pgn = await client.get(f"{c}/game/export/{game_id}")
            assert pgn.status_code == 200 and "1. e4 " in pgn.text and "1... c5 " in pgn.text

    asyncio.run(run())


def test_the_arbiter_sees_the_games_of_every_process_from_any(three: Cluster) -> None:
    database = Database(three.dsn)  # an arbiter made in the database, by no process
    database.start()
    try:
        _, token, _ = database.call(lambda store, conn: insert_account(
            conn, "judge" + new_id().lower(), Role.ARBITER))
    finally:
        database.close()

    async def run() -> None:
        async with httpx.AsyncClient(timeout=WAIT_S) as client:
            made = [await client.post(f"{url}/api/challenge/open") for url in three.urls]
            ids = {answer.json()["id"] for answer in made}
            for url in three.urls:
                listed = await client.get(f"{url}/api/arbiter/games", headers=auth(token))
                assert listed.status_code == 200, listed.text
                assert ids <= {game["id"] for game in listed.json()["games"]}
            _, player = await register(client, three.urls[0])
            refused = await client.get(f"{three.urls[1]}/api/arbiter/games",
                                       headers=auth(player))
            assert refused.status_code == 403

    asyncio.run(run())


def test_relayed_game_streams_count_among_the_accounts_streams(three: Cluster) -> None:
    """A game stream another process relays counts as one of the client's streams there
    (429 beyond the limit per account, as a stream served by the owner)."""
    async def run() -> None:
        a, b, _ = three.urls
        async with httpx.AsyncClient(timeout=WAIT_S) as client:
            _, token = await register(client, a)
            game_id = (await client.post(f"{a}/api/challenge/open")).json()["id"]
            path = f"{b}/api/board/game/stream/{game_id}"
            opened = []
            try:
                for _ in range(limits.STREAMS_PER_ACCOUNT):
                    request = client.build_request("GET", path, headers=auth(token))
                    opened.append(await client.send(request, stream=True))
                    assert opened[-1].status_code == 200
                over = await client.get(path, headers=auth(token))
                assert over.status_code == 429, over.text
                assert "per account" in over.json()["error"]
            finally:
                for response in opened:
                    await response.aclose()

    asyncio.run(run())


def test_a_browser_session_opened_through_one_process_works_at_the_others(
        three: Cluster) -> None:
    async def run() -> None:
        a, b, c = three.urls
        async with httpx.AsyncClient(timeout=WAIT_S) as client:
            _, token = await register(client, a)
            opened = await client.post(f"{a}/api/session", headers=auth(token))
            assert opened.status_code == 200, opened.text
            cookie = {"Cookie": f"chessarbiter-session={opened.cookies['chessarbiter-session']}"}
            for url in (b, c):
                me = await client.get(f"{url}/api/account", headers=cookie)
                assert me.status_code == 200, (url, me.text)

    asyncio.run(run())
