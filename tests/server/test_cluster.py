"""Several ``chessarbiter serve`` processes serving the same games (PostgreSQL + Redis): a
move made through any process appears on the streams held by every other (two and three
processes), players connected to different processes see each other at the board and chat
as on one process, and when the owner of games is killed with SIGKILL mid-game the others take them
over and play continues: every acknowledged move kept, one owner per game, the time to
recovery printed."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

import chessarbiter
from tests.server.helpers import add_accounts
from tests.server.test_lichess_schemas import Checked, wait_for
from tests.services import fresh_bus, fresh_schema

OPENING = ("e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7",
           "f1e1", "b7b5", "a4b3", "d7d6", "c2c3", "e8g8")
START_S = 60.0
"""How long a server process may take to answer (the machine may be loaded)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Cluster:
    dsn: str
    bus: str
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)

    def start(self, count: int, *options: str, launcher: tuple[str, ...] = ()) -> None:
        """``count`` processes; ``launcher``: what runs ``chessarbiter`` (by default
        ``python -m chessarbiter.cli.main``)."""
        src = str(Path(chessarbiter.__file__).parents[1])
        env = {**os.environ, "PYTHONPATH": src}
        run = launcher or (sys.executable, "-m", "chessarbiter.cli.main")
        for _ in range(count):
            port = free_port()
            self.urls.append(f"http://127.0.0.1:{port}")
            self.processes.append(subprocess.Popen(
                [*run, "serve", "--port", str(port),
                 "--db", self.dsn, "--bus", self.bus, *options],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        deadline = time.monotonic() + START_S
        for url, process in zip(self.urls, self.processes, strict=True):
            while True:
                assert process.poll() is None, f"the server at {url} stopped"
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"{url}/api/openapi.json", timeout=2).status_code == 200:
                        break
                assert time.monotonic() < deadline, f"the server at {url} does not answer"
                time.sleep(0.1)

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:  # streams still open make a graceful stop wait: not for long
                process.wait(3)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@contextlib.contextmanager
def running(name: str, count: int, *options: str, launcher: tuple[str, ...] = ()
            ) -> Iterator[Cluster]:
    """``count`` processes (with ``chessarbiter serve``'s ``options``, run by ``launcher``:
    see :meth:`Cluster.start`) over the schema ``name`` of the test database."""
    cluster = Cluster(fresh_schema(name), fresh_bus(name))
    try:
        cluster.start(count, *options, launcher=launcher)
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="module")
def two() -> Iterator[Cluster]:
    with running("cluster_two", 2) as cluster:
        yield cluster


@pytest.fixture(scope="module")
def three() -> Iterator[Cluster]:
    with running("cluster_three", 3) as cluster:
        yield cluster


@dataclass
class Game:
    id: str
    secrets: tuple[str, str]  # White's, Black's
    acknowledged: list[str] = field(default_factory=list)


async def open_game(client: httpx.AsyncClient, url: str) -> Game:
    answer = await client.post(f"{url}/api/challenge/open",
                               data={"clock.limit": "600", "clock.increment": "0"})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    return Game(data["id"], (data["secretWhite"], data["secretBlack"]))


async def watch(client: httpx.AsyncClient, url: str, game_id: str, seen: list[str],
                opened: asyncio.Event) -> None:
    """Collect the moves each line of the game's stream at ``url`` shows."""
    async with client.stream("GET", f"{url}/api/board/game/stream/{game_id}") as stream:
        assert stream.status_code == 200
        async for line in stream.aiter_lines():
            if not line.strip():
                continue
            data = json.loads(line)
            state = data["state"] if data["type"] == "gameFull" else data
            seen.append(state["moves"])
            opened.set()


async def fan_out(cluster: Cluster) -> None:
    urls = cluster.urls
    async with httpx.AsyncClient(timeout=30) as client:
        game = await open_game(client, urls[0])
        seen: list[list[str]] = [[] for _ in urls]
        opened = [asyncio.Event() for _ in urls]
        watchers = [asyncio.create_task(watch(client, url, game.id, seen[n], opened[n]))
                    for n, url in enumerate(urls)]
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in opened)), 30)
        moves = list(OPENING[:2 * len(urls)])
        for ply, move in enumerate(moves):
            url = urls[(ply + 1) % len(urls)]  # each process in turn, the owner too
            answer = await client.post(f"{url}/api/board/game/{game.id}/move/{move}",
                                       headers={"Authorization":
                                                f"Bearer {game.secrets[ply % 2]}"})
            assert answer.status_code == 200, answer.text
        final = " ".join(moves)

        async def every_stream_shows_it() -> None:
            while not all(lines and lines[-1] == final for lines in seen):
                await asyncio.sleep(0.02)

        try:
            await asyncio.wait_for(every_stream_shows_it(), 30)
        finally:
            for task in watchers:
                task.cancel()
        for lines in seen:  # each stream: the start, then every move in order
            assert lines[0] == "" and lines[-1] == final
            shown = [line for line in lines if line]
            assert shown == sorted(set(shown), key=len)


def test_a_move_through_one_of_two_processes_reaches_the_other_s_streams(two: Cluster) -> None:
    asyncio.run(fan_out(two))


def test_a_move_through_any_of_three_processes_reaches_every_stream(three: Cluster) -> None:
    asyncio.run(fan_out(three))


async def play(client: httpx.AsyncClient, urls: list[str], game: Game, ply: int) -> float:
    """Make the game's move ``ply`` through the processes in turn until one acknowledges it
    (a move stored but not acknowledged by a dying owner counts once found in the game);
    when it was acknowledged (monotonic seconds)."""
    move = OPENING[ply]
    deadline = time.monotonic() + 30
    attempt = ply
    while True:
        url = urls[attempt % len(urls)]
        attempt += 1
        try:
            answer = await client.post(f"{url}/api/board/game/{game.id}/move/{move}",
                                       headers={"Authorization":
                                                f"Bearer {game.secrets[ply % 2]}"})
            if answer.status_code == 200:
                game.acknowledged.append(move)
                return time.monotonic()
            if answer.status_code == 400:  # stored by the dead owner before its answer?
                state = (await client.get(f"{url}/api/game/{game.id}")).json()
                if state["state"]["moves"].split()[ply:ply + 1] == [move]:
                    return time.monotonic()
            assert answer.status_code == 503, answer.text
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, f"game {game.id}: move {move} never accepted"
        await asyncio.sleep(0.05)


def stored_moves(dsn: str, game_id: str) -> tuple[list[str], int]:
    """The moves the store holds for the game, and the fencing token its writes carry."""
    import psycopg

    from chessarbiter.store.postgres import PostgresStore

    with psycopg.connect(dsn) as db:
        row = db.execute("SELECT s.store_id, g.fence FROM server_games s JOIN games g ON "
                         "g.id = CAST(s.store_id AS BIGINT) WHERE s.id = %s",
                         (game_id,)).fetchone()
    assert row is not None
    store = PostgresStore(dsn)
    log = store.load(row[0]).log
    store.close()
    return [e.uci for e in log if e.kind == "move"], int(row[1])  # type: ignore[union-attr]


def test_killing_an_owner_loses_no_acknowledged_move(three: Cluster) -> None:
    import redis

    from chessarbiter.server.cluster.lease import TTL_MS

    async def run() -> tuple[list[Game], list[float]]:
        urls = three.urls
        async with httpx.AsyncClient(timeout=10) as client:
            games = [await open_game(client, url) for url in urls for _ in range(2)]
            for ply in range(6):
                await asyncio.gather(*(play(client, urls, g, ply) for g in games))
            three.processes[0].send_signal(signal.SIGKILL)  # owns games[0] and games[1]
            three.processes[0].wait()
            killed = time.monotonic()
            survivors = urls[1:]
            acknowledged = await asyncio.gather(*(play(client, survivors, g, 6)
                                                  for g in games))
            for ply in range(7, 10):
                await asyncio.gather(*(play(client, survivors, g, ply) for g in games))
            return games, [at - killed for at in acknowledged[:2]]

    games, recovery = asyncio.run(run())
    print(f"\nfailover: the killed owner's games took moves again after "
          f"{max(recovery):.2f} s (a lease lasts {TTL_MS / 1000:.1f} s)")
    assert max(recovery) < 15
    leases = redis.Redis.from_url(three.bus, decode_responses=True)
    for game in games:
        moves, fence = stored_moves(three.dsn, game.id)
        assert moves == list(OPENING[:10]), f"game {game.id}: lost or extra moves"
        assert len(game.acknowledged) >= len(moves) - 1  # one stored by the dying owner
        holder = leases.get(f"chessarbiter:lease:{game.id}")
        assert holder is not None, f"game {game.id}: no owner"
        token, _, address = str(holder).partition(" ")
        assert int(token) == fence, f"game {game.id}: the store is fenced for another owner"
        assert address != three.urls[0].removeprefix("http://")
    leases.close()


def chat_lines(lines: list[bytes]) -> list[tuple[str, str, str]]:
    said = [json.loads(line) for line in lines if b'"chatLine"' in line]
    return [(line["room"], line["username"], line["text"]) for line in said]


def test_presence_and_chat_across_two_processes(two: Cluster) -> None:
    """A player connected to one process and his opponent to the other: the owner counts
    both at the board, so ``opponentGone`` (gone, the seconds to a claim, back) and the
    chat's two rooms work as on one process; an anonymous spectator relayed from the bus
    gets the spectator room only, and the spectators' ``MoveStream`` through the other
    process runs three moves behind. Every body and line validated against lichess'
    specification."""
    a, b = Checked(two.urls[0]), Checked(two.urls[1])
    tokens = add_accounts(two.dsn, "alice", "bob")  # type: ignore[arg-type]
    alice, bob = tokens["alice"], tokens["bob"]
    made = a.call("POST", "/api/challenge/bob", alice, data={
        "clock.limit": 180, "clock.increment": 2, "color": "white"}).json()
    a.call("POST", f"/api/challenge/{made['id']}/accept", bob)  # the game is a's
    game_id = made["id"]
    board, chat = f"/api/board/game/stream/{game_id}", f"/api/board/game/{game_id}/chat"
    alice_lines: list[bytes] = []
    a.stream(board, alice, alice_lines, '"resign"')
    wait_for(alice_lines, "gameFull")
    assert json.loads(alice_lines[0])["presence"] == {"white": "here", "black": "absent"}
    watcher: list[bytes] = []
    b.stream(board, None, watcher, '"resign"')  # anonymous: relayed from the bus
    behind: list[bytes] = []
    b.stream(f"/api/stream/game/{game_id}", None, behind, '"resign"')
    bob_lines: list[bytes] = []
    bob_stream = b.stream(board, bob, bob_lines, "Good luck")  # ends at that line
    wait_for(bob_lines, "gameFull")
    wait_for(alice_lines, '"opponentGone","gone":false')  # bob arrived, through b
    assert json.loads(bob_lines[0])["presence"] == {"white": "here", "black": "here"}

    b.call("POST", chat, bob, data={"room": "player", "text": "Hello from b"})
    wait_for(alice_lines, "Hello from b")
    a.call("POST", chat, alice, data={"room": "spectator", "text": "Welcome, watchers"})
    wait_for(watcher, "Welcome, watchers")
    a.call("POST", chat, alice, data={"room": "player", "text": "Good luck"})
    bob_stream.join(20)
    assert chat_lines(bob_lines) == [("player", "bob", "Hello from b"),
                                     ("player", "alice", "Good luck")]  # no spectators' room
    # bob's stream closed at b: the owner sees him leave (5 s), then says so to alice
    wait_for(alice_lines, '"opponentGone","gone":true')
    gone = json.loads(next(line for line in alice_lines if b'"gone":true' in line))
    assert 0 < gone["claimWinInSeconds"] <= 25
    assert b.call("GET", f"/api/board/game/{game_id}/chat", bob).json() == [
        {"user": "bob", "text": "Hello from b"}, {"user": "alice", "text": "Good luck"}]

    back: list[bytes] = []
    b.stream(board, bob, back, '"resign"')
    wait_for(back, "gameFull")
    for _ in range(400):  # bob is back: a second "gone": false
        if sum(b'"gone":false' in line for line in alice_lines) == 2:
            break
        time.sleep(0.05)
    assert [json.loads(line)["gone"] for line in alice_lines if b"opponentGone" in line
            ] == [False, True, False]
    for token, move, at in ((alice, "e2e4", a), (bob, "e7e5", b), (alice, "g1f3", b),
                            (bob, "b8c6", b)):
        at.call("POST", f"/api/board/game/{game_id}/move/{move}", token)
    wait_for(behind, '"lm":"e2e4"')
    assert b'"lm":"e7e5"' not in b"".join(behind)  # three moves behind
    b.call("POST", f"/api/board/game/{game_id}/resign", bob)
    for lines in (alice_lines, watcher, behind, back):
        wait_for(lines, '"resign"')
    assert chat_lines(watcher) == [("spectator", "alice", "Welcome, watchers")]
    assert a.found == b.found == [], "\n".join(a.found + b.found)
