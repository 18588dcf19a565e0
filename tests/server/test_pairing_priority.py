"""The pairing and rendering processes run at a lower CPU priority than the server, so that
a pairing CPU-bound for seconds takes what the games leave (server/tournaments/desk.py)."""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import Executor

import pytest

from chessarbiter.server.tournaments.desk import PAIRING_NICE, pairing_pool, rendering_pool


@pytest.mark.parametrize("pool", [pairing_pool, rendering_pool])
def test_the_background_processes_are_niced_below_the_server(
        pool: Callable[[], Executor]) -> None:
    mine = os.nice(0)
    theirs = pool().submit(os.nice, 0).result(timeout=60)
    assert theirs == min(19, mine + PAIRING_NICE)
    assert os.nice(0) == mine  # the server's own priority is unchanged
    assert rendering_pool() is not pairing_pool()
