"""Steps an interrupt must not split: a SIGINT or SIGTERM that comes while one is taken (an
event accepted and recorded) takes effect once it is done, so a game is never stopped with
an event that counts in it but is missing from its record."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

Handler = Callable[[int, FrameType | None], Any] | int

HELD = (signal.SIGINT, signal.SIGTERM)
"""The signals that stop a command (Ctrl-C, a parent's or the system's stop)."""


@contextmanager
def interrupts_held(came_meanwhile: Callable[[], None] | None = None) -> Iterator[None]:
    """Run the block whole: SIGINT and SIGTERM coming meanwhile are noted (and
    ``came_meanwhile`` called, e.g. to ask the block to end soon), and the first of them is
    raised again once the block is done (its own handler then runs: Ctrl-C's
    ``KeyboardInterrupt``, a command's stop). Python runs signal handlers in the main thread
    only: elsewhere the block runs as it is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []

    def note(signum: int, frame: FrameType | None) -> None:
        came.append(signum)
        if came_meanwhile is not None:
            came_meanwhile()

    previous: dict[int, Handler] = {}
    try:
        for signum in HELD:
            handler = signal.getsignal(signum)
            if handler is not None:  # (one set outside Python cannot be put back: left)
                previous[signum] = handler
                signal.signal(signum, note)
        yield
    finally:
        _put_back(previous)
        if came:
            signal.raise_signal(came[0])


def _put_back(previous: dict[int, Handler]) -> None:
    """Put each handler back, all of them even when one that is back already runs for a
    signal that came meanwhile (and raises: raised again once all are back)."""
    raised: BaseException | None = None
    for signum, handler in previous.items():
        while True:
            try:
                signal.signal(signum, handler)
                break
            except BaseException as exc:  # raised again once all are back
                raised = raised or exc
    if raised is not None:
        raise raised
