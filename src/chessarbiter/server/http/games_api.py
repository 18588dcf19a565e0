"""lichess operations about games and players beside the Board API's own: a challenge
shown, a game's clocks started by its players' tokens, the players' status, and the
spectators' stream of a game (``/api/stream/game/{id}``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from chessarbiter.clock.records import Side
from chessarbiter.server.errors import ApiError
from chessarbiter.server.games import shapes
from chessarbiter.server.games.spectate import Spectated
from chessarbiter.server.http import auth
from chessarbiter.server.http.board_api import (
    OK,
    Held,
    base_url,
    open_stream,
    token_side,
)
from chessarbiter.server.http.services import services_of
from chessarbiter.server.lobby.lobby import challenge_json

MAX_IDS: Final = 100
"""Users one ``/api/users/status`` may ask about (lichess' limit)."""


async def show_challenge(request: Request) -> Response:
    """``GET /api/challenge/{challengeId}/show``: an open challenge, or one recently
    accepted, declined or canceled, to its challenger or its opponent."""
    services = services_of(request)
    account = auth.require_account(request, services)
    challenge = await services.lobby.show(request.path_params["challengeId"])
    if account.id not in (challenge.challenger.id, challenge.dest.id):
        raise ApiError(404, f"no challenge {challenge.id!r} of {account.name}")
    return JSONResponse(challenge_json(challenge, base_url(request)))


async def start_clocks(request: Request) -> Response:
    """``POST /api/challenge/{gameId}/start-clocks?token1=..&token2=..``: with the tokens of
    both players (one against an engine), the clocks are started. Here they start when the
    game's profile says (Black starts White's clock at once, Art. 6.5; online, once both
    have moved): a game whose clocks run is unchanged (as lichess), one whose clocks wait
    for the first moves is refused with that rule."""
    services = services_of(request)
    entry = await services.hub.get(request.path_params["gameId"])
    tokens = [t for t in (request.query_params.get(k) for k in ("token1", "token2")) if t]
    if not request.query_params.get("token1"):
        raise ApiError(400, "token1: required (a player's token)")
    sides = set()
    for token in tokens:
        side = token_side(services, entry, token)
        if side is None:
            raise ApiError(401, f"game {entry.id}: a token is no player's of this game")
        sides.add(side)
    players = {s for s in (Side.WHITE, Side.BLACK) if entry.meta.seat(s).engine is None}
    if sides != players:
        raise ApiError(400, f"game {entry.id}: start-clocks needs the token of each player")
    game = entry.game
    if entry.over:
        raise ApiError(400, f"game {entry.id}: the game is over")
    if game.setup.control is not None and game.time_to_flag() is None:
        raise ApiError(400, f"game {entry.id}: under the {game.profile.name} profile the "
                            "clocks start with the first moves (or the arbiter stopped "
                            "them, Art. 6.12)")
    return JSONResponse(OK)


async def users_status(request: Request) -> Response:
    """``GET /api/users/status?ids=a,b``: each known account's ``online`` (a stream open)
    and ``playing`` flags (``withGameIds``: the game's id as ``playingId``)."""
    services = services_of(request)
    ids = [i.strip().lower() for i in request.query_params.get("ids", "").split(",")
           if i.strip()]
    if not ids:
        raise ApiError(400, "ids: required (user ids separated by commas)")
    if len(ids) > MAX_IDS:
        raise ApiError(400, f"ids: {len(ids)} users, at most {MAX_IDS}")
    with_ids = request.query_params.get("withGameIds", "false").lower() == "true"
    found = []
    for user_id in dict.fromkeys(ids):
        account = services.members.accounts.by_id(user_id)
        if account is None:
            continue
        games = [g["gameId"] for g in await services.loader.playing_events(account.id)]
        online = f"account:{account.id}" in services.limits.streams
        entry = shapes.user_status(account, online, bool(games))
        if with_ids and games:
            entry["playingId"] = games[0]
        found.append(entry)
    return JSONResponse(found)


async def stream_game(request: Request) -> Response:
    """``GET /api/stream/game/{id}``: the game for spectators, an ongoing game
    :data:`~spectate.DELAY_PLIES` moves behind as lichess shows it (:mod:`~.spectate`),
    keep-alive lines, and the game whole when it ends, then the end of the stream."""
    services = services_of(request)
    entry = await services.hub.get(request.path_params["id"])
    auth.known_token(auth.bearer(request), services, entry)
    closed = await open_stream(services, request.scope, auth.account(request, services))
    queue = entry.subscribe()
    view = Spectated(entry)

    async def lines() -> AsyncIterator[bytes]:
        try:
            yield view.first()
            if entry.over:
                return
            while (line := await queue.get()) is not None and not entry.over:
                for due in [line] if line == b"\n" else view.lines():
                    yield due
            for due in view.last():
                yield due
        finally:
            entry.unsubscribe(queue)

    return Held(lines(), closed)
