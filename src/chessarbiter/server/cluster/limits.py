"""The limits of a cluster, counted in the Redis its processes share
(:class:`RedisCounts`): a client may create and hold open across the cluster what it may on
one process, whichever process it reaches.

A rate is a token bucket per key (``{prefix}limits:bucket:KEY``: its tokens and when they
were counted, on the calendar, which the processes share), taken by one script, so that two
processes never both take the last token; the key expires once the bucket is full again.
Streams are counted per process: each process's open streams are a hash
(``{prefix}limits:streams:PROCESS``, the count by key) that the process keeps alive
(:data:`STREAMS_TTL_MS`, renewed every third of it), so the streams of a process that died
are counted no more once its hash has expired; a stream opens by one script that adds up the
hashes of the processes alive (those in ``{prefix}limits:processes``) and counts it in its
own. A stream one process passes on to the game's owner (:mod:`.cluster`) is counted where
the client holds it: the owner is told so by :data:`PASSED_ON`, which carries a secret of
the cluster's (in Redis) that no client knows. When Redis does not answer, the process
counts alone (as one process does) until it answers again."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, MutableMapping, Sequence
from typing import Any, Final

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from chessarbiter.server.limits import InMemory, Rate, Release, count, once, released

log = logging.getLogger(__name__)

TAKE: Final = """
local now = tonumber(ARGV[1])
local wait = 0
local left = {}
for i, key in ipairs(KEYS) do
  local most, per = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  local held = redis.call('HMGET', key, 'tokens', 'at')
  local tokens = tonumber(held[1]) or most
  local at = tonumber(held[2]) or now
  tokens = math.min(most, tokens + math.max(0, now - at) * most / per)
  left[i] = tokens
  if tokens < 1 then wait = math.max(wait, math.ceil((1 - tokens) * per / most)) end
end
if wait > 0 then return wait end
for i, key in ipairs(KEYS) do
  redis.call('HSET', key, 'tokens', left[i] - 1, 'at', now)
  redis.call('PEXPIRE', key, ARGV[2 * i + 1])
end
return 0
"""
"""KEYS: the buckets; ARGV: now (ms), then each bucket's count and period (ms): 0 (an
action counted in each), or the longest wait in ms (nothing counted)."""
HOLD: Final = """
local processes, mine, ttl = KEYS[1], KEYS[2], ARGV[3]
local alive = {}
for _, process in ipairs(redis.call('SMEMBERS', processes)) do
  if redis.call('EXISTS', ARGV[2] .. process) == 1 then
    alive[#alive + 1] = ARGV[2] .. process
  else
    redis.call('SREM', processes, process)
  end
end
for i = 4, #ARGV, 2 do
  local held = 0
  for _, key in ipairs(alive) do
    held = held + (tonumber(redis.call('HGET', key, ARGV[i])) or 0)
  end
  if held >= tonumber(ARGV[i + 1]) then return ARGV[i] end
end
for i = 4, #ARGV, 2 do redis.call('HINCRBY', mine, ARGV[i], 1) end
redis.call('PEXPIRE', mine, ttl)
redis.call('SADD', processes, ARGV[1])
return false
"""
"""KEYS: the processes' set, this process's hash; ARGV: this process, the hashes' prefix, the
hash's time to live (ms), then each key and its most: nil (counted), or the key at its most
(nothing counted)."""
RELEASE: Final = """
for _, key in ipairs(ARGV) do
  if redis.call('HINCRBY', KEYS[1], key, -1) <= 0 then redis.call('HDEL', KEYS[1], key) end
end
"""
"""KEYS: this process's hash; ARGV: the keys of a stream closed."""
STREAMS_TTL_MS: Final = 30_000
"""How long the streams of a process that stopped renewing its hash still count."""
PASSED_ON: Final = "x-chessarbiter-counted"
"""Sent with a stream a process passes on to the game's owner: the cluster's secret, the
stream being counted by the process the client holds it at."""


class RedisCounts:
    """The counts of a cluster in the Redis at ``url``, in the name of ``process`` (unique
    among the processes alive), rates on the calendar ``now_ms``. Started and stopped with
    the process's part of the cluster."""

    def __init__(self, url: str, process: str, now_ms: Callable[[], int], *,
                 prefix: str = "chessarbiter:limits:") -> None:
        self.process = f"{process}/{secrets.token_hex(4)}"  # a restart is another process
        self.now_ms = now_ms
        self.prefix = prefix
        self.mine = f"{prefix}streams:{self.process}"
        self.secret = ""
        """The cluster's secret (:data:`PASSED_ON`), read at the start."""
        self.alone = InMemory(now_ms)
        """The counts while Redis does not answer."""
        self.held: dict[str, int] = {}
        """This process's streams counted in Redis, by key (to count them again should its
        hash have expired: a process stalled longer than its time to live)."""
        self._redis: aioredis.Redis = aioredis.Redis.from_url(url, socket_timeout=2.0)
        self._take: Any = self._redis.register_script(TAKE)
        self._hold: Any = self._redis.register_script(HOLD)
        self._release: Any = self._redis.register_script(RELEASE)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._failing = False
        self._stopped = False

    async def start(self) -> None:
        """Read the cluster's secret (made by the first process) and keep the streams'
        hash alive."""
        await self._redis.set(f"{self.prefix}secret", secrets.token_hex(16), nx=True)
        secret: Any = await self._redis.get(f"{self.prefix}secret")
        self.secret = secret.decode()
        self._keep(self._renewing())

    async def stop(self) -> None:
        """Count this process's streams no more (they end with it) and disconnect."""
        self._stopped = True
        for task in tuple(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        with contextlib.suppress(RedisError):
            await self._redis.delete(self.mine)
        await self._redis.aclose()

    def passed_on(self) -> tuple[str, str]:
        """The header telling the game's owner that a stream passed on is counted here."""
        return PASSED_ON, self.secret

    async def take(self, buckets: Sequence[tuple[str, Rate]]) -> int:
        if not buckets:
            return 0
        args: list[Any] = [self.now_ms()]
        for _, rate in buckets:
            args += [rate.count, rate.per_ms]
        try:
            wait = await self._take(keys=[f"{self.prefix}bucket:{key}" for key, _ in buckets],
                                    args=args)
        except RedisError as exc:
            self._failed(exc)
            return await self.alone.take(buckets)
        self._answered()
        return int(wait)

    async def hold(self, streams: Sequence[tuple[str, int]], scope: MutableMapping[str, Any]
                   ) -> Release | str:
        if not streams or (self.secret and any(
                key == PASSED_ON.encode() and secrets.compare_digest(value, self.secret.encode())
                for key, value in scope["headers"])):  # compared in constant time
            return released  # not limited, or counted by the process passing it on
        args: list[Any] = [self.process, f"{self.prefix}streams:", STREAMS_TTL_MS]
        for key, most in streams:
            args += [key, most]
        try:
            over = await self._hold(keys=[f"{self.prefix}processes", self.mine], args=args)
        except RedisError as exc:
            self._failed(exc)
            return await self.alone.hold(streams, scope)
        self._answered()
        if over is not None:
            return bytes(over).decode()
        keys = [key for key, _ in streams]
        count(self.held, keys, 1)

        def close() -> None:
            count(self.held, keys, -1)
            if not self._stopped:  # else gone with the process's hash
                self._keep(self._release(keys=[self.mine], args=keys))

        return once(close)

    async def _renewing(self) -> None:
        """Every third of :data:`STREAMS_TTL_MS`, the hash kept alive (written again from
        :attr:`held` if it expired meanwhile)."""
        while True:
            await asyncio.sleep(STREAMS_TTL_MS / 3000)
            try:
                if not await self._redis.pexpire(self.mine, STREAMS_TTL_MS) and self.held:
                    async with self._redis.pipeline(transaction=True) as pipe:
                        held: dict[Any, Any] = dict(self.held)
                        pipe.hset(self.mine, mapping=held)
                        pipe.pexpire(self.mine, STREAMS_TTL_MS)
                        pipe.sadd(f"{self.prefix}processes", self.process)
                        await pipe.execute()
            except RedisError as exc:
                self._failed(exc)

    def _keep(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and isinstance(task.exception(), RedisError):
            self._failed(task.exception())

    def _failed(self, exc: BaseException | None) -> None:
        if not self._failing:
            self._failing = True
            log.warning("limits: Redis does not answer (%s): this process counts alone", exc)

    def _answered(self) -> None:
        if self._failing:
            self._failing = False
            log.warning("limits: Redis answers again: the cluster's counts are shared")
