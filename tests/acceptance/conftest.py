"""The installs every acceptance test runs (:mod:`tests.acceptance.installs`: one wheel
built per test run, installed without extras and with ``[scale]``), and a user's empty
working directory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.acceptance.installs import locked, made
from tests.acceptance.venvs import Venv


@pytest.fixture(scope="session")
def installs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Venv]:
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):  # each worker's folder is in the session's
        shared = shared.parent
    with locked(shared):  # made by the run (started ahead) or by the first worker here
        root = made(shared)
    return {name: Venv(root / name) for name in ("plain", "scale")}


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
