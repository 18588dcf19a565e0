"""The page routes: HTML pages from templates, static files, and the JSON view of a game's
moves (:mod:`chessarbiter.server.web.position`)."""

from __future__ import annotations

import html
import json
from pathlib import Path
from string import Template
from typing import Final
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from chessarbiter.core.errors import ChessError
from chessarbiter.engines.levels import LADDER_ELO, elo_label
from chessarbiter.laws.profiles import PROFILES
from chessarbiter.server.games.meta import ID_LENGTH
from chessarbiter.server.http.auth import cookie_name, secure
from chessarbiter.server.lobby.requests import DEFAULT_PROFILE
from chessarbiter.server.web.position import read_move, view

HERE: Final = Path(__file__).parent
STATIC: Final = HERE / "static"
TEMPLATES: Final = HERE / "templates"
DEFAULT_LEVEL: Final = 3
"""The engine level the home page's chooser starts at."""


def _page(name: str, title: str, status: int = 200, **config: object) -> HTMLResponse:
    """A template with its title and the page's configuration as JSON (escaped for HTML)."""
    text = Template((TEMPLATES / f"{name}.html").read_text(encoding="utf-8"))
    body = text.substitute(
        title=html.escape(title),
        config=html.escape(json.dumps(config), quote=False),
        profiles="".join(
            f'<option value="{html.escape(name)}"{" selected" * (name == DEFAULT_PROFILE)}>'
            f"{html.escape(name)}</option>"
            for name in sorted(PROFILES)
        ),
        levels="".join(
            f'<option value="{level}"{" selected" * (level == DEFAULT_LEVEL)}>'
            f"{level} ({elo_label(level)})</option>"
            for level in sorted(LADDER_ELO)
        ),
    )
    return HTMLResponse(body, status_code=status, headers={"Cache-Control": "no-store"})


def missing(heading: str, text: str) -> HTMLResponse:
    """The HTML 404 page: what is not there, and the way home."""
    body = Template((TEMPLATES / "missing.html").read_text(encoding="utf-8")).substitute(
        title=html.escape(f"chessarbiter: {heading.lower()}"), heading=html.escape(heading),
        text=html.escape(text))
    return HTMLResponse(body, status_code=404, headers={"Cache-Control": "no-store"})


def wants_page(request: Request) -> bool:
    """Whether a 404 should be the HTML page: a browser's navigation, not an API call."""
    return (request.method in ("GET", "HEAD") and not request.url.path.startswith("/api/")
            and "text/html" in request.headers.get("accept", ""))


async def home(request: Request) -> Response:
    """Start a game: time control, profile, colour, opponent."""
    return _page("home", "chessarbiter: play")


async def game(request: Request) -> Response:
    """A game's board, for its players and spectators. A player's link carries the game's
    secret (as lichess's ``urlWhite`` does): it is moved into the game's cookie (HttpOnly)
    and the browser sent on to the same address without it (303), so the secret never
    stays in the address bar, the history or a link copied from the page."""
    game_id = request.path_params["game_id"]
    if len(game_id) != ID_LENGTH or not (game_id.isascii() and game_id.isalnum()):
        return missing("No such page", f"There is no page at /{game_id}.")
    services = getattr(request.app.state, "services", None)  # None: the pages served alone
    if services is not None and not await services.loader.exists(game_id):
        return missing("No such game", f"There is no game {game_id} on this server: "
                       "check the link.")
    secret = request.query_params.get("secret")
    if not secret:
        return _page("game", f"chessarbiter: game {game_id}", gameId=game_id)
    rest = urlencode([item for item in request.query_params.multi_items()
                      if item[0] != "secret"])
    onward = RedirectResponse(f"/{game_id}" + (f"?{rest}" if rest else ""), status_code=303)
    onward.set_cookie(cookie_name(game_id), secret, path="/", httponly=True, samesite="strict",
                      secure=secure(request, services is not None
                                    and services.config.behind_proxy))
    return onward


async def arbiter(request: Request) -> Response:
    """The arbiter's console: live games and the arbiter's actions."""
    return _page("arbiter", "chessarbiter: arbiter")


def _bad(exc: ValueError) -> JSONResponse:
    return JSONResponse({"error": str(exc)}, status_code=400)


def _chess960(request: Request) -> bool:
    return request.query_params.get("chess960", "false").lower() == "true"


async def game_view(request: Request) -> Response:
    """``GET /web/view?fen=&moves=&chess960=``: legal moves, SAN, the moves in words, the
    board read."""
    query = request.query_params
    try:
        return JSONResponse(view(query.get("fen", ""), query.get("moves", ""), _chess960(request)))
    except ChessError as exc:
        return _bad(exc)


async def move_text(request: Request) -> Response:
    """``GET /web/move?fen=&moves=&text=&chess960=``: a move typed in SAN (or long
    algebraic, UCI) read in the game's position, as UCI."""
    query = request.query_params
    try:
        uci = read_move(query.get("fen", ""), query.get("moves", ""), query["text"],
                        _chess960(request))
        return JSONResponse({"uci": uci})
    except KeyError:
        return JSONResponse({"error": "text: missing"}, status_code=400)
    except ChessError as exc:
        return _bad(exc)


async def favicon(request: Request) -> Response:
    """``/favicon.ico``, asked for by browsers whatever the page says: the SVG icon."""
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


PLAYING: Final = frozenset({"/web/view", "/web/move"})
"""The routes a player's page asks on its way to a move (the position read, the typed move
read): answered at once like a game's own routes, never kept waiting for a turn
(:class:`~chessarbiter.server.http.share.Share`), since the player's clock runs."""


def routes() -> list[BaseRoute]:
    """The pages, the view routes and the static files, for the app's route list (after its
    own: the game page answers any one-segment path)."""
    return [
        Route("/", home),
        Route("/arbiter", arbiter),
        Route("/favicon.ico", favicon),
        Route("/web/view", game_view),
        Route("/web/move", move_text),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/{game_id}", game),  # the server's game links, as lichess writes them
    ]
