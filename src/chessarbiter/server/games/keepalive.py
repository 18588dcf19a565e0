"""Streams kept alive and memory kept to the live games: every second, an empty line to each
game's streams that have had nothing for :data:`KEEPALIVE_S` (each game at its own instant:
all of them at once stalled the loop for tens of ms under load) and to the accounts' idle
event streams every :data:`KEEPALIVE_S` (as lichess); the finished games nobody follows
leave memory (:func:`evict_finished`)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Final

from chessarbiter.server.games.table import HubGame
from chessarbiter.server.streams.fanout import Fanout

KEEPALIVE_S: Final = 7.0
"""A stream with nothing to say gets an empty line this often (as lichess)."""

KEEPALIVE_TICK_S: Final = 1.0
"""How often the games' streams are looked at for one (the lines' spacing is at most
:data:`KEEPALIVE_S` plus this)."""

KEEP_FINISHED_S: Final = 60.0
"""A finished game stays in memory this long after its last line (its players' last reads,
the page's PGN), then is read from the store when asked for: memory holds the live games,
not every game played since the start."""


def evict_finished(games: dict[str, HubGame], now: float,
                   drop: Callable[[HubGame], None]) -> int:
    """Drop (``drop``) the finished games nobody follows whose last line is
    :data:`KEEP_FINISHED_S` old at ``now`` (``time.monotonic``); how many."""
    old = now - KEEP_FINISHED_S
    gone = [entry for entry in games.values()
            if entry.over and not entry.subscribers and entry.published_at <= old]
    for entry in gone:
        drop(entry)
    return len(gone)


async def keep_alive(games: dict[str, HubGame], fanout: Fanout,
                     tick: Callable[[float], None]) -> None:
    """Every :data:`KEEPALIVE_TICK_S`, ``tick`` (at ``time.monotonic``), then the empty
    lines due; run as a task on the event loop."""
    users_at = time.monotonic() + KEEPALIVE_S
    while True:
        await asyncio.sleep(KEEPALIVE_TICK_S)
        now = time.monotonic()
        tick(now)
        quiet = now - KEEPALIVE_S
        for entry in tuple(games.values()):
            if entry.subscribers and entry.published_at <= quiet:
                entry.publish(b"\n")
        if now < users_at:
            continue
        users_at = now + KEEPALIVE_S
        for queues in fanout.user_streams.values():
            for queue in tuple(queues):
                if queue.empty():
                    queue.put_nowait(b"\n")
