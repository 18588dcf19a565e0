"""The installs every acceptance test runs: one wheel built per test session, installed into
a fresh virtual environment without extras (``plain``) and one with ``[scale]`` (``scale``).
The build and the two installs overlap where they can: the environments are made while the
wheel compiles, and both installs run at once. With pytest-xdist the first worker that needs
them makes them, under a lock, in the session's folder that every worker shares; the others
wait and use them. ``CHESSARBITER_TEST_WHEEL=FILE`` installs that
wheel instead of building one (to work on these tests; it must be of today's sources)."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.acceptance.venvs import (
    BUILD_S,
    INSTALL_S,
    Venv,
    copy_sources,
    create,
    finished,
    start_install,
    start_wheel,
)


@pytest.fixture(scope="session")
def installs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Venv]:
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):  # each worker's folder is in the session's
        shared = shared.parent
    root = shared / "acceptance-installs"
    with (shared / "acceptance-installs.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (root / "installed").exists():
            shutil.rmtree(root, ignore_errors=True)  # what a failed attempt left
            root.mkdir()
            install(root)
            (root / "installed").touch()
    return {name: Venv(root / name) for name in ("plain", "scale")}


def install(root: Path) -> None:
    """Build the wheel and install it into ``root/plain`` and ``root/scale``."""
    given = os.environ.get("CHESSARBITER_TEST_WHEEL")
    build: subprocess.Popen[str] | None = None
    if not given:
        build = start_wheel(copy_sources(root / "sources"), root / "wheels")
    try:
        venvs = {"plain": create(root / "plain"), "scale": create(root / "scale")}
    finally:
        if build is not None:
            finished(build, "pip wheel . --no-deps", BUILD_S)
    (wheel,) = [Path(given)] if given else (root / "wheels").glob("chessarbiter-*.whl")
    installing = {name: start_install(target, f"{wheel}[scale]" if name == "scale" else str(wheel))
                  for name, target in venvs.items()}
    for name, process in installing.items():
        finished(process, f"pip install of the wheel ({name})", INSTALL_S)


@pytest.fixture(scope="session")
def plain(installs: dict[str, Venv]) -> Venv:
    """The package installed without extras (``pip install WHEEL``)."""
    return installs["plain"]


@pytest.fixture(scope="session")
def scale(installs: dict[str, Venv]) -> Venv:
    """The package installed with the ``[scale]`` extra (``pip install 'WHEEL[scale]'``)."""
    return installs["scale"]


@pytest.fixture
def cwd(tmp_path: Path) -> Path:
    """An empty working directory for the command, as a user's."""
    work = tmp_path / "work"
    work.mkdir()
    return work
