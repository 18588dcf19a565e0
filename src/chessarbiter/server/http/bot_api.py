"""lichess' Bot API beyond the game routes (which it shares with the Board API): testing
tokens, upgrading an account to a BOT, the BOTs online, and a game's chat."""

from __future__ import annotations

from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from chessarbiter.server.accounts import AccountError, upgrade_to_bot
from chessarbiter.server.errors import ApiError
from chessarbiter.server.games import chat, shapes
from chessarbiter.server.games.table import ndjson
from chessarbiter.server.http import auth
from chessarbiter.server.http.asgi import encode_json
from chessarbiter.server.http.board_api import OK, fields
from chessarbiter.server.http.services import services_of
from chessarbiter.server.limits import Buckets
from chessarbiter.server.lobby.requests import text_field

SCOPES: Final = ("board:play", "bot:play", "challenge:read", "challenge:write",
                 "preference:read")
"""What a token may do here: everything its account may (tokens have no narrower scopes)."""
MAX_TOKENS: Final = 1000
"""Tokens one ``/api/token/test`` may ask about (lichess' limit)."""


async def token_test(request: Request) -> Response:
    """``POST /api/token/test``: for each token of the body (comma-separated), its account
    and scopes, or ``null`` for a token that is no account's."""
    body = (await request.body()).decode("utf-8", "replace")
    tokens = [t.strip() for t in body.split(",") if t.strip()]
    if len(tokens) > MAX_TOKENS:
        raise ApiError(400, f"{len(tokens)} tokens: at most {MAX_TOKENS}")
    accounts = services_of(request).members.accounts
    found: dict[str, Any] = {}
    for token in tokens:
        account = accounts.by_token(token)
        found[token] = None if account is None else {
            "userId": account.id, "scopes": ",".join(SCOPES), "expires": None}
    return JSONResponse(found)


async def admin_tokens(request: Request) -> Response:
    """``POST /api/token/admin-challenge``: lichess' administrators only; 403 here, where
    no account may make tokens for others."""
    auth.require_account(request, services_of(request))
    raise ApiError(403, "tokens for other accounts are made by lichess' administrators "
                        "only; here each account's token is made by serve --add-account")


async def upgrade(request: Request) -> Response:
    """``POST /api/bot/account/upgrade``: the account becomes a BOT account for good."""
    services = services_of(request)
    account = auth.require_account(request, services)
    try:
        upgraded = await services.db.run(lambda store, conn: upgrade_to_bot(conn, account))
    except AccountError as exc:
        raise ApiError(400, str(exc)) from None
    services.members.accounts.replace(upgraded)
    return JSONResponse(OK)


async def bots_online(request: Request) -> Response:
    """``GET /api/bot/online``: the BOT accounts holding a stream open, as NDJSON users."""
    services = services_of(request)
    count = 50
    held = [key.removeprefix("account:") for key in services.limits.streams
            if key.startswith("account:")]
    bots = [a for a in map(services.members.accounts.by_id, held) if a is not None and a.is_bot]
    body = b"".join(ndjson(shapes.user(a)) for a in bots[:count])
    return Response(body, media_type="application/x-ndjson")


def _pace(request: Request) -> Buckets:
    state = request.app.state
    if not hasattr(state, "chat_pace"):
        state.chat_pace = Buckets(chat.LINES_PER_ACCOUNT, services_of(request).config.now_ms)
    buckets: Buckets = state.chat_pace
    return buckets


async def write_chat(request: Request) -> Response:
    """Write a line in the game's ``player`` room (the players) or ``spectator`` room;
    kept with the game, it goes out on its streams (:func:`chat.write`)."""
    services = services_of(request)
    account = auth.require_account(request, services)
    entry = await services.hub.get(request.path_params["gameId"])
    data = await fields(request)
    room, text = chat.chat_line(text_field(data, "room") or "",
                                text_field(data, "text") or "")
    if room == "player":
        auth.player_side(request, services, entry)  # 403 for anyone else
    chat.pace(_pace(request), account)
    await chat.write(services, entry, room, account.name, text)
    return JSONResponse(OK)


async def read_chat(request: Request) -> Response:
    """The game's ``player`` room, for its players: one line, a JSON array (lichess'
    media type, ``application/x-ndjson``)."""
    services = services_of(request)
    entry = await services.hub.get(request.path_params["gameId"])
    auth.player_side(request, services, entry)
    lines = await chat.read(services, entry, "player")
    return Response(encode_json(lines) + b"\n", media_type="application/x-ndjson")
