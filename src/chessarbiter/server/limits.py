"""What one client may ask of the server: how often it may create (challenges, seeks, games,
accounts: per account and per address, lichess' 429 with ``Retry-After`` beyond), how many
streams it may hold open, and where its address comes from. Every value is in
docs/server.md ("Limits"). The counts are kept where the server was assembled to keep them
(:class:`Counts`): in this process (:class:`InMemory`, on the server's time source), or
shared by a cluster's processes (:class:`chessarbiter.server.cluster.limits.RedisCounts`),
so that a cluster of N processes allows a client what one process does, not N times it."""

from __future__ import annotations

import ipaddress
import math
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol, TypeVar

from chessarbiter.server.errors import ApiError

T = TypeVar("T")


@dataclass(frozen=True)
class Rate:
    """``count`` actions at once, and one more every ``per_ms / count`` ms."""

    count: int
    per_ms: int


MAX_BODY_BYTES: Final = 256 * 1024
"""A request's body at most (413 beyond, before it is read whole)."""
CREATIONS_PER_ACCOUNT: Final = Rate(30, 60_000)
"""Challenges, seeks and games an account may create: 30 a minute."""
CREATIONS_PER_ADDRESS: Final = Rate(60, 60_000)
"""The same, and registrations, from one address: 60 a minute."""
STREAMS_PER_ACCOUNT: Final = 20
"""Streams (events, games, seeks) one account may hold open at once."""
STREAMS_PER_ADDRESS: Final = 50
"""Streams one address may hold open at once."""
CHALLENGE_EXPIRY_MS: Final = 20 * 60_000
"""An unanswered direct challenge is gone after 20 minutes."""
START_TIMEOUT_MS: Final = 60_000
"""A game whose player to move has not made the side's first move within a minute (of the
game's start for White, of White's first move for Black) is aborted (tournament games
excepted: their arbiter rules on a player who does not come)."""
MAX_KEYS: Final = 100_000
"""Accounts and addresses remembered by a rate limit before the idle ones are forgotten."""


class Buckets:
    """A rate limit (token buckets) by key, on the time source ``now_ms``."""

    def __init__(self, rate: Rate, now_ms: Callable[[], int]) -> None:
        self.rate = rate
        self.now_ms = now_ms
        self._buckets: dict[str, tuple[float, int]] = {}
        """Each key's tokens left, and when they were counted."""

    def _tokens(self, key: str, now: int) -> float:
        tokens, at = self._buckets.get(key, (self.rate.count, now))
        return min(self.rate.count, tokens + (now - at) * self.rate.count / self.rate.per_ms)

    def wait_ms(self, key: str) -> int:
        """How long ``key`` must wait before its next action (0: it may act now)."""
        missing = 1 - self._tokens(key, self.now_ms())
        return 0 if missing <= 0 else math.ceil(missing * self.rate.per_ms / self.rate.count)

    def take(self, key: str) -> None:
        """Count an action of ``key``."""
        now = self.now_ms()
        if len(self._buckets) >= MAX_KEYS:  # forget the keys whose buckets are full again
            self._buckets = {k: v for k, v in self._buckets.items()
                             if self._tokens(k, now) < self.rate.count}
        self._buckets[key] = (self._tokens(key, now) - 1, now)


Release = Callable[[], None]
"""Counts a stream closed (called once)."""


def released() -> None:
    """A stream counted nowhere: nothing to count closed."""


class Counts(Protocol):
    """Where the limits' counts are kept."""

    async def take(self, buckets: Sequence[tuple[str, Rate]]) -> int:
        """Count an action under each key, at its rate, unless one of them must wait first:
        0 (counted), or the longest wait in ms (nothing counted)."""

    async def hold(self, streams: Sequence[tuple[str, int]], scope: MutableMapping[str, Any]
                   ) -> Release | str:
        """Count the stream of the request ``scope`` open under each key, unless one of them
        holds its most already: the function that counts it closed, or that key (nothing
        counted)."""


class InMemory:
    """The counts of one process, on the time source ``now_ms``."""

    def __init__(self, now_ms: Callable[[], int]) -> None:
        self.now_ms = now_ms
        self._buckets: dict[Rate, Buckets] = {}
        self._streams: dict[str, int] = {}

    async def take(self, buckets: Sequence[tuple[str, Rate]]) -> int:
        found = [(self._buckets.setdefault(rate, Buckets(rate, self.now_ms)), key)
                 for key, rate in buckets]
        wait = max((bucket.wait_ms(key) for bucket, key in found), default=0)
        if wait == 0:
            for bucket, key in found:
                bucket.take(key)
        return wait

    async def hold(self, streams: Sequence[tuple[str, int]], scope: MutableMapping[str, Any]
                   ) -> Release | str:
        for key, most in streams:
            if self._streams.get(key, 0) >= most:
                return key
        keys = [key for key, _ in streams]
        count(self._streams, keys, 1)
        return once(lambda: count(self._streams, keys, -1))


def count(counts: dict[str, int], keys: Sequence[str], by: int) -> None:
    """Add ``by`` to the count of each key (a count down to 0 is dropped)."""
    for key in keys:
        left = counts.get(key, 0) + by
        if left > 0:
            counts[key] = left
        else:
            counts.pop(key, None)


def once(release: Release) -> Release:
    """``release``, done the first time it is called only."""
    done = False

    def call() -> None:
        nonlocal done
        if not done:
            done = True
            release()

    return call


class Limits:
    """The server's limits per account and per address (``None``: an address not limited,
    see :func:`client_address`), counted in ``counts`` (:class:`InMemory` on the time
    source ``now_ms`` unless given)."""

    def __init__(self, now_ms: Callable[[], int], counts: Counts | None = None) -> None:
        self.counts: Counts = InMemory(now_ms) if counts is None else counts
        self.streams: dict[str, int] = {}
        """The streams this process serves, by ``account:ID`` and ``address:IP`` (who is
        online here)."""

    async def create(self, account: str | None, address: str | None) -> None:
        """Count a creation; ``ApiError`` 429 with ``Retry-After`` (seconds) if the account
        or the address has made too many lately (nothing is counted then)."""
        wait = await self.counts.take(
            _keyed(account, CREATIONS_PER_ACCOUNT, address, CREATIONS_PER_ADDRESS))
        if wait > 0:
            seconds = math.ceil(wait / 1000)
            raise ApiError(429, f"too many creations: try again in {seconds} s (at most "
                                f"{CREATIONS_PER_ACCOUNT.count} a minute per account, "
                                f"{CREATIONS_PER_ADDRESS.count} per address)",
                           headers={"Retry-After": str(seconds)})

    async def open_stream(self, account: str | None, address: str | None,
                          scope: MutableMapping[str, Any]) -> Release:
        """Count the stream of the request ``scope`` opening; the function that counts it
        closed (call it once). ``ApiError`` 429 if the account or the address holds too
        many open."""
        held = _keyed(account, STREAMS_PER_ACCOUNT, address, STREAMS_PER_ADDRESS)
        found = await self.counts.hold(held, scope)
        if isinstance(found, str):
            who, most = ("account", STREAMS_PER_ACCOUNT) if found.startswith("account:") \
                else ("address", STREAMS_PER_ADDRESS)
            raise ApiError(429, f"too many streams open: at most {most} per {who}; close "
                                "one first")
        keys = [key for key, _ in held]
        count(self.streams, keys, 1)

        def close() -> None:
            count(self.streams, keys, -1)
            found()

        return once(close)


def _keyed(account: str | None, per_account: T, address: str | None, per_address: T
           ) -> list[tuple[str, T]]:
    """The keys ``account:ID`` and ``address:IP`` counted (those not ``None``), each with
    its limit."""
    return [(f"{who}:{key}", limit) for who, key, limit in (
        ("account", account, per_account), ("address", address, per_address))
        if key is not None]


def client_address(scope: MutableMapping[str, Any], behind_proxy: bool) -> str | None:
    """The address a request comes from, for the per-address limits: behind a proxy
    (``behind_proxy``), the last address of ``X-Forwarded-For`` (the one the proxy saw);
    else the peer's. ``None`` (not limited) for a loopback peer not behind a proxy: a tool
    on the server's own machine, another process of a cluster, or a proxy whose forwarded
    addresses are not trusted. An IPv6 address counts by its /64 network (:func:`limited`)."""
    client = scope.get("client")
    peer = str(client[0]) if client else None
    if behind_proxy:
        for key, value in scope.get("headers", ()):
            if key == b"x-forwarded-for":
                last = value.decode("latin-1").split(",")[-1].strip()
                if last:
                    return limited(last[:64])
        return None if peer is None else limited(peer)
    if peer is None or _loopback(peer):
        return None
    return limited(peer)


def limited(address: str) -> str:
    """The key an address is limited by: an IPv4 address itself, an IPv6 address its /64
    network (one subscriber's usual share: otherwise each of its 2^64 addresses would get
    a limit of its own); anything else as it is written."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv4Address):
        return str(parsed)
    if parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return str(ipaddress.IPv6Network((parsed, 64), strict=False))


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False
