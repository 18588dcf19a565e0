"""The tournament routes of the API (JSON, fields as forms or JSON as the Board API reads
them): list, create, read, join, add a player, pair the next round, enter a result. Only
the tournament's organiser and the server's arbiters pair and enter results (403
otherwise); a refused request changes nothing and says why (4xx)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from chessarbiter.clock import Side
from chessarbiter.server.errors import ApiError
from chessarbiter.server.http import auth
from chessarbiter.server.http.board_api import creating, fields
from chessarbiter.server.http.openapi import OK, Op
from chessarbiter.server.http.services import services_of
from chessarbiter.server.http.share import off_the_loop
from chessarbiter.server.lobby.requests import choice_field, int_field, text_field, written_control
from chessarbiter.server.tournaments.desk import DESKS, MAX_ID, Board, Desk
from chessarbiter.server.tournaments.rounds import end_game, start_round
from chessarbiter.server.tournaments.view import tournament_bytes
from chessarbiter.tournament.events import RESULTS, Registered, Settings, System
from chessarbiter.tournament.log import MAX_RATING, TITLES

DEFAULT_TIEBREAKS: Final = {System.SWISS: "BH-C1,BH,SB", System.ROUND_ROBIN: "SB,DE,WIN",
                            System.DOUBLE_ROUND_ROBIN: "SB,DE,WIN"}
"""The tie-breaks of a tournament created without any (as ``chessarbiter tournament``)."""
MAX_NAME: Final = 80
SYSTEMS: Final = tuple(s.value for s in System)
MAX_ROUNDS: Final = 99


def desk_of(request: Request) -> Desk:
    return DESKS[services_of(request).hub]


def tournament_id(request: Request) -> int:
    value: int = request.path_params["tournamentId"]
    if not 1 <= value <= MAX_ID:
        raise ApiError(404, f"no tournament {value}")
    return value


def _name(data: Mapping[str, Any], field: str) -> str:
    name = (text_field(data, field) or "").strip()
    if not name:
        raise ApiError(400, f"{field}: required")
    if len(name) > MAX_NAME or not name.isprintable():
        raise ApiError(400, f"{field}: at most {MAX_NAME} printable characters")
    return name


def read_settings(data: Mapping[str, Any]) -> Settings:
    """A new tournament's settings from its fields; 400 naming a bad one."""
    system = System(choice_field(data, "system", SYSTEMS, System.SWISS.value))
    rounds = int_field(data, "rounds", 1, MAX_ROUNDS)
    if system is System.SWISS and rounds is None:
        raise ApiError(400, "rounds: required for a Swiss")
    if system is not System.SWISS and rounds is not None:
        raise ApiError(400, "rounds: a round robin's rounds follow from its players")
    written = text_field(data, "tiebreaks") or DEFAULT_TIEBREAKS[system]
    tiebreaks = tuple(t.strip() for t in written.split(",") if t.strip())
    colour = choice_field(data, "initialColor", ("white", "black"), "white")
    rules = choice_field(data, "rules", ("2025", "2017"), "2025")
    return Settings(_name(data, "name"), system, rounds if system is System.SWISS else None,
                    tiebreaks=tiebreaks,
                    initial_side=Side.WHITE if colour == "white" else Side.BLACK,
                    rules="2017" if rules == "2017" else "2025")


def _registered(data: Mapping[str, Any], name: str) -> Registered:
    rating = int_field(data, "rating", 0, MAX_RATING) or 0
    title = choice_field(data, "title", TITLES, "")
    return Registered(name, rating, title)


def board_json(board: Board) -> dict[str, Any]:
    return {"round": board.round, "white": board.white_name, "black": board.black_name,
            "game": board.game_id}


async def list_tournaments(request: Request) -> Response:
    """Every tournament on the server."""
    desk = desk_of(request)
    return JSONResponse({"tournaments": await desk.listing()})


async def create(request: Request) -> Response:
    """A new tournament, organised by the token's account (a creation: rate-limited per
    account and per address)."""
    services = services_of(request)
    account = auth.require_account(request, services)
    await creating(request, services, account)
    data = await fields(request)
    settings = read_settings(data)
    control = written_control(data) or "-"
    profile = text_field(data, "profile") or "auto"
    number = await desk_of(request).create(account, settings, control, profile)
    return JSONResponse({"id": number, "url": f"/tournament/{number}"})


async def read(request: Request) -> Response:
    """The tournament: players, pairings, results, standings, crosstable."""
    off_the_loop(request.scope)  # a new version is rendered in the rendering process
    body = await desk_of(request).render(tournament_id(request), "json", tournament_bytes)
    return Response(body, media_type="application/json")


async def join(request: Request) -> Response:
    """The token's account joins the tournament (under its name; rate-limited as a
    creation)."""
    services = services_of(request)
    account = auth.require_account(request, services)
    await creating(request, services, account)
    entry = _registered(await fields(request), account.name)
    await desk_of(request).register(tournament_id(request), entry)
    return JSONResponse({"ok": True, "name": account.name})


async def add_player(request: Request) -> Response:
    """A director registers a player (an account's name links the account)."""
    services = services_of(request)
    account = auth.require_account(request, services)
    data = await fields(request)
    entry = _registered(data, _name(data, "name"))
    await desk_of(request).register(tournament_id(request), entry, director=account)
    return JSONResponse({"ok": True, "name": entry.name})


async def withdraw(request: Request) -> Response:
    """Withdraw a player from the next round on (``player``: a name or start number, a
    director's choice; absent: the token's account itself)."""
    services = services_of(request)
    account = auth.require_account(request, services)
    player = text_field(await fields(request), "player")
    name = await desk_of(request).withdraw(account, tournament_id(request),
                                           player.strip()[:MAX_NAME] if player else None)
    return JSONResponse({"ok": True, "name": name})


async def pair(request: Request) -> Response:
    """A director pairs the next round; its games start on the server."""
    services = services_of(request)
    account = auth.require_account(request, services)
    off_the_loop(request.scope)  # the pairing is computed in the pairing process
    boards = await desk_of(request).pair(account, tournament_id(request))
    return JSONResponse({"round": boards[0].round if boards else None,
                         "boards": [board_json(b) for b in boards]})


async def start(request: Request) -> Response:
    """A director starts a round: the clocks of its games start."""
    services = services_of(request)
    account = auth.require_account(request, services)
    round_no: int = request.path_params["round"]
    started = await start_round(desk_of(request), account, tournament_id(request), round_no)
    return JSONResponse({"ok": True, "round": round_no, "started": started})


async def result(request: Request) -> Response:
    """A director enters (or corrects) a board's result; the board's live game ends with
    it."""
    services = services_of(request)
    account = auth.require_account(request, services)
    data = await fields(request)
    round_no = int_field(data, "round", 1, MAX_ROUNDS)
    board = int_field(data, "board", 1, 10_000)
    entered = choice_field(data, "result", tuple(RESULTS), "")
    if round_no is None or board is None or not entered:
        raise ApiError(400, f"round, board and result ({', '.join(RESULTS)}): required")
    desk = desk_of(request)
    done = await desk.enter_result(account, tournament_id(request), round_no, board, entered)
    ended = done.game_id is not None and await end_game(desk, done.game_id, entered)
    return JSONResponse({"ok": True, **board_json(done), "result": entered,
                         "gameEnded": ended})


def operations() -> list[Op]:
    """The tournament routes, for the app's route table
    (:meth:`chessarbiter.server.http.routes.Table.extended`): each with its handler and its
    OpenAPI description."""
    tid = {"tournamentId": {"type": "integer", "minimum": 1}}
    path = "/api/tournament/{tournamentId:int}"
    player = {"rating": {"type": "integer", "minimum": 0, "maximum": MAX_RATING},
              "title": {"type": "string", "enum": list(TITLES)}}
    return [
        Op("get", "/api/tournament", "Extension: the tournaments", auth="none",
           handler=list_tournaments),
        Op("post", "/api/tournament/new", "Extension: create a tournament (its organiser: "
           "the token's account)", body={
               "name": {"type": "string"}, "system": {"type": "string", "enum": list(SYSTEMS)},
               "rounds": {"type": "integer", "minimum": 1, "maximum": MAX_ROUNDS},
               "timeControl": {"type": "string"}, "profile": {"type": "string"},
               "tiebreaks": {"type": "string", "description": "e.g. BH-C1,BH,SB"},
               "initialColor": {"type": "string", "enum": ["white", "black"]},
               "rules": {"type": "string", "enum": ["2025", "2017"]}}, handler=create),
        Op("get", path, "Extension: a tournament's players, pairings, results, standings "
           "and crosstable", auth="none", path_params=tid, handler=read),
        Op("post", path + "/join", "Extension: join a tournament (under the account's name)",
           OK, body={"rating": player["rating"]}, path_params=tid, handler=join),
        Op("post", path + "/player", "Extension: the organiser or an arbiter registers a "
           "player", OK, body={"name": {"type": "string"}, **player}, path_params=tid,
           handler=add_player),
        Op("post", path + "/withdraw", "Extension: withdraw from the next round on (a "
           "player themselves, or any player by the organiser or an arbiter)", OK,
           body={"player": {"type": "string", "description": "a name or start number"}},
           path_params=tid, handler=withdraw),
        Op("post", path + "/pair", "Extension: the organiser or an arbiter pairs the next "
           "round; its games start", path_params=tid, handler=pair),
        Op("post", path + "/round/{round:int}/start", "Extension: the organiser or an "
           "arbiter starts a round: the clocks of its games start",
           path_params={**tid, "round": {"type": "integer", "minimum": 1}}, handler=start),
        Op("post", path + "/result", "Extension: the organiser or an arbiter enters a "
           "board's result (a live game ends with it)", OK, body={
               "round": {"type": "integer", "minimum": 1},
               "board": {"type": "integer", "minimum": 1},
               "result": {"type": "string", "enum": list(RESULTS)}}, path_params=tid,
           handler=result),
    ]
