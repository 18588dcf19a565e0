"""The server's limits (docs/server.md, "Limits"), each answering its status code: bodies
(413 before being read whole), creation rates per account and per address (429 with
``Retry-After``), challenges that expire, games nobody starts aborted, the game cap counting
live games only, streams per account and per address, a full disk (503). The clock is the
hand-driven one of the games: no test waits for time to pass."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from chessarbiter.server import limits
from chessarbiter.server.games.hub import Hub
from tests.server.helpers import InProcess, Live, add_accounts, live_server, memory_lobby
from tests.server.test_api import play, run

FAR = ("203.0.113.7", 40000)
"""A client that is not on the server's machine (the per-address limits apply)."""


def far(s: InProcess, address: tuple[str, int] = FAR) -> httpx.AsyncClient:
    """A client of the same app from ``address``."""
    transport = httpx.ASGITransport(app=s.client._transport.app,  # type: ignore[attr-defined]
                                    client=address)
    return httpx.AsyncClient(transport=transport, base_url="http://test")


class Chunks:
    """A request body of ``count`` chunks of 64 KiB, counting those read."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.read = 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for _ in range(self.count):
            self.read += 1
            yield b"x" * 65536


def test_a_large_body_is_refused_before_it_is_read(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        declared = await s.post("/api/challenge/open", content=b"a=" + b"x" * 400_000,
                                headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert declared.status_code == 413, declared.text
        assert "262144 bytes" in declared.json()["error"]
        body = Chunks(160)  # 10 MiB, without a Content-Length
        chunked = await s.post("/api/challenge/open", content=body,
                               headers={"Content-Type": "application/json"})
        assert chunked.status_code == 413, chunked.text
        assert body.read <= 6
        typed = Chunks(3)  # a wrong content type: refused unread
        wrong = await s.post("/api/challenge/open", content=typed,
                             headers={"Content-Type": "text/plain"})
        assert wrong.status_code == 400 and "content-type" in wrong.json()["error"]
        assert typed.read == 0
        assert not s.hub.games

    run(tmp_path, scenario)


def test_creation_rate_per_account(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        alice = await s.account("alice")
        await s.account("bob")
        per = limits.CREATIONS_PER_ACCOUNT
        for _ in range(per.count):
            made = await s.post("/api/challenge/bob", alice, data={"color": "white"})
            assert made.status_code == 200, made.text
        refused = await s.post("/api/challenge/bob", alice, data={"color": "white"})
        assert refused.status_code == 429, refused.text
        wait = per.per_ms // per.count
        assert refused.headers["Retry-After"] == str(wait // 1000)
        assert "too many" in refused.json()["error"]
        s.clock.advance(wait - 1)
        assert (await s.post("/api/challenge/bob", alice)).status_code == 429
        s.clock.advance(1)
        assert (await s.post("/api/challenge/bob", alice)).status_code == 200
        assert (await s.post("/api/challenge/bob", alice)).status_code == 429
        assert (await s.post("/api/challenge/ai", alice)).status_code == 429
        assert (await s.post("/api/challenge/open", alice)).status_code == 429
        made = await s.post("/api/tournament/new", alice, data={"name": "t", "system": "swiss"})
        assert made.status_code == 429 and "Retry-After" in made.headers
        joined = await s.post("/api/tournament/1/join", alice)
        assert joined.status_code == 429 and "Retry-After" in joined.headers

    run(tmp_path, scenario)


def test_creation_rate_per_address(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        count = limits.CREATIONS_PER_ADDRESS.count
        async with far(s) as client:
            for _ in range(count):
                assert (await client.post("/api/challenge/open")).status_code == 200
            refused = await client.post("/api/challenge/open")
            assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
            assert (await client.post("/api/register", data={"username": "zed"})
                    ).status_code == 429
        async with far(s, ("198.51.100.1", 1)) as other:  # another address: its own limit
            assert (await other.post("/api/challenge/open")).status_code == 200
        # a tool on the server's machine (the loopback, not behind a proxy): not limited
        assert (await s.post("/api/challenge/open")).status_code == 200
        assert len(s.hub.games) == count + 2

    run(tmp_path, scenario, open_registration=True)


def test_an_ipv6_network_of_64_bits_is_one_address(tmp_path: Path) -> None:
    """Each address of a /64 is the same subscriber's: they share one limit; another /64
    has its own."""
    async def scenario(s: InProcess) -> None:
        count = limits.CREATIONS_PER_ADDRESS.count
        for host in range(count):
            async with far(s, (f"2001:db8:1:2::{host + 1:x}", 1)) as client:
                assert (await client.post("/api/challenge/open")).status_code == 200
        async with far(s, ("2001:db8:1:2:ffff::9", 1)) as client:
            assert (await client.post("/api/challenge/open")).status_code == 429
        async with far(s, ("2001:db8:1:3::1", 1)) as client:
            assert (await client.post("/api/challenge/open")).status_code == 200

    run(tmp_path, scenario)


def test_the_key_of_an_address() -> None:
    assert limits.limited("203.0.113.7") == "203.0.113.7"
    assert limits.limited("2001:db8:a:b:1:2:3:4") == "2001:db8:a:b::/64"
    assert limits.limited("::ffff:203.0.113.7") == "203.0.113.7"
    assert limits.limited("not an address") == "not an address"


def test_behind_a_proxy_the_forwarded_address_is_limited(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        count = limits.CREATIONS_PER_ADDRESS.count
        one = {"X-Forwarded-For": "192.0.2.1, 203.0.113.9"}
        for _ in range(count):
            assert (await s.post("/api/challenge/open", one)).status_code == 200
        assert (await s.post("/api/challenge/open", one)).status_code == 429
        two = {"X-Forwarded-For": "192.0.2.1, 203.0.113.10"}
        assert (await s.post("/api/challenge/open", two)).status_code == 200

    run(tmp_path, scenario, behind_proxy=True)


def test_a_challenge_expires(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        alice = await s.account("alice")
        bob = await s.account("bob")
        made = (await s.post("/api/challenge/bob", alice)).json()
        s.clock.advance(limits.CHALLENGE_EXPIRY_MS - 1)
        listed = (await s.client.get("/api/challenge", headers=bob)).json()
        assert [c["id"] for c in listed["in"]] == [made["id"]]
        s.clock.advance(1)
        assert (await s.client.get("/api/challenge", headers=bob)).json()["in"] == []
        late = await s.post(f"/api/challenge/{made['id']}/accept", bob)
        assert late.status_code == 404
        assert not memory_lobby(s.services).challenges

    run(tmp_path, scenario)


def test_games_nobody_starts_are_aborted_and_leave_the_cap(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        first = (await s.post("/api/challenge/open", data={"timeControl": "10+0"})).json()
        second = (await s.post("/api/challenge/open", data={"timeControl": "10+0"})).json()
        full = await s.post("/api/challenge/open")
        assert full.status_code == 503 and "2 games at most" in full.json()["error"]
        white = {"Authorization": f"Bearer {second['secretWhite']}"}
        s.clock.advance(limits.START_TIMEOUT_MS - 1)
        assert (await s.post(f"/api/board/game/{second['id']}/move/e2e4", white)
                ).status_code == 200  # Black's minute starts now
        s.clock.advance(1)
        s.hub.fire_due()
        await asyncio.sleep(0)
        await _settled(s.hub)
        one = await s.game(first["id"])
        two = await s.game(second["id"])
        assert json.loads(one.line)["status"] == "aborted" and one.game.outcome is None
        assert json.loads(two.line)["status"] == "started"
        # the cap counts live games only: the aborted one leaves room
        assert (await s.post("/api/challenge/open")).status_code == 200
        s.clock.advance(limits.START_TIMEOUT_MS)
        s.hub.fire_due()
        await _settled(s.hub)
        assert json.loads(two.line)["status"] == "aborted" and two.moves == ["e2e4"]

    run(tmp_path, scenario, max_games=2)


async def _settled(hub: Hub) -> None:
    """Until the aborts started have been written."""
    for _ in range(200):
        if not any(entry.aborting for entry in hub.games.values()):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the aborts did not finish")


def test_a_started_game_is_not_aborted(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        made = (await s.post("/api/challenge/open", data={"timeControl": "10+0"})).json()
        white = {"Authorization": f"Bearer {made['secretWhite']}"}
        black = {"Authorization": f"Bearer {made['secretBlack']}"}
        await play(s, made["id"], "e2e4 e7e5", white, black)
        s.clock.advance(limits.START_TIMEOUT_MS * 3)
        assert s.hub.unstarted.abort_due() == 0

    run(tmp_path, scenario)


def _fill_disk(store: Any, conn: Any) -> None:
    """Make the database full: no page may be added to it any more."""
    for connection in (conn, store._db):
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
        connection.execute(f"PRAGMA max_page_count = {pages}")


async def _until_refused(ask: Callable[[int], Awaitable[httpx.Response]]) -> httpx.Response:
    """Ask until the answer is not a 200 (the pages left have filled up)."""
    for n in range(200):
        answer = await ask(n)
        if answer.status_code != 200:
            return answer
    raise AssertionError("the database never filled up")


def test_a_full_disk_answers_503(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        alice = await s.account("alice")
        bob = await s.account("bob")
        await s.services.db.run(_fill_disk)

        async def accept(n: int) -> httpx.Response:
            made = (await s.post("/api/challenge/bob", alice)).json()
            return await s.post(f"/api/challenge/{made['id']}/accept", bob)

        for answer in (await _until_refused(lambda n: s.post("/api/challenge/open")),
                       await _until_refused(accept),
                       await _until_refused(lambda n: s.post(
                           "/api/register", data={"username": f"carol{n}"}))):
            assert answer.status_code == 503, answer.text
            assert "database or disk is full" in answer.json()["error"]
        # the challenge not accepted stays open
        assert len(memory_lobby(s.services).challenges) == 1
        registered = {a.name for a in s.services.members.accounts._by_id.values()}
        assert registered == {"alice", "bob"} | {f"carol{n}" for n in range(len(registered) - 2)}

    run(tmp_path, scenario, open_registration=True)


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[Live, dict[str, str]]]:
    tokens = add_accounts(tmp_path / "games.sqlite", "alice")
    with live_server(tmp_path / "games.sqlite", behind_proxy=True) as server:
        yield server, {"Authorization": f"Bearer {tokens['alice']}"}


def test_streams_per_address_and_per_account(proxied: tuple[Live, dict[str, str]]) -> None:
    server, alice = proxied
    url = server.url

    async def main() -> None:
        async with httpx.AsyncClient(base_url=url, timeout=10) as client:
            game = (await client.post("/api/challenge/open")).json()["id"]
            path = f"/api/board/game/stream/{game}"
            here = {"X-Forwarded-For": "203.0.113.20"}
            opened = [await _open(client, "GET", path, here)
                      for _ in range(limits.STREAMS_PER_ADDRESS)]
            assert all(r.status_code == 200 for r in opened)
            refused = await client.get(path, headers=here)
            assert refused.status_code == 429 and "per address" in refused.json()["error"]
            await opened.pop().aclose()
            await _until(lambda: server.services.limits.streams.get("address:203.0.113.20")
                         == limits.STREAMS_PER_ADDRESS - 1)  # the server saw it go
            again = await _open(client, "GET", path, here)
            assert again.status_code == 200
            opened.append(again)
            events = [await _open(client, "GET", "/api/stream/event",
                                  {**alice, "X-Forwarded-For": f"198.51.100.{n}"})
                      for n in range(limits.STREAMS_PER_ACCOUNT)]
            assert all(r.status_code == 200 for r in events)
            over = await client.get("/api/stream/event",
                                    headers={**alice, "X-Forwarded-For": "198.51.100.99"})
            assert over.status_code == 429 and "per account" in over.json()["error"]
            for response in opened + events:
                await response.aclose()

    asyncio.run(main())


async def _until(done: Callable[[], bool]) -> None:
    """Until ``done()`` (the server, in its thread, has noticed a client going away)."""
    for _ in range(1000):
        if done():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the server did not notice")


async def _open(client: httpx.AsyncClient, method: str, path: str,
                headers: dict[str, str]) -> httpx.Response:
    """A streamed response whose headers have come (its body left open)."""
    return await client.send(client.build_request(method, path, headers=headers), stream=True)
