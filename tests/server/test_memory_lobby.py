"""The lobby in memory (server/lobby/memory.py): challenges expire
``CHALLENGE_EXPIRY_MS`` after they were made, each account's are listed in the order made,
and keeping one costs the same however many are kept (a burst of tens of thousands is
linear, not quadratic: each creation once scanned every challenge kept)."""

from __future__ import annotations

import asyncio
import gc
import time

import pytest

from chessarbiter.laws.profiles import ONLINE
from chessarbiter.server.accounts import Account, Role
from chessarbiter.server.errors import ApiError
from chessarbiter.server.limits import CHALLENGE_EXPIRY_MS
from chessarbiter.server.lobby.memory import MemoryLobby
from chessarbiter.server.lobby.requests import GameRequest
from chessarbiter.server.lobby.store import Challenge

REQUEST = GameRequest(None, ONLINE)


def account(name: str) -> Account:
    return Account(name, name, Role.PLAYER)


class Clock:
    def __init__(self) -> None:
        self.now = 0

    def __call__(self) -> int:
        return self.now


def make(lobby: MemoryLobby, n: int, challenger: str, dest: str) -> Challenge:
    challenge = Challenge(f"c{n}", account(challenger), account(dest), REQUEST,
                          created_ms=lobby.now_ms())
    asyncio.run(lobby.keep(challenge))
    return challenge


def test_challenges_expire_in_the_order_made_and_are_listed_per_account() -> None:
    clock = Clock()
    lobby = MemoryLobby(clock)
    first = make(lobby, 1, "ann", "bob")
    clock.now = 1_000
    make(lobby, 2, "bob", "ann")
    make(lobby, 3, "cy", "bob")
    incoming, outgoing = asyncio.run(lobby.pending_for(account("bob")))
    assert [c.id for c in incoming] == ["c1", "c3"] and [c.id for c in outgoing] == ["c2"]
    clock.now = CHALLENGE_EXPIRY_MS  # the first is 20 minutes old
    with pytest.raises(ApiError) as gone:
        asyncio.run(lobby.find(first.id))
    assert gone.value.status == 404
    assert asyncio.run(lobby.find("c2")).id == "c2"
    asyncio.run(lobby.take(asyncio.run(lobby.find("c3"))))
    incoming, outgoing = asyncio.run(lobby.pending_for(account("bob")))
    assert incoming == [] and [c.id for c in outgoing] == ["c2"]
    clock.now = 1_000 + CHALLENGE_EXPIRY_MS
    assert asyncio.run(lobby.pending_for(account("ann"))) == ([], [])
    assert lobby.challenges == {}


def test_keeping_a_challenge_does_not_grow_with_the_challenges_kept() -> None:
    clock = Clock()
    lobby = MemoryLobby(clock)

    async def burst(count: int) -> float:
        gc.disable()  # the lobby's cost, not the collector's (which grows with the heap of
        try:  # the whole test process: it made this test fail under a loaded test run)
            began = time.process_time()
            for n in range(count):
                clock.now += 1
                await lobby.keep(Challenge(f"{count}-{n}", account(f"s{n % 100}"),
                                           account("target"), REQUEST, created_ms=clock.now))
            return time.process_time() - began
        finally:
            gc.enable()

    small = asyncio.run(burst(2_000))
    large = asyncio.run(burst(40_000))  # with 2,000 more kept already
    assert len(lobby.challenges) == 42_000
    # linear: 20 times the challenges, about 20 times the time (quadratic: hundreds)
    assert large < 80 * max(small, 1e-3), (small, large)
