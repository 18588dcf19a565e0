"""The two installs every acceptance test runs, made once per test run in a folder that
pytest-xdist's workers share: one wheel of the checkout (``pip wheel .``), installed without
extras (``plain``) and with ``[scale]`` (``scale``). The build and the installs overlap where
they can: the environments are made while the wheel compiles, and both installs run at once.

The run starts them as soon as it knows acceptance tests are selected (:class:`Ahead`,
from ``tests/conftest.py``), in a thread of pytest's main process, so the workers run other
tests meanwhile instead of one of them compiling while the other waits; the fixture waits
for them under the same lock (and makes them itself when nothing started them).
The wheel is the one ``scripts/venv.sh`` built when it holds today's sources
(:func:`~tests.acceptance.venvs.built_wheel`); ``CHESSARBITER_TEST_WHEEL=FILE`` installs that
wheel instead (to work on these tests; it must be of today's sources)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from tests.acceptance.venvs import (
    BUILD_S,
    INSTALL_S,
    built_wheel,
    copy_sources,
    create,
    finished,
    start_install,
    start_wheel,
)

FOLDER = "acceptance-installs"
DONE = "installed"


@contextmanager
def locked(shared: Path) -> Iterator[IO[str]]:
    """The installs' lock in ``shared``, held (by whoever holds the file open)."""
    with (shared / f"{FOLDER}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield lock


def made(shared: Path, started: list[subprocess.Popen[str]] | None = None) -> Path:
    """The installs' folder in ``shared``, made unless this run made them already (call
    with the lock held); ``started`` collects the processes it runs. A failure is told to
    every later call (``AssertionError``), not tried again."""
    root = shared / FOLDER
    failed = shared / f"{FOLDER}.failed"
    if failed.exists():
        raise AssertionError(failed.read_text())
    if not (root / DONE).exists():
        root.mkdir()
        processes = [] if started is None else started
        try:
            install(root, processes)
        except BaseException as exc:
            for process in processes:
                if process.poll() is None:
                    process.kill()
            failed.write_text(f"the acceptance installs could not be made: {exc}")
            raise
        (root / DONE).touch()
    return root


def install(root: Path, started: list[subprocess.Popen[str]]) -> None:
    """Build the wheel and install it into ``root/plain`` and ``root/scale``."""
    given = os.environ.get("CHESSARBITER_TEST_WHEEL") or built_wheel()
    build: subprocess.Popen[str] | None = None
    if not given:
        build = start_wheel(copy_sources(root / "sources"), root / "wheels")
        started.append(build)
    try:
        venvs = {"plain": create(root / "plain"), "scale": create(root / "scale")}
    finally:
        if build is not None:
            finished(build, "pip wheel . --no-deps", BUILD_S)
    (wheel,) = [Path(given)] if given else (root / "wheels").glob("chessarbiter-*.whl")
    installing = {name: start_install(target, f"{wheel}[scale]" if name == "scale" else str(wheel))
                  for name, target in venvs.items()}
    started.extend(installing.values())
    for name, process in installing.items():
        finished(process, f"pip install of the wheel ({name})", INSTALL_S)


class Ahead:
    """The installs in ``shared`` being made in a thread while the tests start (the lock is
    taken before this returns, so no test begins them too); :meth:`stop` ends what still
    runs. A failure is reported by the fixture."""

    def __init__(self, shared: Path) -> None:
        self.started: list[subprocess.Popen[str]] = []
        self._lock = (shared / f"{FOLDER}.lock").open("w")
        fcntl.flock(self._lock, fcntl.LOCK_EX)
        self.thread = threading.Thread(target=self._run, args=(shared,), daemon=True)
        self.thread.start()

    def _run(self, shared: Path) -> None:
        try:
            with contextlib.suppress(Exception):
                made(shared, self.started)
        finally:
            self._lock.close()  # the lock released

    def stop(self) -> None:
        """End the build and installs still running (the run is over)."""
        for process in self.started:
            if process.poll() is None:
                process.kill()
        self.thread.join(10)
