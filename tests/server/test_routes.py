"""The route table (server/http/routes.py): each route written once, and the app's router,
the fast path, the cluster's forwarding and the OpenAPI document all read from it."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.routing import Match, Route

from chessarbiter.server.app import API, api_document, create_app
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.http import board_api
from chessarbiter.server.http.routes import ROUTES

SRC = Path(__file__).resolve().parents[2] / "src" / "chessarbiter"


def test_the_move_route_is_written_once_in_the_sources() -> None:
    found = [path.relative_to(SRC).as_posix() for path in sorted(SRC.rglob("*.py"))
             if "/move/{move}" in path.read_text(encoding="utf-8")]
    assert found == ["server/http/routes.py"]
    assert sum(op.path.endswith("/move/{move}") for op in ROUTES.ops) == 2  # board, bot


def test_the_router_and_the_document_serve_the_tables_routes(tmp_path: Path) -> None:
    app = create_app(ServerConfig(db=tmp_path / "g.sqlite")).app
    routed = [(method, route.path) for route in app.routes if isinstance(route, Route)
              for method in route.methods or () if method != "HEAD"]
    table = {(op.method.upper(), op.path) for op in API.ops}
    assert {(op.method.upper(), op.path) for op in ROUTES.ops} < table
    assert table <= set(routed)
    api = [r for r in routed if r[1].startswith("/api/")]
    assert len(api) == len(set(api)) and set(api) <= table  # every API route from the table
    documented = {(method.upper(), path)
                  for path, methods in api_document()["paths"].items() for method in methods}
    assert {(op.method.upper(), op.public_path) for op in API.documented()} == documented
    public = {(op.method.upper(), op.public_path) for op in API.ops}
    assert public - documented == {("POST", "/api/board/game/{gameId}/claim-victory/"),
                                   ("POST", "/api/bot/game/{gameId}/claim-victory/")}
    assert ("POST", "/api/tournament/{tournamentId}/round/{round}/start") in documented
    assert {op.path for op in API.ops if op.public_path != op.path} == {
        "/api/tournament/{tournamentId:int}" + end for end in (
            "", "/join", "/player", "/withdraw", "/pair", "/round/{round:int}/start",
            "/result")}


@pytest.mark.parametrize(("method", "path", "about"), [
    ("POST", "/api/board/game/abcd1234/move/e2e4", ("abcd1234", False)),
    ("POST", "/api/bot/game/abcd1234/resign", ("abcd1234", False)),
    ("GET", "/api/board/game/stream/abcd1234", ("abcd1234", True)),
    ("POST", "/api/board/game/stream/abcd1234", ("abcd1234", False)),  # not a stream: 405
    ("GET", "/api/board/game/abcd1234/chat", ("abcd1234", False)),
    ("GET", "/api/game/abcd1234", ("abcd1234", False)),
    ("GET", "/game/export/abcd1234", ("abcd1234", False)),
    ("POST", "/api/arbiter/game/abcd1234/adjourn", ("abcd1234", False)),
    ("GET", "/api/arbiter/games", None),
    ("POST", "/api/challenge/open", None),
    ("POST", "/api/challenge/abcd1234/start-clocks", None),
    ("GET", "/api/game/abcd-1234", None),  # not a game's id
    ("GET", "/api/game/" + "a" * 33, None),
    ("GET", "/api/game/abcd1234\n", None),
])
def test_forwarding_knows_the_game_of_a_route_about_one_game(
        method: str, path: str, about: tuple[str, bool] | None) -> None:
    assert ROUTES.game_of(method, path) == about


def test_the_hot_routes_are_the_plain_asgi_ones() -> None:
    assert ROUTES.hot("POST", "/api/bot/game/g1/move/e2e4") == (board_api.move,
                                                                {"gameId": "g1", "move": "e2e4"})
    assert ROUTES.hot("GET", "/api/board/game/stream/g1") == (board_api.game_stream,
                                                              {"gameId": "g1"})
    assert ROUTES.hot("GET", "/api/game/g1") is None
    for op in ROUTES.ops:  # each hot route is the router's for its own path
        scope = {"type": "http", "method": op.method.upper(),
                 "path": op.path.replace("{gameId}", "g1").replace("{move}", "e2e4")}
        if ROUTES.hot(scope["method"], scope["path"]) is not None:
            assert Route(op.path, op.handler, methods=[op.method]).matches(scope)[0] \
                is Match.FULL
