"""The lichess Board API: the same paths, parameters and NDJSON shapes, with Bearer tokens,
so lichess clients (e.g. ``berserk`` with its ``base_url``) play here unchanged; plus the
extensions documented in docs/server.md (claims, the full clock, the rules, the arbiter's
notes)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from typing import Any, Final
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.types import Receive, Scope, Send

from chessarbiter.arbiter.events import (
    AbandonmentClaimed,
    ClaimKind,
    DrawClaimed,
    DrawOffered,
    Event,
    FlagClaimed,
    Moved,
    OfferAccepted,
    OfferDeclined,
    Resigned,
    SuddenDeathClaimed,
    TakebackAccepted,
    TakebackDeclined,
    TakebackProposed,
    TimeGiven,
)
from chessarbiter.arbiter.scoresheet import to_pgn
from chessarbiter.clock.correspondence import deadline_ms
from chessarbiter.clock.records import Side
from chessarbiter.core.position import Position
from chessarbiter.notation.san import write_san
from chessarbiter.server.accounts import SESSION_COOKIE, Account, AccountError, hash_secret
from chessarbiter.server.errors import ApiError
from chessarbiter.server.games import chat, presence, shapes
from chessarbiter.server.games.keepalive import KEEPALIVE_S
from chessarbiter.server.games.meta import Seat
from chessarbiter.server.games.table import HubGame, ndjson
from chessarbiter.server.http import auth
from chessarbiter.server.http.asgi import (
    BODY_TYPES,
    NDJSON_TYPE,
    Raw,
    bearer,
    encode_json,
    query,
    send_body,
    until_disconnected,
)
from chessarbiter.server.http.services import Services, services_of
from chessarbiter.server.limits import client_address
from chessarbiter.server.lobby.lobby import (
    account_seat,
    anonymous_seat,
    challenge_event,
    challenge_json,
    colours,
    open_challenge_json,
)
from chessarbiter.server.lobby.requests import GameRequest, int_field, read_request, text_field
from chessarbiter.server.streams.lines import close_queue

NDJSON = "application/x-ndjson"
OK: dict[str, Any] = {"ok": True}
MOVE_LENGTH = (4, 5)


def base_url(request: Request) -> str:
    return f"{request.url.scheme}://{request.url.netloc}"


def game_url(request: Request, game_id: str, secret: str | None = None) -> str:
    """The game's page (for a player: with the game secret)."""
    return f"{base_url(request)}/{game_id}" + ("" if secret is None else f"?secret={secret}")


async def fields(request: Request) -> dict[str, Any]:
    """The request's parameters: the query string, then the body (a form or a JSON
    object), the body winning; 400 for a body that is neither."""
    found: dict[str, Any] = dict(request.query_params)
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind not in BODY_TYPES:  # refused before the body is read
        if request.headers.get("content-length", "0") == "0" and \
                "transfer-encoding" not in request.headers:
            return found
        raise ApiError(400, f"content-type {kind[:60]!r}: expected "
                            "application/x-www-form-urlencoded or application/json")
    body = await request.body()
    if not body.strip():
        return found
    if kind == "application/json":
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):
            raise ApiError(400, "the body is not JSON") from None
        if not isinstance(data, dict):
            raise ApiError(400, "the JSON body must be an object")
        found.update(data)
    else:
        try:
            found.update(parse_qsl(body.decode("utf-8"), keep_blank_values=True))
        except UnicodeDecodeError:
            raise ApiError(400, "the form body is not UTF-8") from None
    return found


CLOCK_LIMITS: Final = frozenset({0, 15, 30, 45, 60, 90, *range(120, 10_801, 60)})
"""The ``clock.limit`` values (seconds) lichess accepts."""


def game_fields(data: dict[str, Any]) -> dict[str, Any]:
    """A game's request fields; 400 for a ``clock.limit`` lichess does not take."""
    limit = str(data.get("clock.limit", "0")).strip()
    if limit.isdigit() and int(limit) not in CLOCK_LIMITS:  # other text: read_request says
        raise ApiError(400, f"clock.limit {int(limit)}: lichess' values are 0, 15, 30, 45, "
                            "60, 90 or whole minutes up to 10800 seconds (any other: "
                            "timeControl, e.g. 10s+0)")
    return data


def address(services: Services, scope: Scope) -> str | None:
    """The request's address for the per-address limits (:func:`limits.client_address`)."""
    return client_address(scope, services.config.behind_proxy)


async def creating(request: Request, services: Services, account: Account | None) -> None:
    """Count a creation by ``account`` (or anonymous) from the request's address; 429
    with ``Retry-After`` beyond the rate limits."""
    await services.limits.create(None if account is None else account.id,
                                 address(services, request.scope))


async def open_stream(services: Services, scope: Scope, account: Account | None
                      ) -> Callable[[], None]:
    """Count a stream opened by ``account`` (or anonymous) from the request's address (429
    beyond the limits); the function that counts it closed."""
    return await services.limits.open_stream(None if account is None else account.id,
                                             address(services, scope), scope)


class Held(StreamingResponse):
    """A streaming answer counted as an open stream until it ends, however it ends."""

    def __init__(self, lines: AsyncIterator[bytes], closed: Callable[[], None],
                 media_type: str = NDJSON) -> None:
        super().__init__(lines, media_type=media_type)
        self.closed = closed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.closed()


# -- account -------------------------------------------------------------------------

async def get_account(request: Request) -> Response:
    services = services_of(request)
    account = auth.require_account(request, services)
    return JSONResponse({
        **shapes.user(account), "url": f"{base_url(request)}/@/{account.name}",
        "disabled": False, "tosViolation": False,
        "roles": ["arbiter"] if account.is_arbiter else [],
    })


async def get_playing(request: Request) -> Response:
    services = services_of(request)
    account = auth.require_account(request, services)
    count = int_field(request.query_params, "nb", 1, 50) or 9
    playing = await services.loader.playing_events(account.id)
    return JSONResponse({"nowPlaying": [shapes.now_playing(g) for g in playing[:count]],
                         "nbMyTurn": sum(1 for g in playing if g["isMyTurn"])})


async def register(request: Request) -> Response:
    """Open registration (when configured): a named account and its token."""
    services = services_of(request)
    if not services.config.open_registration:
        raise ApiError(403, "registration is closed on this server")
    await creating(request, services, None)
    name = text_field(await fields(request), "username")
    if not name:
        raise ApiError(400, "username: required")
    try:
        account, token = await services.members.add(name)
    except AccountError as exc:
        raise ApiError(400, f"username: {exc}") from None
    return JSONResponse({"id": account.id, "username": account.name, "token": token})


async def open_session(request: Request) -> Response:
    """Sign a browser in: the account's API token, sent once (``Authorization: Bearer``),
    opens a session whose HttpOnly cookie the pages act by from then on (the token is
    never in a URL, nor readable by the pages' scripts)."""
    services = services_of(request)
    token = auth.bearer(request)
    found = None if token is None else services.members.accounts.by_token(token)
    if found is None:
        raise ApiError(401, "signing in needs an account's API token (Authorization: "
                            "Bearer TOKEN)" if token is None else "no such token")
    await creating(request, services, found)
    response = JSONResponse({"id": found.id, "username": found.name})
    response.set_cookie(SESSION_COOKIE, await services.members.open_session(found), path="/",
                        httponly=True, samesite="strict",
                        secure=auth.secure(request, services.config.behind_proxy))
    return response


async def close_session(request: Request) -> Response:
    """Sign the browser out: its session ends and its cookie is cleared."""
    services = services_of(request)
    secret = request.cookies.get(SESSION_COOKIE)
    if secret:
        auth.check_origin(request, services)
        await services.members.close_session(secret)
    response = JSONResponse(OK)
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="strict",
                           secure=auth.secure(request, services.config.behind_proxy))
    return response


async def event_stream(request: Request) -> Response:
    """The account's events: its unfinished games and pending challenges first, then
    ``gameStart``, ``gameFinish``, ``challenge``, ``challengeCanceled`` and
    ``challengeDeclined`` as they happen (in a cluster, from every process)."""
    services = services_of(request)
    account = auth.require_account(request, services)
    closed = await open_stream(services, request.scope, account)
    try:
        return await _event_stream(request, services, account, closed)
    except BaseException:
        closed()
        raise


async def _event_stream(request: Request, services: Services, account: Account,
                        closed: Callable[[], None]) -> Response:
    queue = await services.fanout.subscribe_user(account.id)
    playing = await services.loader.playing_events(account.id)
    first = [ndjson(shapes.game_started(game)) for game in playing]
    incoming, _ = await services.lobby.pending_for(account)
    first += [ndjson(challenge_event("challenge", c, base_url(request))) for c in incoming]

    async def lines() -> AsyncIterator[bytes]:
        try:
            for line in first:
                yield line
            while True:
                update = await queue.get()
                if update is None:
                    return
                yield update
        finally:
            await services.fanout.unsubscribe_user(account.id, queue)

    return Held(lines(), closed)


# -- challenges ------------------------------------------------------------------------

async def create_challenge(request: Request) -> Response:
    """Challenge an account; with ``acceptByToken`` (the opponent's token), the challenge
    is accepted at once and the game starts (lichess')."""
    services = services_of(request)
    account = auth.require_account(request, services)
    await creating(request, services, account)
    username = request.path_params["username"]
    data = await fields(request)
    game = read_request(game_fields(data))
    accepting = text_field(data, "acceptByToken")
    opponent = None
    if accepting:
        opponent = services.members.accounts.by_token(accepting)
        if opponent is None or opponent.name.lower() != username.lower():
            raise ApiError(400, f"acceptByToken: not the token of {username[:40]!r}")
    challenge = await services.lobby.challenge(account, username, game, base_url(request))
    if opponent is not None:
        await services.lobby.accept(challenge.id, opponent)
    return JSONResponse(challenge_json(challenge, base_url(request)))


async def list_challenges(request: Request) -> Response:
    services = services_of(request)
    account = auth.require_account(request, services)
    incoming, outgoing = await services.lobby.pending_for(account)
    url = base_url(request)
    return JSONResponse({"in": [challenge_json(c, url) for c in incoming],
                         "out": [challenge_json(c, url) for c in outgoing]})


async def accept_challenge(request: Request) -> Response:
    services = services_of(request)
    account = auth.require_account(request, services)
    await creating(request, services, account)
    await services.lobby.accept(request.path_params["challengeId"], account)
    return JSONResponse(OK)


async def decline_challenge(request: Request) -> Response:
    services = services_of(request)
    account = auth.require_account(request, services)
    reason = decline_reason(text_field(await fields(request), "reason") or "generic")
    await services.lobby.decline(request.path_params["challengeId"], account, reason,
                      base_url(request))
    return JSONResponse(OK)


def decline_reason(text: str) -> str:
    """The reason (lichess' key, any case) a challenge is declined for; 400 if none."""
    for key in shapes.DECLINE_REASONS:
        if key.lower() == text.lower():
            return key
    raise ApiError(400, f"reason {text[:40]!r}: expected one of {list(shapes.DECLINE_REASONS)}")


async def cancel_challenge(request: Request) -> Response:
    """Cancel one's open challenge; once accepted, abort its game (lichess'), which only a
    game not yet begun allows (both players not having moved)."""
    services = services_of(request)
    account = auth.require_account(request, services)
    challenge_id = request.path_params["challengeId"]
    try:
        await services.lobby.cancel(challenge_id, account, base_url(request))
    except ApiError as refused:
        if refused.status != 404 or not await services.loader.exists(challenge_id):
            raise
        entry = await services.hub.get(challenge_id)
        side = entry.side_of(account.id, None)
        if side is None:
            raise
        await services.hub.abort(entry, side)
    return JSONResponse(OK)


async def berserk(request: Request) -> Response:
    """lichess' berserk (half one's clock for an arena point): 400, this server runs no
    arena tournaments."""
    await _player(request)
    raise ApiError(400, "berserk is for lichess' arena tournaments, which this server does "
                        "not run")


async def open_challenge(request: Request) -> Response:
    """An open challenge (anyone, even without a token): the game is made at once, with a
    link and a game secret for each side."""
    services = services_of(request)
    account = auth.account(request, services)
    if account is None and auth.bearer(request) is not None:
        raise ApiError(401, "no such token")
    await creating(request, services, account)
    game_request = read_request(game_fields(await fields(request)))
    seats: dict[Side, Seat] = {}
    secrets: dict[Side, str] = {}
    for side in (Side.WHITE, Side.BLACK):
        seats[side], secrets[side] = anonymous_seat()
    game = game_request.game("Anonymous", "Anonymous")
    entry = await services.hub.create_game(game, seats[Side.WHITE], seats[Side.BLACK],
                                           source="open", rated=False,
                                           creator=None if account is None else account.id)
    urls: dict[Side | None, str] = {side: game_url(request, entry.id, secrets[side])
                                    for side in (Side.WHITE, Side.BLACK)}
    urls[None] = game_url(request, entry.id)
    return JSONResponse(open_challenge_json(entry.id, game_request, urls, secrets))


async def challenge_ai(request: Request) -> Response:
    """A game against the built-in engine at ``level`` (1-10) or a configured engine
    (``engine``, by name); anonymous players get the game secret."""
    services = services_of(request)
    account = auth.account(request, services)
    if account is None and auth.bearer(request) is not None:
        raise ApiError(401, "no such token")
    await creating(request, services, account)
    data = await fields(request)
    game_request = read_request(game_fields(data))
    engine_name = text_field(data, "engine")
    level = int_field(data, "level", 1, 10)
    if engine_name:
        if engine_name not in services.config.engines:
            raise ApiError(400, f"engine: {engine_name[:40]!r} is not one of "
                                f"{sorted(services.config.engines)}")
        engine = Seat(engine_name, engine=engine_name)
    else:
        level = level or 3
        engine = Seat(f"chessarbiter level {level}", engine=f"engine:{level}", level=level)
    mine, theirs = colours(game_request.color)
    secret = None
    if account is None:
        human, secret = anonymous_seat()
    else:
        human = account_seat(account)
    seats = {mine: human, theirs: engine}
    game = game_request.game(seats[Side.WHITE].name, seats[Side.BLACK].name)
    entry = await services.hub.create_game(game, seats[Side.WHITE], seats[Side.BLACK],
                                           source="ai",
                                           creator=None if account is None else account.id)
    return JSONResponse(shapes.ai_game(game, entry.meta, len(entry.moves), mine, secret,
                                       game_url(request, entry.id, secret)), status_code=201)


async def seek(request: Request) -> Response:
    """Seek an opponent: the connection stays open until paired (as lichess), then a line
    with the game (``gameId``, ``color``, and for an anonymous seeker ``secret`` and
    ``url``) and the end of the response. A seek by an account also gets ``gameStart`` on
    its event stream."""
    services = services_of(request)
    account = auth.account(request, services)
    if account is None and auth.bearer(request) is not None:
        raise ApiError(401, "no such token")
    await creating(request, services, account)
    game_request = read_request(game_fields(await fields(request)), minutes=True)
    if deadline_ms(game_request.control) is not None:  # days per move
        return correspondence_seek(services, account, game_request)
    closed = await open_stream(services, request.scope, account)

    async def lines() -> AsyncIterator[bytes]:
        yield b"\n"
        pairing = asyncio.ensure_future(services.lobby.seek(account, game_request))
        try:
            while not (await asyncio.wait({pairing}, timeout=KEEPALIVE_S))[0]:
                yield b"\n"  # lichess' keep-alive line while the seek waits
            game_id, side, secret = pairing.result()
        finally:
            pairing.cancel()  # the seeker went away: the seek is withdrawn
        found: dict[str, Any] = {"gameId": game_id, "color": shapes.side_name(side)}
        if secret is not None:
            found |= {"secret": secret, "url": game_url(request, game_id, secret)}
        yield ndjson(found)

    return Held(lines(), closed)


def correspondence_seek(services: Services, account: Account | None,
                        game_request: GameRequest) -> Response:
    """A correspondence seek (``days``), as lichess answers it: at once, with the seek's id;
    the game comes on the event stream. 401 without an account (no stream to tell)."""
    if account is None:
        raise ApiError(401, "a correspondence seek needs an account: its game is announced "
                            "on the account's event stream")
    return JSONResponse({"id": services.lobby.post_seek(account, game_request)})


# -- games -----------------------------------------------------------------------------

def _player_side(services: Services, scope: Scope, receive: Receive, entry: HubGame
                 ) -> Side | None:
    """The side of a game stream's holder; ``None`` for a spectator (no player's
    credentials) or once the game is over."""
    if entry.over:
        return None
    with contextlib.suppress(ApiError):  # not a player: a spectator
        return auth.player_side(Request(scope, receive), services, entry)
    return None


async def _game_stream(services: Services, scope: Scope, receive: Receive, send: Send) -> None:
    """``gameFull`` (with the players' ``presence``), then a ``gameState`` line after every
    event (and empty keep-alive lines); to a player (by token, game secret or browser
    session), ``opponentGone`` lines (:mod:`presence`). The stream ends after the game
    does, or when the client goes away. Anyone may watch."""
    entry = await services.hub.get(scope["path_params"]["gameId"])
    token = bearer(scope)
    auth.known_token(token, services, entry)
    closed = await services.limits.open_stream(
        None if token is None else _account_id(services, token), address(services, scope),
        scope)
    queue = entry.subscribe()
    side = presence.arrive(services.presence, entry,
                           _player_side(services, scope, receive, entry), queue)
    try:
        first = ndjson(presence.full(services.presence, entry))
        over = entry.over
        await send({"type": "http.response.start", "status": 200, "headers": [NDJSON_TYPE]})
        await send({"type": "http.response.body", "body": first, "more_body": not over})
        if over:
            return
        gone = asyncio.ensure_future(until_disconnected(receive))
        gone.add_done_callback(lambda _: close_queue(queue))
        try:
            while (line := await queue.get()) is not None:
                await send({"type": "http.response.body", "body": line, "more_body": True})
        finally:
            gone.cancel()
        await send({"type": "http.response.body", "body": b""})
    finally:
        entry.unsubscribe(queue)
        presence.leave(services.presence, entry, side, queue)
        closed()


def token_side(services: Services, entry: HubGame, token: str | None) -> Side | None:
    """The side the holder of ``token`` plays (an account's token or the game secret)."""
    if token is None:
        return None
    known = entry.secrets.get(token)
    if known is not None:
        return known
    account = services.members.accounts.by_token(token)
    return entry.side_of(None if account is None else account.id, hash_secret(token))


def _account_id(services: Services, token: str) -> str | None:
    found = services.members.accounts.by_token(token)
    return None if found is None else found.id


game_stream = Raw(_game_stream)


async def game_json(request: Request) -> Response:
    """The extension ``GET /api/game/{gameId}``: the ``gameFull`` object now, with the legal
    moves in UCI (``legalMoves``), the moves played in SAN (``san``) and the side of the
    requester (``you``) if a player (a cluster's process relaying the game's stream asks
    for its first line here)."""
    services = services_of(request)
    entry = await services.hub.get(request.path_params["gameId"])
    data = entry.full()
    data["legalMoves"] = entry.game.legal_moves() if not entry.over else []
    data["san"] = san_moves(entry)
    data["you"] = None
    with contextlib.suppress(ApiError):  # not a player: a spectator
        data["you"] = shapes.side_name(auth.player_side(request, services, entry))
    return JSONResponse(data)


def san_moves(entry: HubGame) -> list[str]:
    """The game's moves in SAN (English letters), from its start position."""
    game = entry.game
    pos = Position(game.start_fen, chess960=game.setup.chess960)
    found = []
    for record in game.records:
        found.append(write_san(pos, record.move))
        pos.push(record.move)
    return found


async def _player(request: Request) -> tuple[Services, HubGame, Side]:
    services = services_of(request)
    entry = await services.hub.get(request.path_params["gameId"])
    return services, entry, auth.player_side(request, services, entry)


async def _act(request: Request, make: Callable[[Side, HubGame], Callable[[int], Event]]
               ) -> Response:
    arrived = services_of(request).config.now_ms()  # stamped on arrival, whatever it waits for
    services, entry, side = await _player(request)
    decisions = await services.hub.act(entry, side, make(side, entry), arrived)
    return JSONResponse({"ok": True, "notes": shapes.notes(decisions)})


async def _move(services: Services, scope: Scope, receive: Receive, send: Send) -> None:
    """Play a move (UCI), optionally offering a draw (``?offeringDraw=true``; with the
    opponent's offer pending, it agrees to the draw instead)."""
    arrived = services.config.now_ms()  # stamped on arrival, whatever it waits for
    params = scope["path_params"]
    text = params["move"]
    if not (len(text) in MOVE_LENGTH and text.isascii() and text.isalnum()):
        raise ApiError(400, f"move {text[:20]!r}: expected a move in UCI (e2e4, e7e8q)")
    offering = query(scope).get("offeringDraw", "false").lower()
    if offering not in ("true", "false"):
        raise ApiError(400, f"offeringDraw: expected true or false, not {offering[:20]!r}")
    uci, offer = text.lower(), offering == "true"
    entry = await services.hub.get(params["gameId"])
    side = _seat(services, scope, receive, entry)
    decisions = None
    if offer and entry.game.pending_offer is side.opponent:
        # lichess' "offer or agree to a draw": the player agrees, and the game is drawn
        # before the move (which would have declined it: F23 9.1.2.1, S9.1; Art. 5.2.3);
        # where the arbiter allows no agreement yet (5.2.3), the move is played, offering
        try:
            decisions = await services.hub.act(entry, side, lambda at: OfferAccepted(at, side),
                                       arrived)
        except ApiError as refused:
            if refused.status != 400:
                raise
    if decisions is None:
        decisions = await services.hub.act(entry, side, lambda at: Moved(at, side, uci, offer),
                                  arrived)
    await send_body(send, NO_NOTES if not decisions else encode_json(
        {"ok": True, "notes": shapes.notes(decisions)}))


move = Raw(_move)

NO_NOTES = encode_json({"ok": True, "notes": []})


def _seat(services: Services, scope: Scope, receive: Receive, entry: HubGame) -> Side:
    """The side the sender plays (:func:`auth.player_side`); a Bearer token that is the
    game's secret is remembered by the game, so that it is hashed once, not every move."""
    token = bearer(scope)
    if token is not None:
        known = entry.secrets.get(token)
        if known is not None:
            return known
    side = auth.player_side(Request(scope, receive), services, entry)
    if token is not None and entry.meta.seat(side).secret_hash == hash_secret(token):
        entry.secrets[token] = side
    return side


async def draw(request: Request) -> Response:
    """``yes``: offer a draw, or accept the opponent's offer; ``no``: decline it."""
    answer = request.path_params["accept"].lower()
    if answer not in ("yes", "true", "no", "false"):
        raise ApiError(400, f"draw/{answer[:20]}: expected yes or no")

    def make(side: Side, entry: HubGame) -> Callable[[int], Event]:
        offered = entry.game.pending_offer is side.opponent
        if answer in ("yes", "true"):
            return (lambda at: OfferAccepted(at, side)) if offered else (
                lambda at: DrawOffered(at, side))
        if not offered:
            raise ApiError(400, f"game {entry.id}: there is no draw offer to decline")
        return lambda at: OfferDeclined(at, side)

    return await _act(request, make)


async def resign(request: Request) -> Response:
    return await _act(request, lambda side, entry: lambda at: Resigned(at, side))


async def abort(request: Request) -> Response:
    services, entry, side = await _player(request)
    await services.hub.abort(entry, side)
    return JSONResponse(OK)


CLAIMS = {"threefold": ClaimKind.THREEFOLD, "fifty": ClaimKind.FIFTY_MOVES,
          "fifty-moves": ClaimKind.FIFTY_MOVES}


async def claim(request: Request) -> Response:
    """The extension: claim a draw by repetition or the 50-move rule (Art. 9.2, 9.3),
    optionally on the intended move (``?move=UCI``, not played: the arbiter plays it if the
    claim is right); ``sudden-death`` (S10.2, F23 III.5); ``flag`` (Art. 6.8)."""
    kind = request.path_params["kind"]
    intended = request.query_params.get("move")
    if intended is not None and not (len(intended) in MOVE_LENGTH and intended.isascii()
                                     and intended.isalnum()):
        raise ApiError(400, f"move {intended[:20]!r}: expected a move in UCI")
    if kind in CLAIMS:
        which = CLAIMS[kind]
        return await _act(request, lambda side, entry: lambda at: DrawClaimed(
            at, side, which, None if intended is None else intended.lower()))
    if intended is not None:
        raise ApiError(400, f"claim/{kind}: takes no move")
    if kind == "sudden-death":
        return await _act(request, lambda side, entry: lambda at: SuddenDeathClaimed(at, side))
    if kind == "flag":
        return await _act(request, lambda side, entry: lambda at: FlagClaimed(at, side))
    raise ApiError(400, f"claim/{kind[:20]}: expected threefold, fifty, sudden-death or flag")


async def takeback(request: Request) -> Response:
    """``yes``: propose a takeback, or accept the opponent's; ``no``: decline it (or
    withdraw one's own). Where the game's profile allows it (online practice); refused
    with the article otherwise (the arbiter's ruling, :mod:`chessarbiter.arbiter.online`)."""
    answer = request.path_params["accept"].lower()
    if answer not in ("yes", "true", "no", "false"):
        raise ApiError(400, f"takeback/{answer[:20]}: expected yes or no")

    services, entry, side = await _player(request)
    if answer in ("no", "false"):
        decisions = await services.hub.act(entry, side, lambda at: TakebackDeclined(at, side))
    elif entry.game.pending_takeback is side.opponent:
        decisions = await services.hub.act(entry, side, lambda at: TakebackAccepted(at, side))
    else:
        decisions = await services.hub.act(entry, side, lambda at: TakebackProposed(at, side))
        engine = side.opponent
        if entry.meta.seat(engine).engine is not None and \
                entry.game.pending_takeback is side:  # an engine agrees, as lichess' AI
            decisions += await services.hub.act(entry, engine,
                                                lambda at: TakebackAccepted(at, engine))
    return JSONResponse({"ok": True, "notes": shapes.notes(decisions)})


async def claim_victory(request: Request) -> Response:
    """Claim the game, the opponent gone for the profile's ``abandonment_ms``
    (:mod:`presence`); refused with the article where the profile has no such claim."""
    return await _claim_abandoned(request, draw=False)


async def claim_draw(request: Request) -> Response:
    """Claim a draw, the opponent gone as for :func:`claim_victory`."""
    return await _claim_abandoned(request, draw=True)


async def _claim_abandoned(request: Request, draw: bool) -> Response:
    at_board = services_of(request).presence
    return await _act(request, lambda side, entry: lambda at: AbandonmentClaimed(
        at, side, at_board.absent_ms(entry.id, side.opponent), draw))


ADD_TIME_S: Final = (5, 60)
"""The seconds one ``add-time`` may give (lichess' bounds)."""


async def add_time(request: Request) -> Response:
    """``POST /api/round/{gameId}/add-time/{seconds}``: give the opponent time, where the
    game's profile allows it (online practice); refused with the article otherwise."""
    text = request.path_params["seconds"]
    low, high = ADD_TIME_S
    if not (text.isascii() and text.isdigit() and low <= int(text) <= high):
        raise ApiError(400, f"seconds {text[:20]!r}: expected a whole number from {low} "
                            f"to {high}")
    seconds = int(text)
    return await _act(request, lambda side, entry: lambda at: TimeGiven(
        at, side, seconds * 1000))


async def export(request: Request) -> Response:
    """The game's scoresheet as PGN (``Accept: application/json``: lichess' game JSON)."""
    services = services_of(request)
    entry = await services.hub.get(request.path_params["gameId"])
    game = entry.game
    pgn = to_pgn(game)
    if "application/json" in request.headers.get("accept", ""):
        data = shapes.exported(game, entry.meta, entry.moves, pgn)
        rooms: tuple[str, ...] = ("spectator",)  # and the players' room to its players
        with contextlib.suppress(ApiError):
            auth.player_side(request, services, entry)
            rooms = ("player", "spectator")
        data["chat"] = await chat.exported(services, entry, rooms)
        return JSONResponse(data)
    return PlainTextResponse(pgn, media_type="application/x-chess-pgn")
