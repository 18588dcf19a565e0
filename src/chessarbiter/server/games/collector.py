"""Keeping the garbage collector's pauses short under load.

CPython's cyclic collector scans every tracked object of the generations it collects: with a
thousand games in memory a full (oldest-generation) collection took ~220 ms and the middle
one 15-30 ms, each one stalling every request and stream on the event loop (the p99 of a
move's round trip under ``bench/load_server.py``). :func:`keep_pauses_short` moves what
survived into the collector's permanent generation every :data:`FREEZE_S` (``gc.freeze``,
a constant-time list splice), so a collection only scans what is newer; memory freed by
reference counting is freed as before. Cyclic garbage among the frozen objects would stay,
so every :data:`SWEEP_S` everything is unfrozen and collected once (one pause of the old
length, every ten minutes instead of every few seconds)."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Awaitable, Callable
from typing import Final

FREEZE_S: Final = 1.0
SWEEP_S: Final = 600.0


async def keep_pauses_short(
    *, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    now: Callable[[], float] | None = None,
) -> None:
    """Freeze the survivors every :data:`FREEZE_S`, sweep every :data:`SWEEP_S`; run as a
    task on the event loop (cancelled: everything unfrozen again). ``sleep`` and ``now``
    (the loop's clock by default) are the time source."""
    clock = now or asyncio.get_running_loop().time
    sweep_at = clock() + SWEEP_S
    try:
        while True:
            await sleep(FREEZE_S)
            if clock() >= sweep_at:
                gc.unfreeze()
                gc.collect()
                sweep_at = clock() + SWEEP_S
            gc.freeze()
    finally:
        gc.unfreeze()
