"""A stream's lines as its queue carries them, in-process and from the bus alike."""

from __future__ import annotations

import asyncio

Line = bytes | None
"""One NDJSON line for a stream; ``None`` closes it."""


def close_queue(queue: asyncio.Queue[Line]) -> None:
    """Tell a stream to end, even when its queue is full."""
    while True:
        try:
            queue.put_nowait(None)
            return
        except asyncio.QueueFull:
            queue.get_nowait()
