"""Crash safety of the real server process: moves acknowledged (their POST returned 200)
survive a ``kill -9``, whatever was in flight, and the games resume after a restart on the
same database (issue 14)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

import httpx

SRC = Path(__file__).resolve().parents[2] / "src"

LINES = [
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8 h2h3 c6b8 "
    "d2d4 b8d7 b1d2 c8b7 b3c2 f8e8",
    "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4 e2e3 e8g8 f1d3 d7d5 g1f3 c7c5 e1g1 d5c4 d3c4 b8d7 d1e2 a7a6 "
    "a2a4 d8c7 c1d2 b7b6 f1d1 c8b7",
    "c2c4 e7e5 b1c3 g8f6 g1f3 b8c6 g2g3 d7d5 c4d5 f6d5 f1g2 d5b6 e1g1 f8e7 d2d3 e8g8 a2a3 c8e6 "
    "b2b4 a7a5 b4b5 c6d4 f3d4 e5d4",
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6 c1e3 e7e5 d4b3 c8e6 f2f3 f8e7 d1d2 e8g8 "
    "e1c1 b8d7 g2g4 b7b5 g4g5 b5b4",
]
GAMES = 8


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def serve(db: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """The real server process on a free loopback port; killed at the end if still alive."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "chessarbiter.cli.main", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--db", str(db)],
        env={**os.environ, "PYTHONPATH": str(SRC)},
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60  # a bound for a loaded machine, not a wait
        while True:
            assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
            with suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                break
            assert time.monotonic() < deadline, "the server did not start listening"
            time.sleep(0.05)  # waiting for another process to listen, not a clock under test
        yield process, f"http://127.0.0.1:{port}"
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        if process.stderr is not None:
            process.stderr.close()


@dataclass
class Played:
    """One game: its id, the players' secrets, its line, and the moves acknowledged."""

    id: str
    white: str
    black: str
    line: list[str]
    acked: list[str] = field(default_factory=list)
    cut: bool = False
    """Whether a move of this game was in flight when the server was killed."""

    def token(self, ply: int) -> str:
        """The secret of the player making move ``ply`` (from 0)."""
        return self.white if ply % 2 == 0 else self.black


def open_game(client: httpx.Client, line: list[str]) -> Played:
    response = client.post("/api/challenge/open",
                           json={"clock.limit": 3600, "clock.increment": 0})
    assert response.status_code == 200, response.text
    data = response.json()
    return Played(data["id"], data["secretWhite"], data["secretBlack"], line)


def post_move(client: httpx.Client, game: Played) -> bool:
    """Post the game's next move; whether it was acknowledged (200)."""
    ply = len(game.acked)
    move = game.line[ply]
    response = client.post(f"/api/board/game/{game.id}/move/{move}",
                           headers={"Authorization": f"Bearer {game.token(ply)}"})
    if response.status_code != 200:
        return False
    game.acked.append(move)
    return True


def first_state(client: httpx.Client, game: Played, lines: int = 1) -> list[dict[str, object]]:
    """The first ``lines`` non-empty lines of the game's stream, as JSON."""
    found: list[dict[str, object]] = []
    with client.stream("GET", f"/api/board/game/stream/{game.id}",
                       headers={"Authorization": f"Bearer {game.white}"}) as response:
        assert response.status_code == 200
        for text in response.iter_lines():
            if text.strip():
                found.append(json.loads(text))
                if len(found) == lines:
                    break
    return found


def keep_posting(url: str, game: Played, stop: threading.Event) -> None:
    """Post the game's moves one after the other until the server dies or ``stop``."""
    with httpx.Client(base_url=url, timeout=30) as client:
        while not stop.is_set() and len(game.acked) < len(game.line) - 1:
            try:
                if not post_move(client, game):
                    return
            except httpx.TransportError:  # the server was killed: this move was in flight
                game.cut = True
                return


def test_kill_9_loses_no_acknowledged_move(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    with serve(db) as (process, url), httpx.Client(base_url=url, timeout=30) as client:
        games = [open_game(client, LINES[n % len(LINES)].split()) for n in range(GAMES)]
        for game in games:  # two moves each, one at a time
            assert post_move(client, game) and post_move(client, game)
        stop = threading.Event()
        posters = [threading.Thread(target=keep_posting, args=(url, game, stop))
                   for game in games[2:]]  # games 0 and 1 rest; the others are in play
        for thread in posters:
            thread.start()
        deadline = time.monotonic() + 60  # a bound for a loaded machine, not a wait
        while sum(len(g.acked) for g in games) < 2 * GAMES + 30:
            assert time.monotonic() < deadline, "moves are not being acknowledged"
            time.sleep(0.005)
        process.send_signal(signal.SIGKILL)
        process.wait()
        stop.set()
        for thread in posters:
            thread.join()
    acked = {game.id: list(game.acked) for game in games}
    assert sum(map(len, acked.values())) >= 2 * GAMES + 30
    assert any(game.cut for game in games)  # the kill came with moves in flight

    with serve(db) as (_, url), httpx.Client(base_url=url, timeout=30) as client:
        for game in games:
            full = first_state(client, game)[0]
            assert full["type"] == "gameFull"
            state = full["state"]
            assert isinstance(state, dict)
            moves = str(state["moves"]).split()
            assert moves[:len(game.acked)] == acked[game.id], game.id  # none lost
            assert len(moves) <= len(game.acked) + 1  # at most the one in flight
            assert moves == game.line[:len(moves)]
            assert state["status"] == "started"
            game.acked = moves
            assert post_move(client, game), f"game {game.id} does not resume"
            after = first_state(client, game)[0]["state"]
            assert isinstance(after, dict)
            assert str(after["moves"]).split() == game.acked


def test_a_game_survives_repeated_kills(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    game: Played | None = None
    rounds = 2
    for _ in range(rounds):
        with serve(db) as (process, url), httpx.Client(base_url=url, timeout=30) as client:
            if game is None:
                game = open_game(client, LINES[0].split())
            else:
                game.acked = str(first_state(client, game)[0]["state"]["moves"]  # type: ignore[index]
                                 ).split()
            for _ in range(3):
                assert post_move(client, game)
            process.send_signal(signal.SIGKILL)
            process.wait()
    assert game is not None
    with serve(db) as (_, url), httpx.Client(base_url=url, timeout=30) as client:
        state = first_state(client, game)[0]["state"]
        assert isinstance(state, dict)
        assert str(state["moves"]).split() == game.line[:3 * rounds] == game.acked


def test_ctrl_c_stops_the_server_with_streams_open(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    with serve(db) as (process, url), httpx.Client(base_url=url, timeout=30) as client:
        game = open_game(client, LINES[1].split())
        assert post_move(client, game)
        with client.stream("GET", f"/api/board/game/stream/{game.id}") as response:
            assert response.status_code == 200
            process.send_signal(signal.SIGINT)
            process.wait(30)  # not held open by the stream (uvicorn would wait for it)
    assert process.returncode == 130
    with serve(db) as (_, url), httpx.Client(base_url=url, timeout=30) as client:
        state = first_state(client, game)[0]["state"]
        assert isinstance(state, dict)
        assert str(state["moves"]).split() == game.acked
