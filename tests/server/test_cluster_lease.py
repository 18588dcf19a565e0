"""One owner per game: leases taken by contenders racing for the same games never overlap
(each holder's valid interval ends before the next one's begins, fencing tokens grow), a
dead holder's game is taken over once its lease expires, and only the holder renews or
releases it."""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections.abc import Iterator
from itertools import pairwise

import pytest

from tests.services import redis_url

pytest.importorskip("redis", reason="redis (the Python client) is not installed")
import redis

from chessarbiter.server.cluster.lease import Lease, Leases, monotonic_ms

TTL_MS = 400
MARGIN_MS = 100


@pytest.fixture
def prefix() -> Iterator[str]:
    """A key prefix of the test's own, its keys deleted afterwards."""
    name = f"test:{uuid.uuid4().hex}:"
    yield name
    client = redis.Redis.from_url(redis_url())
    for key in client.scan_iter(f"{name}*"):
        client.delete(key)
    client.close()


def leases(prefix: str, address: str, url: str) -> Leases:
    return Leases(url, address, prefix=prefix, ttl_ms=TTL_MS, margin_ms=MARGIN_MS)


def test_contenders_racing_never_hold_a_game_at_once(prefix: str) -> None:
    url = redis_url()
    games = ["g1", "g2"]
    held: list[tuple[str, int, float, float, str]] = []  # game, token, from, until, who
    lock = threading.Lock()
    stop_at = monotonic_ms() + 20_000  # or once enough leases were taken

    def contend(name: str, seed: int) -> None:
        rng = random.Random(seed)
        mine = leases(prefix, name, url)
        while monotonic_ms() < stop_at and len(held) < 24:
            game = rng.choice(games)
            lease: Lease | None = mine.take(game)
            if lease is None:
                continue
            start = monotonic_ms()
            for _ in range(rng.randrange(4)):  # hold a while, renewing
                time.sleep(rng.uniform(0, 0.1))
                renewed = mine.renew(lease)
                if renewed is None:
                    break
                lease = renewed
            releasing = rng.random() < 0.5  # else it dies holding it: the lease expires
            until = min(monotonic_ms(), lease.valid_until) if releasing else lease.valid_until
            with lock:
                held.append((game, lease.token, start, until, name))
            if releasing:
                mine.release(lease)  # once it has stopped acting as the owner
            else:
                time.sleep(rng.uniform(0, 0.05))
        mine.close()

    threads = [threading.Thread(target=contend, args=(f"p{n}", n)) for n in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for game in games:
        spans = sorted((token, start, until, who) for g, token, start, until, who in held
                       if g == game)
        assert len(spans) >= 4, f"{game}: too few leases taken to test anything"
        for (token, _, until, who), (later, start, _, other) in pairwise(spans):
            assert later > token
            assert start >= until, f"{game}: {who} (token {token}) and {other} " \
                                   f"(token {later}) held it at once"


def test_a_lost_lease_is_neither_renewed_nor_released_by_its_old_holder(prefix: str) -> None:
    url = redis_url()
    first, second = leases(prefix, "a:1", url), leases(prefix, "b:2", url)
    lease = first.take("g")
    assert lease is not None and second.take("g") is None
    assert second.holder("g") == first.holder("g") and first.holder("g") is not None
    holder = first.holder("g")
    assert holder is not None and holder.address == "a:1" and holder.token == lease.token
    deadline = monotonic_ms() + 10 * TTL_MS
    taken = None
    while taken is None and monotonic_ms() < deadline:  # the holder died: wait for expiry
        taken = second.take("g")
    assert taken is not None and taken.token > lease.token
    assert not first.valid(lease) and second.valid(taken)
    assert first.renew(lease) is None
    assert first.renew_all([lease]) == [None]
    again = second.renew_all([taken])[0]
    assert again is not None and again.token == taken.token
    assert again.valid_until >= taken.valid_until
    first.release(lease)
    holder = first.holder("g")
    assert holder is not None and holder.address == "b:2"
    second.release(taken)
    assert first.holder("g") is None
    first.close()
    second.close()


def test_the_margin_must_fit_in_the_lease() -> None:
    with pytest.raises(ValueError, match="margin_ms 5000"):
        Leases("redis://127.0.0.1:1/0", "x", ttl_ms=3000, margin_ms=5000)
