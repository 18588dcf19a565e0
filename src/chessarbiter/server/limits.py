"""What one client may ask of the server: how often it may create (challenges, seeks, games,
accounts: per account and per address, lichess' 429 with ``Retry-After`` beyond), how many
streams it may hold open, and where its address comes from. Every value is in
docs/server.md ("Limits"); the time source is the server's (injectable)."""

from __future__ import annotations

import ipaddress
import math
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from typing import Any, Final

from chessarbiter.server.errors import ApiError


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


class Limits:
    """The server's limits per account and per address (``None``: an address not limited,
    see :func:`client_address`)."""

    def __init__(self, now_ms: Callable[[], int]) -> None:
        self.by_account = Buckets(CREATIONS_PER_ACCOUNT, now_ms)
        self.by_address = Buckets(CREATIONS_PER_ADDRESS, now_ms)
        self.streams: dict[str, int] = {}
        """Streams open, by ``account:ID`` and ``address:IP``."""

    def create(self, account: str | None, address: str | None) -> None:
        """Count a creation; ``ApiError`` 429 with ``Retry-After`` (seconds) if the account
        or the address has made too many lately (nothing is counted then)."""
        checks = [(b, k) for b, k in ((self.by_account, account), (self.by_address, address))
                  if k is not None]
        wait = max((bucket.wait_ms(key) for bucket, key in checks), default=0)
        if wait > 0:
            seconds = math.ceil(wait / 1000)
            raise ApiError(429, f"too many creations: try again in {seconds} s (at most "
                                f"{CREATIONS_PER_ACCOUNT.count} a minute per account, "
                                f"{CREATIONS_PER_ADDRESS.count} per address)",
                           headers={"Retry-After": str(seconds)})
        for bucket, key in checks:
            bucket.take(key)

    def open_stream(self, account: str | None, address: str | None) -> Callable[[], None]:
        """Count a stream opening; the function that counts it closed (call it once).
        ``ApiError`` 429 if the account or the address holds too many open."""
        keys = [(f"account:{account}", STREAMS_PER_ACCOUNT) if account is not None else None,
                (f"address:{address}", STREAMS_PER_ADDRESS) if address is not None else None]
        held = [k for k in keys if k is not None]
        for key, most in held:
            if self.streams.get(key, 0) >= most:
                who = "account" if key.startswith("account:") else "address"
                raise ApiError(429, f"too many streams open: at most {most} per {who}; close "
                                    "one first")
        for key, _ in held:
            self.streams[key] = self.streams.get(key, 0) + 1
        closed = False

        def close() -> None:
            nonlocal closed
            if closed:
                return
            closed = True
            for key, _ in held:
                left = self.streams.get(key, 1) - 1
                if left > 0:
                    self.streams[key] = left
                else:
                    self.streams.pop(key, None)

        return close


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
