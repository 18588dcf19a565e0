"""A cluster's lobby store (:class:`RedisLobby`): challenges and seeks kept in Redis, so that
every process serves them (any process may receive a challenge, its accept, decline or
cancel, or a seek).

- A challenge is the key ``{prefix}challenge:ID`` (its JSON, expiring after
  :data:`CHALLENGE_TTL_S`), listed in the sets ``{prefix}challenges:in:ACCOUNT`` and
  ``...:out:ACCOUNT``. Accepting, declining or cancelling takes the key with ``GETDEL``: one
  caller only gets it, the others answer 404. The process that accepts creates the game (so
  games spread over the processes), its id the challenge's.
- A seek waiting is a member of the sorted set ``{prefix}seeks:KIND`` (KIND: a digest of the
  game asked for, colour aside), scored with the instant it lapses unless its process renews
  it (:data:`SEEK_TTL_MS`; a dead process's seeks pair with no one). A newcomer looks for a
  partner and either removes it or adds itself in one optimistic transaction (``WATCH``):
  a waiting seek is paired with exactly one partner, and two seeks arriving at once on two
  processes pair. The partner's process creates the game and tells the waiting one on the
  fan-out's channel ``seek:ID`` (:class:`~chessarbiter.server.streams.bus.Channels`), and in
  the key ``{prefix}paired:ID`` in case the message is lost."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import time
from typing import Any, Final

import redis.asyncio as aioredis
from redis.exceptions import WatchError

from chessarbiter.clock.records import Side
from chessarbiter.server.accounts import Account, Role
from chessarbiter.server.errors import ApiError
from chessarbiter.server.games import shapes
from chessarbiter.server.games.meta import new_id
from chessarbiter.server.limits import CHALLENGE_EXPIRY_MS
from chessarbiter.server.lobby.requests import GameRequest
from chessarbiter.server.lobby.store import Challenge, Pair, Seated
from chessarbiter.server.streams.bus import Channels
from chessarbiter.server.streams.lines import Line

CHALLENGE_TTL_S: Final = CHALLENGE_EXPIRY_MS // 1000
"""How long a challenge waits for an answer (as in one process)."""
SEEK_TTL_MS: Final = 10_000
"""How long a waiting seek lasts unless its process renews it."""
SEEK_RENEW_S: Final = 3.0
"""How often a process renews the seeks it holds open."""


def wall_ms() -> int:
    return time.time_ns() // 1_000_000


def account_to_json(account: Account) -> dict[str, Any]:
    return {"id": account.id, "name": account.name, "role": account.role.value,
            "created": account.created_ms}


def account_from_json(data: dict[str, Any]) -> Account:
    return Account(data["id"], data["name"], Role(data["role"]), data["created"])


def challenge_to_text(challenge: Challenge) -> str:
    return json.dumps({"id": challenge.id, "challenger": account_to_json(challenge.challenger),
                       "dest": account_to_json(challenge.dest),
                       "request": challenge.request.to_json(),
                       "finalColor": challenge.final_color.value})


def challenge_from_text(text: str) -> Challenge:
    data = json.loads(text)
    return Challenge(data["id"], account_from_json(data["challenger"]),
                     account_from_json(data["dest"]), GameRequest.from_json(data["request"]),
                     final_color=Side(data["finalColor"]))


class RedisLobby:
    """A :class:`~chessarbiter.server.lobby.store.LobbyStore` in the Redis at ``url``, its
    seeks told their pairing on the fan-out's channels ``bus`` (started with the hub)."""

    def __init__(self, url: str, bus: Channels, *, prefix: str = "chessarbiter:") -> None:
        self.redis: Any = aioredis.Redis.from_url(url, decode_responses=True)
        self.bus = bus
        self.prefix = prefix

    def close(self) -> None:
        """The seeks waiting here are requests: they end with their connections."""

    async def aclose(self) -> None:
        await self.redis.aclose()

    # -- challenges ----------------------------------------------------------------------

    def _key(self, challenge_id: str) -> str:
        return f"{self.prefix}challenge:{challenge_id}"

    def _index(self, way: str, account_id: str) -> str:
        return f"{self.prefix}challenges:{way}:{account_id}"

    async def keep(self, challenge: Challenge) -> None:
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(self._key(challenge.id), challenge_to_text(challenge), ex=CHALLENGE_TTL_S)
            for way, account in (("in", challenge.dest), ("out", challenge.challenger)):
                pipe.sadd(self._index(way, account.id), challenge.id)
                pipe.expire(self._index(way, account.id), CHALLENGE_TTL_S)
            await pipe.execute()

    async def find(self, challenge_id: str) -> Challenge:
        text = await self.redis.get(self._key(challenge_id))
        if text is None:
            raise ApiError(404, f"no open challenge {challenge_id[:40]!r}")
        return challenge_from_text(text)

    async def take(self, challenge: Challenge) -> None:
        if await self.redis.getdel(self._key(challenge.id)) is None:
            raise ApiError(404, f"no open challenge {challenge.id!r}")
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.srem(self._index("in", challenge.dest.id), challenge.id)
            pipe.srem(self._index("out", challenge.challenger.id), challenge.id)
            await pipe.execute()

    async def pending_for(self, account: Account) -> tuple[list[Challenge], list[Challenge]]:
        found: list[list[Challenge]] = []
        for way in ("in", "out"):
            index = self._index(way, account.id)
            ids = sorted(await self.redis.smembers(index))
            texts = await self.redis.mget([self._key(i) for i in ids]) if ids else []
            gone = [i for i, text in zip(ids, texts, strict=True) if text is None]
            if gone:  # expired
                await self.redis.srem(index, *gone)
            found.append([challenge_from_text(t) for t in texts if t is not None])
        return found[0], found[1]

    # -- seeks -----------------------------------------------------------------------------

    async def seek(self, account: Account | None, request: GameRequest, pair: Pair
                   ) -> Seated:
        seek_id = new_id()
        kind = self._seeks(request)
        mine = json.dumps({"id": seek_id, "at": wall_ms(), "request": request.to_json(),
                           "account": None if account is None else account_to_json(account)})
        queue = await self.bus.subscribe(f"seek:{seek_id}")
        try:
            partner = await self._pair_or_wait(kind, mine, account, request)
            if partner is not None:
                return await self._start(partner, account, request, pair)
            return await self._paired(kind, mine, seek_id, queue)
        finally:
            with contextlib.suppress(aioredis.RedisError):
                await asyncio.shield(self.redis.zrem(kind, mine))  # not paired: no more
            await self.bus.unsubscribe(f"seek:{seek_id}", queue)

    def _seeks(self, request: GameRequest) -> str:
        """The sorted set of the seeks that may pair with ``request`` (colour aside)."""
        kind = {**request.to_json(), "color": None, "rated": None}
        digest = hashlib.sha256(json.dumps(kind, sort_keys=True).encode()).hexdigest()[:24]
        return f"{self.prefix}seeks:{digest}"

    async def _pair_or_wait(self, kind: str, mine: str, account: Account | None,
                            request: GameRequest) -> dict[str, Any] | None:
        """The waiting seek this one pairs with (removed), or ``None`` once this one waits."""
        async with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    await pipe.watch(kind)
                    now = wall_ms()
                    waiting = [json.loads(raw) | {"raw": raw}
                               for raw in await pipe.zrangebyscore(kind, now, "+inf")]
                    partner = next((other for other in sorted(waiting, key=lambda o: o["at"])
                                    if _pairs(other, account, request)), None)
                    pipe.multi()
                    pipe.zremrangebyscore(kind, "-inf", f"({now}")  # lapsed: their process died
                    if partner is not None:
                        pipe.zrem(kind, partner["raw"])
                    else:
                        pipe.zadd(kind, {mine: now + SEEK_TTL_MS})
                        pipe.pexpire(kind, SEEK_TTL_MS)
                    await pipe.execute()
                    return partner
                except WatchError:
                    continue  # the seeks changed meanwhile: again

    async def _paired(self, kind: str, mine: str, seek_id: str, queue: asyncio.Queue[Line]
                      ) -> Seated:
        """Wait (renewing the seek) until a partner's process says which game: on the bus,
        or (a message lost) in the key ``{prefix}paired:ID`` looked at with each renewal."""
        while True:
            try:
                line = await asyncio.wait_for(queue.get(), SEEK_RENEW_S)
            except TimeoutError:
                async with self.redis.pipeline(transaction=False) as pipe:
                    pipe.zadd(kind, {mine: wall_ms() + SEEK_TTL_MS}, xx=True)
                    pipe.pexpire(kind, SEEK_TTL_MS)
                    pipe.get(self._told(seek_id))
                    told = (await pipe.execute())[-1]
                if told is None:
                    continue
                line = told.encode()
            if line is None:
                raise ApiError(503, "the server is stopping")
            if not line.strip():
                continue
            data = json.loads(line)
            if "error" in data:
                raise ApiError(503, data["error"])
            side = Side.WHITE if data["color"] == "white" else Side.BLACK
            return data["gameId"], side, data.get("secret")

    def _told(self, seek_id: str) -> str:
        return f"{self.prefix}paired:{seek_id}"

    async def _tell(self, seek_id: str, data: dict[str, Any]) -> None:
        """Tell a waiting seek's process how its pairing went."""
        text = json.dumps(data)
        await self.redis.set(self._told(seek_id), text, px=2 * SEEK_TTL_MS)
        self.bus.publish(f"seek:{seek_id}", text.encode())

    async def _start(self, partner: dict[str, Any], account: Account | None,
                     request: GameRequest, pair: Pair) -> Seated:
        """Create the game of two seeks paired here; the waiting one's process is told."""
        waiting = None if partner["account"] is None else account_from_json(partner["account"])
        try:
            paired = await pair(waiting, partner["request"]["color"], account, request)
        except BaseException as exc:  # the waiting seeker is told, not left waiting
            reason = exc.message if isinstance(exc, ApiError) else type(exc).__name__
            await asyncio.shield(self._tell(partner["id"], {"error": reason}))
            raise
        game_id, theirs, secret = paired.waiting
        told: dict[str, Any] = {"gameId": game_id, "color": shapes.side_name(theirs)}
        if secret is not None:
            told["secret"] = secret
        await self._tell(partner["id"], told)
        return paired.coming


def _pairs(other: dict[str, Any], account: Account | None, request: GameRequest) -> bool:
    """Whether a waiting seek (its JSON) pairs with ``account``'s ``request``."""
    if account is not None and other["account"] is not None and \
            other["account"]["id"] == account.id:
        return False
    return GameRequest.from_json(other["request"]).pairs_with(request)
