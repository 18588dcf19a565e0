"""Every JSON body and NDJSON line the Board, Bot and Challenge operations answer, in a
game played over real HTTP, validated against lichess' own OpenAPI specification
(:mod:`tests.server.lichess_spec`): no violation."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from chessarbiter.clock.records import Side
from chessarbiter.server.games.presence import GONE_MS
from tests.clock.fake_time import FakeTime
from tests.server.helpers import Live, add_accounts, live_server
from tests.server.lichess_spec import SPECS, violations

if not SPECS.exists():  # pragma: no cover - the shared folder is laid beside the checkout
    pytest.skip("lichess' specification is not in shared/", allow_module_level=True)

SPEC_PATHS = [
    "/api/account", "/api/account/playing", "/api/token/test", "/api/bot/account/upgrade",
    "/api/bot/online", "/api/stream/event", "/api/challenge", "/api/challenge/ai",
    "/api/challenge/open", "/api/challenge/{challengeId}/accept",
    "/api/challenge/{challengeId}/decline", "/api/challenge/{challengeId}/cancel",
    "/api/challenge/{username}", "/game/export/{gameId}",
    "/api/challenge/{challengeId}/show", "/api/challenge/{gameId}/start-clocks",
    "/api/users/status", "/api/stream/game/{id}", "/api/round/{gameId}/add-time/{seconds}",
    *(prefix + rest for prefix in ("/api/board/game", "/api/bot/game") for rest in (
        "/stream/{gameId}", "/{gameId}/move/{move}", "/{gameId}/chat", "/{gameId}/abort",
        "/{gameId}/resign", "/{gameId}/draw/{accept}", "/{gameId}/takeback/{accept}",
        "/{gameId}/claim-victory", "/{gameId}/claim-draw")),
]
"""lichess' operations exercised here, as its specification writes their paths."""


def spec_path(path: str) -> str:
    """The specification's path that ``path`` is an instance of (fixed paths first)."""
    for template in sorted(SPEC_PATHS, key=lambda t: t.count("{")):
        pattern = re.sub(r"\{[^}]+\}", "[^/]+", template)
        if re.fullmatch(pattern, path):
            return template
    raise AssertionError(f"{path}: not a lichess operation of this test")


class Checked:
    """Clients whose every answer is validated; the violations found."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.found: list[str] = []
        self.checked = 0
        self.lock = threading.Lock()

    def check(self, method: str, path: str, status: int, media: str, body: bytes) -> None:
        media = media.split(";")[0].strip()
        if not body.strip():
            return
        found = violations(method, spec_path(path), status, body, media)
        with self.lock:
            self.checked += 1
            self.found += found

    def call(self, method: str, path: str, token: str | None = None, *,
             status: int | None = None, **kwargs: object) -> httpx.Response:
        """Ask, and validate the answer: a success, or ``status`` when given."""
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        extra = kwargs.pop("headers", {})
        answer = httpx.request(method, self.url + path, headers={**headers, **extra},  # type: ignore[dict-item]
                               timeout=20, **kwargs)  # type: ignore[arg-type]
        if status is None:
            assert answer.status_code < 300, (path, answer.status_code, answer.text)
        else:
            assert answer.status_code == status, (path, answer.status_code, answer.text)
        self.check(method.lower(), path, answer.status_code,
                   answer.headers.get("content-type", ""), answer.content)
        return answer

    def stream(self, path: str, token: str | None, lines: list[bytes], until: str
               ) -> threading.Thread:
        """Read a stream in a thread, validating every line, until a line contains
        ``until``."""
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}

        def read() -> None:
            with httpx.stream("GET", self.url + path, timeout=30, headers=headers) as answer:
                media = answer.headers.get("content-type", "")
                for line in answer.iter_lines():
                    data = line.encode()
                    lines.append(data)
                    self.check("get", path, answer.status_code, media, data)
                    if until in line:
                        return

        thread = threading.Thread(target=read, daemon=True)
        thread.start()
        return thread


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[Checked, dict[str, str]]]:
    db = tmp_path / "games.sqlite"
    tokens = add_accounts(db, "alice", "bob", "robot")
    with live_server(db) as live:
        yield Checked(live.url), tokens


def wait_for(lines: list[bytes], text: str) -> None:
    for _ in range(400):
        if any(text.encode() in line for line in lines):
            return
        threading.Event().wait(0.05)
    raise AssertionError(f"{text} never came: {lines}")


def test_every_answer_is_in_lichess_schemas(server: tuple[Checked, dict[str, str]]) -> None:
    s, tok = server
    alice, bob, robot = tok["alice"], tok["bob"], tok["robot"]
    s.call("GET", "/api/account", alice)
    s.call("POST", "/api/token/test", content=f"{alice},nope")
    s.call("POST", "/api/bot/account/upgrade", robot)
    bob_events: list[bytes] = []
    alice_events: list[bytes] = []
    s.stream("/api/stream/event", bob, bob_events, "gameFinish")
    s.stream("/api/stream/event", alice, alice_events, "challengeDeclined")
    s.call("GET", "/api/bot/online")
    clock = {"clock.limit": 180, "clock.increment": 2}
    first = s.call("POST", "/api/challenge/bob", alice, data=clock).json()
    wait_for(bob_events, first["id"])
    s.call("GET", "/api/challenge", bob)
    s.call("POST", f"/api/challenge/{first['id']}/decline", bob, data={"reason": "later"})
    wait_for(alice_events, "challengeDeclined")
    second = s.call("POST", "/api/challenge/bob", alice, data={"color": "random"}).json()
    s.call("POST", f"/api/challenge/{second['id']}/cancel", alice)
    wait_for(bob_events, "challengeCanceled")
    game = s.call("POST", "/api/challenge/bob", alice, data={**clock, "color": "white"}).json()
    s.call("POST", f"/api/challenge/{game['id']}/accept", bob)
    wait_for(bob_events, "gameStart")
    game_id = game["id"]
    s.call("GET", "/api/account/playing", alice)
    states: list[bytes] = []
    watching = s.stream(f"/api/board/game/stream/{game_id}", alice, states, '"resign"')
    wait_for(states, "gameFull")
    s.call("POST", f"/api/board/game/{game_id}/chat", alice, data={"room": "player",
                                                                   "text": "hello"})
    s.call("POST", f"/api/board/game/{game_id}/move/e2e4", alice)
    s.call("POST", f"/api/board/game/{game_id}/move/e7e5", bob,
           params={"offeringDraw": "true"})
    s.call("POST", f"/api/board/game/{game_id}/draw/no", alice)
    s.call("GET", f"/api/board/game/{game_id}/chat", bob)
    s.call("POST", f"/api/board/game/{game_id}/resign", bob)
    watching.join(20)
    wait_for(bob_events, "gameFinish")
    s.call("GET", f"/game/export/{game_id}", headers={"Accept": "application/json"})
    ai = s.call("POST", "/api/challenge/ai", robot, data={"level": 1, **clock})
    s.call("POST", f"/api/bot/game/{ai.json()['id']}/abort", robot)
    s.call("POST", "/api/challenge/open", data=clock)
    assert s.found == [], "\n".join(s.found)
    assert s.checked >= 30  # every answer above and every stream line was validated


@pytest.fixture
def timed_server(tmp_path: Path) -> Iterator[tuple[Checked, dict[str, str], Live, FakeTime]]:
    """A server whose games run on a hand-driven clock (the absences measured on it)."""
    db = tmp_path / "games.sqlite"
    tokens = add_accounts(db, "alice", "bob")
    clock = FakeTime()
    with live_server(db, now_ms=clock) as live:
        yield Checked(live.url), tokens, live, clock


def started(s: Checked, alice: str, bob: str, **game: object) -> str:
    """A game alice (White) and bob have agreed on: its id."""
    made = s.call("POST", "/api/challenge/bob", alice,
                  data={"clock.limit": 180, "clock.increment": 2, "color": "white", **game})
    s.call("POST", f"/api/challenge/{made.json()['id']}/accept", bob)
    return str(made.json()["id"])


def on_loop(live: Live, work: Callable[[], object]) -> None:
    """Run ``work`` on the server's event loop, and wait for it."""
    done = threading.Event()

    def run() -> None:
        work()
        done.set()

    live.hub.loop.call_soon_threadsafe(run)
    assert done.wait(10)


def test_takebacks_time_and_an_abandoned_game_in_lichess_schemas(
        timed_server: tuple[Checked, dict[str, str], Live, FakeTime]) -> None:
    s, tok, live, clock = timed_server
    alice, bob = tok["alice"], tok["bob"]
    game_id = started(s, alice, bob)
    board = f"/api/board/game/{game_id}"
    s.call("GET", f"/api/challenge/{game_id}/show", alice)
    watched: list[bytes] = []
    spectator = s.stream(f"/api/stream/game/{game_id}", None, watched, '"timeout"')
    states: list[bytes] = []
    player = s.stream(f"/api/board/game/stream/{game_id}", bob, states, '"timeout"')
    wait_for(states, "gameFull")
    with httpx.stream("GET", f"{s.url}/api/board/game/stream/{game_id}", timeout=10,
                      headers={"Authorization": f"Bearer {alice}"}) as answer:
        next(answer.iter_lines())  # alice at the board, then gone
    presence = live.services.presence
    for _ in range(400):  # until the server has seen her stream close
        if presence.games[game_id].left_at[Side.WHITE] is not None:
            break
        threading.Event().wait(0.05)
    clock.advance(GONE_MS)  # she has left once her streams have been closed 5 s
    on_loop(live, presence.look)
    wait_for(states, '"opponentGone","gone":true,"claimWinInSeconds":25')
    for token, move in ((alice, "e2e4"), (bob, "e7e5"), (alice, "g1f3")):
        s.call("POST", f"{board}/move/{move}", token)
    s.call("POST", f"{board}/takeback/yes", alice)
    wait_for(states, '"wtakeback":true')
    s.call("POST", f"{board}/takeback/no", bob)
    s.call("POST", f"{board}/takeback/yes", alice)
    s.call("POST", f"{board}/takeback/yes", bob)
    wait_for(states, '"moves":"e2e4 e7e5","wtime"')
    s.call("POST", f"/api/round/{game_id}/add-time/15", alice)
    s.call("POST", f"/api/challenge/{game_id}/start-clocks",
           params={"token1": alice, "token2": bob})
    status = s.call("GET", "/api/users/status",
                    params={"ids": "alice,bob,nobody", "withGameIds": "true"}).json()
    assert [(u["id"], u["playing"], u["playingId"]) for u in status] == [
        ("alice", True, game_id), ("bob", True, game_id)]
    assert s.call("POST", f"{board}/claim-victory", bob, status=400).json()["error"]
    clock.advance(30_000 - GONE_MS)
    on_loop(live, presence.look)
    wait_for(states, '"claimWinInSeconds":0')
    s.call("POST", f"{board}/claim-victory", bob)
    player.join(20)
    spectator.join(20)
    last = json.loads(states[-1])
    assert (last["status"], last["winner"]) == ("timeout", "black")
    moves = [json.loads(line) for line in watched if b'"lm"' in line]
    assert [m["lm"] for m in moves] == ["e2e4", "e7e5"]  # 3 behind, then the end's
    assert json.loads(watched[-1])["status"]["name"] == "timeout"
    assert s.found == [], "\n".join(s.found)
    assert s.checked >= 25


def test_the_laws_refuse_in_lichess_error_shape(server: tuple[Checked, dict[str, str]]
                                                ) -> None:
    s, tok = server
    alice, bob = tok["alice"], tok["bob"]
    game_id = started(s, alice, bob, profile="fide-2023")
    board = f"/api/board/game/{game_id}"
    for token, move in ((alice, "e2e4"), (bob, "e7e5"), (alice, "g1f3")):
        s.call("POST", f"{board}/move/{move}", token)
    refusals = {
        f"{board}/takeback/yes": "a move made stands (F23 4.7, S4.7)",
        f"/api/round/{game_id}/add-time/15": "only the arbiter changes a clock (F23 6.13",
        f"{board}/claim-victory": "not arriving (F23 6.7, S6.6)",
        f"{board}/claim-draw": "not arriving (F23 6.7, S6.6)",
    }
    for path, article in refusals.items():
        error = s.call("POST", path, alice, status=400).json()["error"]
        assert "under the fide-2023 profile" in error and article in error, error
    s.call("POST", f"/api/challenge/{game_id}/start-clocks",  # running: no effect
           params={"token1": alice, "token2": bob})
    assert s.call("GET", f"/game/export/{game_id}",
                  headers={"Accept": "application/json"}).json()["moves"] == "e2e4 e7e5 g1f3"
    assert s.found == [], "\n".join(s.found)


def test_chat_lines_on_the_game_streams_by_room(server: tuple[Checked, dict[str, str]]
                                                ) -> None:
    """The player room to the players; the spectator room to the spectators, and to a
    player only if he is a BOT (a person playing takes no advice, F23 11.3.1)."""
    s, tok = server
    alice, bob, robot = tok["alice"], tok["bob"], tok["robot"]
    s.call("POST", "/api/bot/account/upgrade", bob)
    game_id = started(s, alice, bob)
    chat = f"/api/board/game/{game_id}/chat"
    streams: dict[str, list[bytes]] = {"alice": [], "bob": [], "robot": [], "anonymous": []}
    readers = [s.stream(f"/api/board/game/stream/{game_id}", token, streams[name], '"resign"')
               for name, token in (("alice", alice), ("bob", bob), ("robot", robot),
                                   ("anonymous", None))]
    for lines in streams.values():
        wait_for(lines, "gameFull")
    s.call("POST", chat, alice, data={"room": "player", "text": "Good luck"})
    s.call("POST", chat, robot, data={"room": "spectator", "text": "Enjoy the game"})
    for name in ("bob", "robot", "anonymous"):
        wait_for(streams[name], "Enjoy the game")
    s.call("POST", f"/api/board/game/{game_id}/resign", bob)
    for reader in readers:
        reader.join(20)
    said = {name: [json.loads(line) for line in lines if b'"chatLine"' in line]
            for name, lines in streams.items()}
    player = {"type": "chatLine", "room": "player", "username": "alice", "text": "Good luck"}
    spectator = {"type": "chatLine", "room": "spectator", "username": "robot",
                 "text": "Enjoy the game"}
    assert said["bob"] == [player, spectator]  # a BOT: lichess-bot answers spectators
    assert said["alice"] == [player]  # a person playing
    assert said["robot"] == said["anonymous"] == [spectator]  # the player room is not theirs
    assert s.found == [], "\n".join(s.found)
