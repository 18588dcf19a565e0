"""Challenges and seeks: a direct challenge waits for its opponent's accept or decline, or
its challenger's cancel, until it expires
(:data:`~chessarbiter.server.limits.CHALLENGE_EXPIRY_MS`); a seek waits, its connection
open, until another seek for the same game pairs with it (a correspondence seek without a
connection: :meth:`Lobby.post_seek`). They are kept in the lobby's store
(:mod:`~chessarbiter.server.lobby.store`): in memory, or in Redis for a cluster."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from chessarbiter.arbiter.game import Game
from chessarbiter.clock.records import Side
from chessarbiter.core.position import STARTING_FEN
from chessarbiter.server.accounts import Account, hash_secret, new_secret
from chessarbiter.server.errors import ApiError
from chessarbiter.server.games import correspondence, shapes
from chessarbiter.server.games.meta import Seat, new_id
from chessarbiter.server.games.table import HubGame
from chessarbiter.server.lobby.requests import GameRequest
from chessarbiter.server.lobby.store import Challenge, LobbyStore, Paired, Seated
from chessarbiter.server.members import Members

log = logging.getLogger(__name__)

CLOSED_KEPT = 1000
"""Closed challenges kept to be shown (the last ones)."""


class LobbyHost(Protocol):
    """What the lobby needs of the game room (the hub): making a game, telling an account's
    event streams, and being told when the room closes."""

    @property
    def closing_hooks(self) -> list[Callable[[], None]]: ...

    @property
    def closed_hooks(self) -> list[Callable[[], Awaitable[None]]]: ...

    async def create_game(self, game: Game, white: Seat, black: Seat, *, source: str,
                          creator: str | None = None, rated: bool = False,
                          game_id: str | None = None, start_clocks: bool = True
                          ) -> HubGame: ...

    def notify(self, account: str | None, data: dict[str, Any]) -> None: ...


def challenge_json(challenge: Challenge, base_url: str) -> dict[str, Any]:
    """A challenge as lichess writes it (``ChallengeJson``, ``ChallengeDeclinedJson``), with
    ``profile`` and ``control`` (the full clock) as extensions."""
    request = challenge.request
    declined = {"declineReason": shapes.DECLINE_REASONS[challenge.decline_reason],
                "declineReasonKey": challenge.decline_reason.lower()
                } if challenge.decline_reason else {}
    return {
        "id": challenge.id,
        "url": f"{base_url}/{challenge.id}",
        "status": challenge.status,
        "challenger": shapes.challenge_user(challenge.challenger),
        "destUser": shapes.challenge_user(challenge.dest),
        **request_json(request),
        "finalColor": shapes.side_name(challenge.final_color),
        **declined,
    }


def challenge_event(kind: str, challenge: Challenge, base_url: str) -> dict[str, Any]:
    """An event stream's line about a challenge: ``challenge``, ``challengeDeclined`` or
    ``challengeCanceled``."""
    return {"type": kind, "challenge": challenge_json(challenge, base_url)}


def open_challenge_json(game_id: str, request: GameRequest, urls: dict[Side | None, str],
                        secrets: dict[Side, str]) -> dict[str, Any]:
    """The answer to ``POST /api/challenge/open`` as lichess writes it: the game made at
    once, its address for spectators (``urls[None]``) and each player's (``urlWhite``,
    ``urlBlack``, with the game secrets, also given apart)."""
    return {
        "id": game_id, "url": urls[None], "status": "created", "challenger": None,
        "destUser": None, **request_json(request), "open": {},
        "urlWhite": urls[Side.WHITE], "urlBlack": urls[Side.BLACK],
        "secretWhite": secrets[Side.WHITE], "secretBlack": secrets[Side.BLACK],
    }


def request_json(request: GameRequest) -> dict[str, Any]:
    """The game fields of a challenge: variant, clock, speed, colour, profile."""
    control = request.control
    clock = shapes.clock(control)
    time_control = correspondence.time_control(control)
    if time_control is None and clock is None:
        time_control = {"type": "unlimited"}
    elif time_control is None and clock is not None:
        limit, inc = clock["initial"] // 1000, clock["increment"] // 1000
        time_control = {"type": "clock", "limit": limit, "increment": inc,
                        "show": f"{limit // 60 if limit % 60 == 0 else limit / 60}+{inc}"}
    key = "chess960" if request.chess960 else (
        "standard" if request.fen == STARTING_FEN else "fromPosition")
    return {
        "variant": shapes.VARIANTS[key],
        "rated": request.rated,
        "speed": shapes.speed(control),
        "timeControl": time_control,
        "color": request.color,
        "perf": shapes.perf(control),
        "initialFen": request.fen,
        "profile": request.profile.name,
        "control": shapes.time_control(control),
    }


def colours(color: str) -> tuple[Side, Side]:
    """The sides of the one who chose ``color`` and of the other."""
    if color == "random":
        side = Side.WHITE if secrets.randbelow(2) == 0 else Side.BLACK
    else:
        side = Side.WHITE if color == "white" else Side.BLACK
    return side, side.opponent


def account_seat(account: Account) -> Seat:
    return Seat(account.name, account=account.id)


def anonymous_seat() -> tuple[Seat, str]:
    """A seat for an anonymous player and the game secret that acts for it."""
    secret = new_secret()
    return Seat(secret_hash=hash_secret(secret)), secret


Seating = tuple[dict[Side, Seat], dict[Side, str | None], Side, Side]
"""A pairing's seats, the anonymous players' game secrets, and the sides of the seeker who
waited and of the one who came."""


def seating(waiting: Account | None, waiting_color: str, account: Account | None,
            request: GameRequest) -> Seating:
    """Seat two seeks that pair: the waiting one's colour wins, else the newcomer's."""
    color = waiting_color if waiting_color != "random" else (
        {"white": "black", "black": "white"}.get(request.color, "random"))
    theirs, mine = colours(color)
    seats: dict[Side, Seat] = {}
    secrets_: dict[Side, str | None] = {}
    for side, who in ((theirs, waiting), (mine, account)):
        if who is None:
            seats[side], secrets_[side] = anonymous_seat()
        else:
            seats[side], secrets_[side] = account_seat(who), None
    return seats, secrets_, theirs, mine


class Lobby:
    """The challenges and seeks of ``hub`` (the game room) between ``members``' accounts,
    kept in ``store`` (in memory, or in Redis for a cluster), on the server's time source
    ``now_ms``; it closes with the room."""

    def __init__(self, hub: LobbyHost, members: Members, now_ms: Callable[[], int],
                 store: LobbyStore) -> None:
        self.hub = hub
        self.members = members
        self.now_ms = now_ms
        self.store = store
        hub.closing_hooks.append(self.close)
        hub.closed_hooks.append(store.aclose)
        self.closed: dict[str, Challenge] = {}
        """The challenges last accepted, declined or canceled here (lichess shows them)."""
        self.posted: dict[str, asyncio.Future[Seated]] = {}
        """The correspondence seeks waiting (:meth:`post_seek`), by id."""

    # -- direct challenges ---------------------------------------------------------------

    async def challenge(self, challenger: Account, dest_name: str, request: GameRequest,
                        base_url: str) -> Challenge:
        """Challenge the account ``dest_name``; both are told on their event streams."""
        dest = await self.members.named(dest_name)
        if dest is None:
            raise ApiError(404, f"no account named {dest_name[:40]!r}")
        if dest.id == challenger.id:
            raise ApiError(400, "you cannot challenge yourself")
        challenge = Challenge(new_id(), challenger, dest, request,
                              created_ms=self.now_ms(),
                              final_color=colours(request.color)[0])
        await self.store.keep(challenge)
        data = challenge_event("challenge", challenge, base_url)
        self.hub.notify(dest.id, data)
        self.hub.notify(challenger.id, data)
        return challenge

    async def accept(self, challenge_id: str, account: Account) -> HubGame:
        """The challenged player accepts: the game starts (its id is the challenge's)."""
        challenge = await self.store.find(challenge_id)
        if account.id != challenge.dest.id:
            raise ApiError(403, f"challenge {challenge_id}: only {challenge.dest.name} may "
                                "accept it")
        await self.store.take(challenge)
        request = challenge.request
        mine = challenge.final_color
        seats = {mine: account_seat(challenge.challenger), mine.opponent: account_seat(account)}
        game = request.game(seats[Side.WHITE].name, seats[Side.BLACK].name)
        try:
            entry = await self.hub.create_game(
                game, seats[Side.WHITE], seats[Side.BLACK], source="friend",
                creator=challenge.challenger.id, rated=request.rated, game_id=challenge.id)
        except BaseException:
            await asyncio.shield(self.store.keep(challenge))  # open again
            raise
        self._closed(challenge, "accepted")
        return entry

    def _closed(self, challenge: Challenge, status: str) -> None:
        challenge.status = status
        self.closed[challenge.id] = challenge
        while len(self.closed) > CLOSED_KEPT:
            del self.closed[next(iter(self.closed))]

    async def show(self, challenge_id: str) -> Challenge:
        """The challenge ``challenge_id``, open or among the last closed; 404 if none."""
        closed = self.closed.get(challenge_id)
        return closed if closed is not None else await self.store.find(challenge_id)

    async def decline(self, challenge_id: str, account: Account, reason: str, base_url: str
                      ) -> None:
        challenge = await self.store.find(challenge_id)
        if account.id != challenge.dest.id:
            raise ApiError(403, f"challenge {challenge_id}: only {challenge.dest.name} may "
                                "decline it")
        await self.store.take(challenge)
        challenge.decline_reason = reason
        self._closed(challenge, "declined")
        self.hub.notify(challenge.challenger.id,
                        challenge_event("challengeDeclined", challenge, base_url))

    async def cancel(self, challenge_id: str, account: Account, base_url: str) -> None:
        challenge = await self.store.find(challenge_id)
        if account.id != challenge.challenger.id:
            raise ApiError(403, f"challenge {challenge_id}: only {challenge.challenger.name} "
                                "may cancel it")
        await self.store.take(challenge)
        self._closed(challenge, "canceled")
        self.hub.notify(challenge.dest.id,
                        challenge_event("challengeCanceled", challenge, base_url))

    async def pending_for(self, account: Account) -> tuple[list[Challenge], list[Challenge]]:
        """The open challenges to and from ``account``."""
        return await self.store.pending_for(account)

    # -- seeks -------------------------------------------------------------------------

    async def seek(self, account: Account | None, request: GameRequest) -> Seated:
        """Wait for an opponent: the game's id, the seeker's side and (anonymous) the game
        secret. Cancelled when the seeker goes away."""
        return await self.store.seek(account, request, self._pair)

    async def _pair(self, waiting: Account | None, waiting_color: str,
                    account: Account | None, request: GameRequest) -> Paired:
        """Create the game of two seeks that pair (:func:`seating`)."""
        seats, secrets_, theirs, mine = seating(waiting, waiting_color, account, request)
        game = request.game(seats[Side.WHITE].name, seats[Side.BLACK].name)
        entry = await self.hub.create_game(game, seats[Side.WHITE], seats[Side.BLACK],
                                           source="lobby", rated=request.rated)
        return Paired((entry.id, theirs, secrets_[theirs]), (entry.id, mine, secrets_[mine]))

    def post_seek(self, account: Account, request: GameRequest) -> str:
        """A correspondence seek, lichess' way: answered at once with its id, it stays
        until a seek for the same game joins it (it joins a waiting one at once); the game
        is announced by ``gameStart`` on both players' event streams."""
        seek_id = new_id()
        pairing = asyncio.ensure_future(self.seek(account, request))
        self.posted[seek_id] = pairing

        def done(future: asyncio.Future[Seated]) -> None:
            self.posted.pop(seek_id, None)
            if not future.cancelled() and future.exception() is not None:
                log.error("correspondence seek %s: %s", seek_id, future.exception())

        pairing.add_done_callback(done)
        return seek_id

    def close(self) -> None:
        for pairing in tuple(self.posted.values()):
            pairing.cancel()
        self.store.close()
