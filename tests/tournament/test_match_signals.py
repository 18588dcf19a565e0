"""A finished game of a match is kept whole: an interrupt (SIGINT, SIGTERM) that comes while
its events and its PGN are being written waits until both are, then acts as it would have,
even when another thread of the process takes the signal (the worker pool's threads do)."""

from __future__ import annotations

import signal
import threading

import pytest

from chessarbiter.tournament.match import _signals_held


def test_an_interrupt_waits_until_the_game_is_kept() -> None:
    idle = threading.Event()
    other = threading.Thread(target=idle.wait)  # a thread that does not mask the signal
    other.start()
    steps: list[str] = []
    try:
        with pytest.raises(KeyboardInterrupt), _signals_held():
            assert other.ident is not None
            signal.pthread_kill(other.ident, signal.SIGINT)  # taken by the other thread
            steps.append("events stored")
            for _ in range(3_000_000):  # bytecodes: a handler left in place would run here
                pass
            steps.append("PGN written")
        assert steps == ["events stored", "PGN written"]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        idle.set()
        other.join()
