"""``python tests/server/busy_launcher.py SECONDS ARGS...`` runs ``chessarbiter ARGS...`` as
``python -m chessarbiter.cli.main`` would, with one addition for the tests: each SIGUSR1
starts a thread that computes in pure Python (a whole core's worth) for ``SECONDS``, to
starve the process's other threads of the interpreter as a busy computation would."""

from __future__ import annotations

import runpy
import signal
import sys
import threading
import time
from types import FrameType


def compute(seconds: float) -> None:
    """Count for ``seconds`` of the wall clock: busy all the while."""
    end = time.monotonic() + seconds
    counted = 0
    while time.monotonic() < end:
        counted += 1


def start(seconds: float) -> None:
    def started(_signal: int, _frame: FrameType | None) -> None:
        threading.Thread(target=compute, args=(seconds,), name="busy", daemon=True).start()

    signal.signal(signal.SIGUSR1, started)


if __name__ == "__main__":
    start(float(sys.argv[1]))
    sys.argv = ["chessarbiter", *sys.argv[2:]]
    runpy.run_module("chessarbiter.cli.main", run_name="__main__", alter_sys=True)
