"""Who sends a request: a Bearer token (an account's API token, or an anonymous player's
game secret), or the game secret in the game's cookie (set by the browser pages)."""

from __future__ import annotations

from starlette.requests import Request

from chessarbiter.clock.records import Side
from chessarbiter.server.accounts import Account, hash_secret
from chessarbiter.server.errors import ApiError
from chessarbiter.server.hub import Hub
from chessarbiter.server.table import HubGame

COOKIE_PREFIX = "chessarbiter-"
"""The cookie ``chessarbiter-GAMEID`` holds a game's secret for the browser."""


def cookie_name(game_id: str) -> str:
    return COOKIE_PREFIX + game_id


def bearer(request: Request) -> str | None:
    """The request's Bearer token, if it has one."""
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    value = value.strip()
    return value if scheme.lower() == "bearer" and value else None


def account(request: Request, hub: Hub) -> Account | None:
    """The account whose token the request carries (``None``: no token); 401 for a token
    that is no account's and no game's (checked by the game routes)."""
    token = bearer(request)
    return None if token is None else hub.accounts.by_token(token)


def require_account(request: Request, hub: Hub) -> Account:
    found = account(request, hub)
    if found is None:
        if bearer(request) is None:
            raise ApiError(401, "this request needs an account's API token (Authorization: "
                                "Bearer TOKEN)")
        raise ApiError(401, "no such token")
    return found


def require_arbiter(request: Request, hub: Hub) -> Account:
    found = require_account(request, hub)
    if not found.is_arbiter:
        raise ApiError(403, f"{found.name} is not an arbiter")
    return found


def player_side(request: Request, hub: Hub, entry: HubGame) -> Side:
    """The side the request's sender plays in ``entry``: 401 without credentials, 403 for
    anyone else (a spectator, another game's player)."""
    token = bearer(request)
    cookie = request.cookies.get(cookie_name(entry.id))
    if token is None and cookie is None:
        raise ApiError(401, f"game {entry.id}: acting in a game needs the player's token or "
                            "game secret")
    found = hub.accounts.by_token(token) if token is not None else None
    for credential in (token, cookie):
        if credential is None:
            continue
        side = entry.side_of(found.id if found is not None else None, hash_secret(credential))
        if side is not None:
            return side
    raise ApiError(403, f"game {entry.id}: you do not play in this game")
