"""One owner per game: a lease in Redis with an expiry, renewed by its holder.

A lease is the key ``{prefix}lease:{game}`` holding ``"TOKEN ADDRESS"`` with a time to live.
Taking it is one atomic script: when the key is absent, the game's fencing counter
(``{prefix}fence:{game}``) is incremented and the key set with the new token, so every
holder of a game has a larger token than the one before. Renewing and releasing check the
token first. The holder counts its lease valid only until the instant it sent its last
successful take or renewal plus the time to live less a margin (:attr:`Lease.valid_until`,
on its own monotonic clock): Redis expires the key no earlier than that, so two processes
never hold the same game at the same instant, even when one stalls. ADDRESS tells other
processes where to forward the game's requests."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import redis

TAKE: Final = """
if redis.call('EXISTS', KEYS[1]) == 1 then return nil end
local token = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], token .. ' ' .. ARGV[1], 'PX', ARGV[2])
return token
"""
RENEW: Final = """
local held = redis.call('GET', KEYS[1])
if held and string.sub(held, 1, string.len(ARGV[1]) + 1) == ARGV[1] .. ' ' then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
RENEW_ALL: Final = """
local ttl = ARGV[#ARGV]
local renewed = {}
for i, key in ipairs(KEYS) do
  local held = redis.call('GET', key)
  renewed[i] = 0
  if held and string.sub(held, 1, string.len(ARGV[i]) + 1) == ARGV[i] .. ' ' then
    renewed[i] = redis.call('PEXPIRE', key, ttl)
  end
end
return renewed
"""
RENEW_CHUNK: Final = 500
"""Leases renewed by one call of :data:`RENEW_ALL` (each call runs alone in Redis)."""
RELEASE: Final = """
local held = redis.call('GET', KEYS[1])
if held and string.sub(held, 1, string.len(ARGV[1]) + 1) == ARGV[1] .. ' ' then
  return redis.call('DEL', KEYS[1])
end
return 0
"""
TTL_MS: Final = 3_000
"""How long a lease lasts without renewal: how soon a dead owner's games are taken over."""
MARGIN_MS: Final = 500
"""How much before Redis' expiry a holder stops counting on its lease (clock drift, a
stalled process)."""


def monotonic_ms() -> float:
    return time.monotonic_ns() / 1_000_000


@dataclass(frozen=True)
class Lease:
    """A game held: its fencing ``token`` and the instant (the holder's monotonic clock,
    ms) until which it may act as the owner."""

    game_id: str
    token: int
    valid_until: float


@dataclass(frozen=True)
class Holder:
    """Who holds a game's lease: its token and advertised address."""

    token: int
    address: str


class Leases:
    """Leases of games in the Redis at ``url``, taken in the name of ``address`` (where this
    process serves); ``ttl_ms`` and ``margin_ms`` as :data:`TTL_MS`, :data:`MARGIN_MS`."""

    def __init__(self, url: str, address: str, *, prefix: str = "chessarbiter:",
                 ttl_ms: int = TTL_MS, margin_ms: int = MARGIN_MS,
                 now: Callable[[], float] = monotonic_ms) -> None:
        if not 0 < margin_ms < ttl_ms:
            raise ValueError(f"margin_ms {margin_ms}: expected between 0 and ttl_ms {ttl_ms}")
        self.redis: redis.Redis = redis.Redis.from_url(url, decode_responses=True)
        self.address = address
        self.prefix = prefix
        self.ttl_ms = ttl_ms
        self.margin_ms = margin_ms
        self._now = now
        self._take: Any = self.redis.register_script(TAKE)
        self._renew: Any = self.redis.register_script(RENEW)
        self._renew_all: Any = self.redis.register_script(RENEW_ALL)
        self._release: Any = self.redis.register_script(RELEASE)

    def key(self, game_id: str) -> str:
        """The Redis key of the game's lease."""
        return f"{self.prefix}lease:{game_id}"

    def _keys(self, game_id: str) -> list[str]:
        return [self.key(game_id), f"{self.prefix}fence:{game_id}"]

    def take(self, game_id: str) -> Lease | None:
        """The game's lease if no one holds it, else ``None``."""
        sent = self._now()
        token = self._take(keys=self._keys(game_id), args=[self.address, self.ttl_ms])
        if token is None:
            return None
        return Lease(game_id, int(token), sent + self.ttl_ms - self.margin_ms)

    def renew(self, lease: Lease) -> Lease | None:
        """The lease extended, or ``None`` if it was lost (expired, taken by another)."""
        sent = self._now()
        if not self._renew(keys=self._keys(lease.game_id)[:1],
                           args=[lease.token, self.ttl_ms]):
            return None
        return Lease(lease.game_id, lease.token, sent + self.ttl_ms - self.margin_ms)

    def renew_all(self, leases: list[Lease]) -> list[Lease | None]:
        """:meth:`renew` for many leases in one round trip (a pipeline of one script call
        per :data:`RENEW_CHUNK` leases)."""
        sent = self._now()
        with self.redis.pipeline(transaction=False) as pipe:
            for start in range(0, len(leases), RENEW_CHUNK):
                chunk = leases[start:start + RENEW_CHUNK]
                self._renew_all(keys=[self.key(lease.game_id) for lease in chunk],
                                args=[*(lease.token for lease in chunk), self.ttl_ms],
                                client=pipe)
            answers = [answer for chunk in pipe.execute() for answer in chunk]
        return [Lease(lease.game_id, lease.token, sent + self.ttl_ms - self.margin_ms)
                if answer else None for lease, answer in zip(leases, answers, strict=True)]

    def release(self, lease: Lease) -> None:
        """Give the game up (if this lease still holds it)."""
        self._release(keys=self._keys(lease.game_id)[:1], args=[lease.token])

    def holder(self, game_id: str) -> Holder | None:
        """Who holds the game now, ``None`` if no one does."""
        held = self.redis.get(self._keys(game_id)[0])
        if held is None:
            return None
        token, _, address = str(held).partition(" ")
        return Holder(int(token), address)

    def valid(self, lease: Lease) -> bool:
        """Whether the holder may still act as the game's owner."""
        return self._now() < lease.valid_until

    def close(self) -> None:
        self.redis.close()
