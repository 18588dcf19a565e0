"""Fixtures of the tournament tests."""

from __future__ import annotations

import fcntl
import os

import pytest

from tests.tournament.bbp import Bbp, build


@pytest.fixture(scope="session")
def bbp(tmp_path_factory: pytest.TempPathFactory) -> Bbp:
    """bbpPairings, built once per run into a temporary folder (shared by pytest-xdist's
    workers, the first one building under a lock); the test is skipped, saying why, where
    no compiler exists."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    with (shared / "bbp.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        binary = build(shared)
    return Bbp(binary, tmp_path_factory.mktemp("bbp"))
