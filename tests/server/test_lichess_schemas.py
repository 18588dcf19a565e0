"""Every JSON body and NDJSON line the Board, Bot and Challenge operations answer, in a
game played over real HTTP, validated against lichess' own OpenAPI specification
(:mod:`tests.server.lichess_spec`): no violation."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.server.helpers import add_accounts, live_server
from tests.server.lichess_spec import SPECS, violations

if not SPECS.exists():  # pragma: no cover - the shared folder is laid beside the checkout
    pytest.skip("lichess' specification is not in shared/", allow_module_level=True)

SPEC_PATHS = [
    "/api/account", "/api/account/playing", "/api/token/test", "/api/bot/account/upgrade",
    "/api/bot/online", "/api/stream/event", "/api/challenge", "/api/challenge/ai",
    "/api/challenge/open", "/api/challenge/{challengeId}/accept",
    "/api/challenge/{challengeId}/decline", "/api/challenge/{challengeId}/cancel",
    "/api/challenge/{username}", "/game/export/{gameId}",
    *(prefix + rest for prefix in ("/api/board/game", "/api/bot/game") for rest in (
        "/stream/{gameId}", "/{gameId}/move/{move}", "/{gameId}/chat", "/{gameId}/abort",
        "/{gameId}/resign", "/{gameId}/draw/{accept}")),
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

    def call(self, method: str, path: str, token: str | None = None, **kwargs: object
             ) -> httpx.Response:
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        extra = kwargs.pop("headers", {})
        answer = httpx.request(method, self.url + path, headers={**headers, **extra},  # type: ignore[dict-item]
                               timeout=20, **kwargs)  # type: ignore[arg-type]
        assert answer.status_code < 300, (path, answer.status_code, answer.text)
        self.check(method.lower(), path, answer.status_code,
                   answer.headers.get("content-type", ""), answer.content)
        return answer

    def stream(self, path: str, token: str, lines: list[bytes], until: str) -> threading.Thread:
        """Read a stream in a thread, validating every line, until a line contains
        ``until``."""
        def read() -> None:
            with httpx.stream("GET", self.url + path, timeout=30,
                              headers={"Authorization": f"Bearer {token}"}) as answer:
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
