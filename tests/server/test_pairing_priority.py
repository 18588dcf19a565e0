"""The pairing process runs at a lower CPU priority than the server, so that a pairing
CPU-bound for seconds takes what the games leave (server/tournaments/desk.py)."""

from __future__ import annotations

import os

from chessarbiter.server.tournaments.desk import PAIRING_NICE, pairing_pool


def test_the_pairing_process_is_niced_below_the_server() -> None:
    mine = os.nice(0)
    theirs = pairing_pool().submit(os.nice, 0).result(timeout=60)
    assert theirs == min(19, mine + PAIRING_NICE)
    assert os.nice(0) == mine  # the server's own priority is unchanged
