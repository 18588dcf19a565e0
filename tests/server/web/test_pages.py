"""The page routes in-process: pages, the game secret's cookie, the view routes' answers and
refusals, and the vendored cm-chessboard served with its licence and version."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from starlette.applications import Starlette

from chessarbiter.laws.profiles import PROFILES
from chessarbiter.server.http.auth import cookie_name
from chessarbiter.server.web import routes
from chessarbiter.server.web.position import MAX_PLIES

APP = Starlette(routes=routes())


class Client:
    """GET requests to the page routes, in-process."""

    def get(self, path: str, params: dict[str, Any] | None = None) -> httpx.Response:
        async def fetch() -> httpx.Response:
            transport = httpx.ASGITransport(app=APP)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
                return await http.get(path, params=params)

        return asyncio.run(fetch())


client = Client()


def test_home_lists_every_profile() -> None:
    page = client.get("/")
    assert page.status_code == 200
    for name in PROFILES:
        assert f'<option value="{name}"' in page.text
    assert '<option value="online" selected>' in page.text


def test_the_game_page_moves_the_secret_into_the_games_cookie() -> None:
    onward = client.get("/AbCd1234?secret=s3cr3t&accessible=1")  # redirects not followed
    assert onward.status_code == 303
    assert onward.headers["location"] == "/AbCd1234?accessible=1"  # the rest kept
    cookie = onward.headers["set-cookie"]
    assert cookie.startswith(f"{cookie_name('AbCd1234')}=s3cr3t;")
    assert "HttpOnly" in cookie and "samesite=strict" in cookie.lower()
    assert client.get("/AbCd1234?secret=s3cr3t").headers["location"] == "/AbCd1234"
    page = client.get("/AbCd1234")
    assert page.status_code == 200 and '"gameId": "AbCd1234"' in page.text
    assert "set-cookie" not in page.headers and "s3cr3t" not in page.text


def test_only_game_ids_get_a_game_page() -> None:
    for path in ("/%3Cscript%3E", "/AbCd12345", "/AbCd123%C3%A9"):
        answer = client.get(path)
        assert answer.status_code == 404, path
        assert "<script>" not in answer.text
        assert "<h1>No such page</h1>" in answer.text  # an HTML page for people
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"


def test_view_and_typed_moves() -> None:
    shown = client.get("/web/view", params={"fen": "startpos", "moves": "e2e4 e7e5"}).json()
    assert shown["san"] == ["e4", "e5"]
    assert shown["turn"] == "white"
    assert "g1f3" in shown["legal"]
    typed = client.get("/web/move", params={"moves": "e2e4", "text": "Nf6"})
    assert typed.json() == {"uci": "g8f6"}


def test_refusals_say_why() -> None:
    bad = client.get("/web/view", params={"moves": "e2e4 e2e4"})
    assert bad.status_code == 400
    assert "ply 2" in bad.json()["error"]
    assert "FEN" in client.get("/web/view", params={"fen": "8/8 w"}).json()["error"]
    long = client.get("/web/view", params={"moves": " ".join(["g1f3"] * (MAX_PLIES + 1))})
    assert long.status_code == 400
    missing = client.get("/web/move", params={"moves": ""})
    assert missing.json() == {"error": "text: missing"}
    illegal = client.get("/web/move", params={"text": "Ke2"})
    assert illegal.status_code == 400
    assert "illegal move 'Ke2'" in illegal.json()["error"]


def test_the_vendored_board_is_served_with_its_licence_and_version() -> None:
    module = client.get("/static/vendor/cm-chessboard/src/Chessboard.js")
    assert module.status_code == 200
    assert "javascript" in module.headers["content-type"]
    assert "MIT" in client.get("/static/vendor/cm-chessboard/LICENSE").text
    version = client.get("/static/vendor/cm-chessboard/VERSION").text.strip()
    assert version.count(".") == 2
    assert client.get("/static/vendor/cm-chessboard/assets/pieces/standard.svg").status_code == 200
