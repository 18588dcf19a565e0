"""Who sends a request: a Bearer token (an account's API token, or an anonymous player's
game secret), a browser session (the session cookie, opened with an API token once), or the
game secret in the game's cookie (set by the browser pages). A state-changing request
authenticated by a cookie must come from the server's own pages (``Origin``, else
``Referer``): another site's form or script cannot act with the visitor's cookies."""

from __future__ import annotations

from typing import Final

from starlette.requests import Request

from chessarbiter.clock.records import Side
from chessarbiter.server.accounts import COOKIE_PREFIX, SESSION_COOKIE, Account, hash_secret
from chessarbiter.server.errors import ApiError
from chessarbiter.server.games.table import HubGame
from chessarbiter.server.http.services import Services

SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})


def cookie_name(game_id: str) -> str:
    return COOKIE_PREFIX + game_id


def bearer(request: Request) -> str | None:
    """The request's Bearer token, if it has one."""
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    value = value.strip()
    return value if scheme.lower() == "bearer" and value else None


def own_origin(request: Request, behind_proxy: bool) -> str:
    """The server's origin as the request reached it (``behind_proxy``: with the scheme
    the proxy forwards)."""
    scheme = request.url.scheme
    if behind_proxy:
        forwarded = request.headers.get("x-forwarded-proto", "").split(",")[0].strip()
        scheme = forwarded.lower() or scheme
    host = request.headers.get("host") or request.url.netloc
    return f"{scheme}://{host}"


def secure(request: Request, behind_proxy: bool) -> bool:
    """Whether the request came over TLS (to the server, or to the proxy before it): its
    cookies are then ``Secure``."""
    return own_origin(request, behind_proxy).startswith("https:")


def check_origin(request: Request, services: Services) -> None:
    """403 unless a state-changing request authenticated by a cookie comes from this
    server's pages: its ``Origin`` (else its ``Referer``) is the server's own."""
    if request.method in SAFE_METHODS:
        return
    own = own_origin(request, services.config.behind_proxy)
    origin = request.headers.get("origin")
    if origin is not None and origin != "null":
        if origin == own:
            return
        sender = origin
    else:
        referer = request.headers.get("referer")
        if referer is not None and (referer == own or referer.startswith(own + "/")):
            return
        sender = referer or origin or "none"
    raise ApiError(403, f"a request signed by a cookie must come from this server's pages "
                        f"({own}), not from {sender[:80]!r}; send a Bearer token instead")


def session_account(request: Request, services: Services) -> Account | None:
    """The account of the request's browser session (``None`` without one)."""
    secret = request.cookies.get(SESSION_COOKIE)
    if not secret:
        return None
    account_id = services.members.sessions.account_id(secret)
    return None if account_id is None else services.members.accounts.by_id(account_id)


def account(request: Request, services: Services) -> Account | None:
    """The account whose token the request carries, else its browser session's (``None``:
    neither, or a token that is no account's: callers answer 401)."""
    token = bearer(request)
    if token is not None:
        return services.members.accounts.by_token(token)
    found = session_account(request, services)
    if found is not None:
        check_origin(request, services)
    return found


def require_account(request: Request, services: Services) -> Account:
    found = account(request, services)
    if found is None:
        if bearer(request) is None:
            raise ApiError(401, "this request needs an account's API token (Authorization: "
                                "Bearer TOKEN) or a browser session")
        raise ApiError(401, "no such token")
    return found


def known_token(token: str | None, services: Services, entry: HubGame) -> None:
    """401 for a token that is no account's nor ``entry``'s game secret: a stream of the
    game is open to anyone without a token, never to a wrong one (docs/server.md, "Who may
    act")."""
    if token is None or services.members.accounts.by_token(token) is not None:
        return
    if entry.side_of(None, hash_secret(token)) is None:
        raise ApiError(401, f"game {entry.id}: no such token or game secret")


def require_arbiter(request: Request, services: Services) -> Account:
    found = require_account(request, services)
    if not found.is_arbiter:
        raise ApiError(403, f"{found.name} is not an arbiter")
    return found


def player_side(request: Request, services: Services, entry: HubGame) -> Side:
    """The side the request's sender plays in ``entry``: 401 without credentials or with
    credentials that are no one's here (a token that is no account's nor the game's
    secret), 403 for an account that does not play in it (or a cookie sent by another
    site's page)."""
    token = bearer(request)
    cookie = request.cookies.get(cookie_name(entry.id))
    session = session_account(request, services) if token is None else None
    if token is None and cookie is None and session is None:
        raise ApiError(401, f"game {entry.id}: acting in a game needs the player's token, "
                            "game secret or browser session")
    known = None
    if token is not None:
        known = services.members.accounts.by_token(token)
        side = entry.side_of(None if known is None else known.id, hash_secret(token))
        if side is not None:
            return side
    for found, secret in ((session, None), (None, cookie)):
        if found is None and secret is None:
            continue
        side = entry.side_of(None if found is None else found.id,
                             None if secret is None else hash_secret(secret))
        if side is not None:
            check_origin(request, services)
            return side
        known = known or found
    if known is not None:
        raise ApiError(403, f"game {entry.id}: {known.name} does not play in this game")
    raise ApiError(401, f"game {entry.id}: no such token or game secret")
