"""The hot routes served without the framework's layers (server/http/fastpath.py) answer as the
app does: the same endpoint for every path, the same statuses and bodies."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
import pytest
from starlette.routing import Match, Route

from chessarbiter.server.app import create_app, open_services
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.http.routes import ROUTES

PATHS = [  # (method, path, whether it is a hot route)
    ("POST", "/api/board/game/abcd1234/move/e2e4", True),
    ("POST", "/api/bot/game/abcd1234/move/e7e8q", True),
    ("GET", "/api/board/game/stream/abcd1234", True),
    ("GET", "/api/bot/game/stream/abcd1234", True),
    ("POST", "/api/board/game/stream/resign", False),
    ("GET", "/api/board/game/stream/", False),
    ("GET", "/api/board/game/abcd1234/move/e2e4", False),
    ("POST", "/api/board/game/abcd1234/resign", False),
    ("POST", "/api/board/game//move/e2e4", False),
    ("POST", "/api/board/game/abcd1234/move/e2e4/", False),
    ("GET", "/api/game/abcd1234", False),
    ("POST", "/api/challenge/open", False),
]


@pytest.mark.parametrize(("method", "path", "hot"), PATHS)
def test_a_hot_route_is_the_one_the_router_finds(method: str, path: str, hot: bool,
                                                 tmp_path: Path) -> None:
    app = create_app(ServerConfig(db=tmp_path / "g.sqlite"))
    scope = {"type": "http", "method": method, "path": path, "root_path": ""}
    routed = None
    for route in app.app.routes:
        matched, child = route.matches(scope)
        if isinstance(route, Route) and matched is Match.FULL:
            routed = (route.endpoint, child["path_params"])
            break
    found = ROUTES.hot(method, path)
    assert (found is not None) == hot
    if found is not None:  # a path it takes is routed to the same endpoint, same params
        assert found == routed


def test_moves_get_the_same_answers_with_and_without_the_fast_path(tmp_path: Path) -> None:
    async def play(fast: bool) -> list[tuple[int, object]]:
        services = open_services(ServerConfig(db=tmp_path / f"{fast}.sqlite", timers=False))
        hub = services.hub
        await hub.start()
        app = create_app(services=services)
        served = app if fast else app.app  # the whole stack, or the Starlette app alone
        answers: list[tuple[int, object]] = []
        try:
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=served),
                                         base_url="http://test") as client:
                game = (await client.post("/api/challenge/open", json={})).json()
                white = {"Authorization": f"Bearer {game['secretWhite']}"}
                black = {"Authorization": f"Bearer {game['secretBlack']}"}
                base = f"/api/board/game/{game['id']}/move/"
                for url, headers in [
                    (base + "e2e4", white), (base + "e2e4", black), (base + "e7e6", white),
                    (base + "e7e5", {}), (base + "e7e5", {"Authorization": "Bearer nope"}),
                    (base + "e7!5", black), (base + "e7e5?offeringDraw=maybe", black),
                    ("/api/board/game/nosuchgame/move/e7e5", black),
                    (base + "e7e5?offeringDraw=true", black),
                ]:
                    response = await client.post(url, headers=headers)
                    body = response.json()
                    if isinstance(body, dict) and "error" in body:
                        body = str(body["error"]).replace(game["id"], "ID")
                    answers.append((response.status_code, body))
                state = (await client.get(f"/api/game/{game['id']}")).json()["state"]
                answers.append((0, (state["moves"], state["bdraw"])))
        finally:
            await hub.stop()
        return answers

    fast, slow = asyncio.run(play(True)), asyncio.run(play(False))
    assert fast == slow
    assert [status for status, _ in fast] == [200, 400, 400, 401, 401, 400, 400, 404, 200, 0]
    assert fast[-1] == (0, ("e2e4 e7e5", True))


def test_a_stream_ends_when_its_client_goes_away(tmp_path: Path) -> None:
    async def run() -> tuple[list[dict[str, object]], int, bool]:
        services = open_services(ServerConfig(db=tmp_path / "g.sqlite", timers=False))
        hub = services.hub
        await hub.start()
        app = create_app(services=services)
        try:
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                         base_url="http://test") as client:
                game = (await client.post("/api/challenge/open", json={})).json()
                entry = hub.games[game["id"]]
                gone = asyncio.Event()
                sent: list[dict[str, object]] = []
                requested = False

                async def receive() -> dict[str, object]:
                    nonlocal requested
                    if not requested:
                        requested = True
                        return {"type": "http.request", "body": b"", "more_body": False}
                    await gone.wait()
                    return {"type": "http.disconnect"}

                async def send(message: dict[str, object]) -> None:
                    sent.append(message)

                scope = {"type": "http", "method": "GET", "headers": [], "query_string": b"",
                         "path": f"/api/board/game/stream/{game['id']}"}
                streaming = asyncio.create_task(app(scope, receive, send))  # type: ignore[arg-type]
                while not entry.subscribers:
                    await asyncio.sleep(0)
                moved = await client.post(
                    f"/api/board/game/{game['id']}/move/e2e4",
                    headers={"Authorization": f"Bearer {game['secretWhite']}"})
                assert moved.status_code == 200
                while len(sent) < 3:
                    await asyncio.sleep(0)
                gone.set()
                await asyncio.wait_for(streaming, 5)
                return sent, len(entry.subscribers), entry.over
        finally:
            await hub.stop()

    sent, subscribers, over = asyncio.run(run())
    assert sent[0]["status"] == 200
    assert (b"content-type", b"application/x-ndjson") in sent[0]["headers"]  # type: ignore[operator]
    lines = [json.loads(m["body"]) for m in sent[1:] if m.get("body")]  # type: ignore[arg-type]
    assert [line["type"] for line in lines] == ["gameFull", "gameState"]
    assert lines[1]["moves"] == "e2e4"
    assert sent[-1] == {"type": "http.response.body", "body": b""}  # the stream ended
    assert subscribers == 0 and not over  # the game plays on without its stream
