"""The server's background processes: work that would hold the interpreter's lock for
seconds, and so the event loop and the writer that acknowledges moves with it, runs in
processes of its own, one pool by job: a Dutch pairing, a tournament's rendering, the
built-in engine's search, a ruling's dead-position analysis (compiled code never lets go of
the lock while it computes; a thread of the server would take the loop's core). A pool is
started by spawning at its job's first use and kept for the server's life; its processes run
at a lower CPU priority than the server (:data:`BACKGROUND_NICE`), so that the games take
what they need first on a machine with fewer cores than busy processes; the engines' at the
lowest there is (Linux's ``SCHED_IDLE``: only the CPU no other process wants), since they
search without a pause; and they end with the server, even one killed (``kill -9``),
rather than search on for no one."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any, Final

BACKGROUND_NICE: Final = 10
"""How much lower the background processes' CPU priority is than the server's."""

_POOLS: dict[str, ProcessPoolExecutor] = {}
"""The pools started, by job."""


def pool(job: str, workers: int = 1, initializer: Callable[..., None] | None = None,
         initargs: tuple[Any, ...] = (), idle: bool = False) -> ProcessPoolExecutor:
    """The processes of ``job`` (``workers`` of them, each running ``initializer(*initargs)``
    first; ``idle``: at the idle priority), started at the first call for the job."""
    if job not in _POOLS:
        _POOLS[job] = ProcessPoolExecutor(workers, mp_context=get_context("spawn"),
                                          initializer=_in_the_background,
                                          initargs=(os.getpid(), idle, initializer, initargs))
    return _POOLS[job]


def forget(job: str) -> None:
    """A pool found broken (a process killed): a new one at the job's next use."""
    _POOLS.pop(job, None)


def _in_the_background(server: int, idle: bool, initializer: Callable[..., None] | None,
                       initargs: tuple[Any, ...]) -> None:
    """In a background process: Ctrl-C is the server's to handle (it stops the pools); the
    process ends when the server does; a lower CPU priority (``idle``: the lowest); then the
    job's own initializer."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _end_with(server)
    os.nice(BACKGROUND_NICE)
    if idle and hasattr(os, "SCHED_IDLE"):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    if initializer is not None:
        initializer(*initargs)


WATCH_S: Final = 0.5
"""How often a background process looks whether the server still runs, in seconds."""


def _end_with(server: int) -> None:
    """End this process soon after its parent, the server (process ``server``), ends however
    it ends: a thread looks every :data:`WATCH_S` whether this process was handed to another
    parent (the kernel's ``PR_SET_PDEATHSIG`` would follow the thread that started the
    process, not the server)."""

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(WATCH_S)
        os._exit(0)

    threading.Thread(target=watch, name="chessarbiter-watch", daemon=True).start()
