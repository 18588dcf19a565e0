"""Fixtures of the tournament tests."""

from __future__ import annotations

import pytest

from tests.tournament.bbp import Bbp, build


@pytest.fixture(scope="session")
def bbp(tmp_path_factory: pytest.TempPathFactory) -> Bbp:
    """bbpPairings, built once per session (the test is skipped, saying why, where no
    compiler exists)."""
    folder = tmp_path_factory.mktemp("bbp")
    return Bbp(build(folder), folder)
