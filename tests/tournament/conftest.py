"""Fixtures of the tournament tests; bbpPairings built ahead (:class:`BbpAhead`)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import subprocess
import threading
from pathlib import Path
from typing import IO

import pytest

from tests.tournament.bbp import Bbp, build

LOCK = "bbp.lock"


def _lock(shared: Path) -> IO[str]:
    """The build's lock in ``shared``, taken (released when the file is closed)."""
    lock = (shared / LOCK).open("w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    return lock


@pytest.fixture(scope="session")
def bbp(tmp_path_factory: pytest.TempPathFactory) -> Bbp:
    """bbpPairings, built once per run into a temporary folder (shared by pytest-xdist's
    workers, the first one building under a lock, unless :class:`BbpAhead` took it first);
    the test is skipped, saying why, where no compiler exists."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    with _lock(shared):
        binary = build(shared)
    return Bbp(binary, tmp_path_factory.mktemp("bbp"))


class BbpAhead:
    """bbpPairings being built in ``shared`` in a thread of pytest's main process while the
    workers run other tests (the lock is taken before this returns, so the fixture waits
    for it instead of building too); :meth:`stop` ends a build still running. A build that
    fails is tried again by the fixture, which then skips saying why."""

    def __init__(self, shared: Path) -> None:
        self.started: list[subprocess.Popen[str]] = []
        self._lock = _lock(shared)
        self.thread = threading.Thread(target=self._run, args=(shared,), daemon=True)
        self.thread.start()

    def _run(self, shared: Path) -> None:
        try:
            with contextlib.suppress(BaseException):  # pytest.skip's exception included
                build(shared, self.started)
        finally:
            self._lock.close()

    def stop(self) -> None:
        """End a build still running (the run is over)."""
        for process in self.started:
            if process.poll() is None:
                process.kill()
        self.thread.join(10)
