"""No server delay charged to a player (docs/server.md, "Clocks"): a move is stamped when it
arrives, the opponent's clock starts when the move is delivered, so a stall of the server
between the two is charged to no one. The stall is injected: a database writer that blocks
(its transaction taking simulated seconds on the games' hand-driven clock), or a command
holding the game's sequence; nothing sleeps."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from functools import partial
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import pytest

from chessarbiter.server.games.db import Database, _Append
from chessarbiter.server.tournaments.desk import DESKS
from chessarbiter.store.sqlite import SqliteStore
from chessarbiter.tournament.director import pair_next
from chessarbiter.tournament.events import Event as TournamentEvent
from chessarbiter.tournament.log import TournamentState
from tests.clock.fake_time import FakeTime
from tests.server.held import held_pairing
from tests.server.helpers import InProcess, in_process
from tests.server.test_api import friendly_game, play

MINUTE = 60_000
GAME = ("b1c3 d7d5 d1f3 d5e4 c3e4 b8d7 f1c4 g8f6 e4f6 d7f6 f3g3 c8f5 d2d3 f5g6 g1e2 e7e6 c1f4 "
        "f6h5 g3f3 h5f4 e2f4 f8e7 c4e6 f7e6 f4e6 d8a5 c2c3 a5e5")
"""A real game's moves after 1. e4 c6, no position repeated."""


class StallingDatabase(Database):
    """A database whose writer, when told, takes ``stall_ms`` of the games' clock over its
    next transaction, or waits at its start until ``release`` is set."""

    def __init__(self, path: Path, clock: FakeTime) -> None:
        super().__init__(path)
        self.clock = clock
        self.stall_ms = 0
        self.release: threading.Event | None = None
        self.blocked = threading.Event()
        """Set once the writer waits for ``release``."""

    def _commit(self, batch: list[_Append], store: SqliteStore) -> None:
        if self.release is not None:
            self.blocked.set()
            self.release.wait(30)
        self.clock.advance(self.stall_ms)
        super()._commit(batch, store)


Scenario = Callable[[InProcess, StallingDatabase], Awaitable[None]]


@asynccontextmanager
async def stalling(tmp_path: Path, **settings: Any) -> AsyncIterator[
        tuple[InProcess, StallingDatabase]]:
    clock = FakeTime()
    db = StallingDatabase(tmp_path / "g.sqlite", clock)
    async with in_process(tmp_path / "g.sqlite", clock, database=db, **settings) as server:
        yield server, db


def run(tmp_path: Path, scenario: Scenario, **settings: Any) -> None:
    async def main() -> None:
        async with stalling(tmp_path, **settings) as (server, db):
            await scenario(server, db)

    asyncio.run(main())


def test_a_stalled_commit_is_charged_to_no_one(tmp_path: Path) -> None:
    async def scenario(s: InProcess, db: StallingDatabase) -> None:
        game_id, alice, bob = await friendly_game(s, **{"clock.limit": "60"})
        await play(s, game_id, "e2e4 e7e5", alice, bob)
        entry = await s.game(game_id)
        assert entry.live.clocks() == (MINUTE, MINUTE)
        s.clock.advance(2_000)  # alice thinks 2 s
        db.stall_ms = 10_000  # then the writer takes 10 s to commit her move
        moved = await s.post(f"/api/board/game/{game_id}/move/g1f3", alice)
        assert moved.status_code == 200, moved.text
        assert entry.live.clocks() == (MINUTE - 2_000, MINUTE)  # bob's clock starts now
        db.stall_ms = 0
        s.clock.advance(1_000)  # bob answers 1 s after he got the move
        assert (await s.post(f"/api/board/game/{game_id}/move/b8c6", bob)).status_code \
            == 200
        assert entry.live.clocks() == (MINUTE - 2_000, MINUTE - 1_000)
        assert entry.game.clock_ms() == (MINUTE - 2_000, MINUTE - 1_000)  # as recorded

    run(tmp_path, scenario, lag_ms=0)


def test_a_move_arriving_during_a_stall_is_stamped_on_arrival(tmp_path: Path) -> None:
    """Two games: the writer blocks on the first one's move for 10 s; the second game's
    move arrives 4 s into the stall and waits behind it: its mover is charged up to its
    arrival, and neither opponent anything of the stall."""

    async def scenario(s: InProcess, db: StallingDatabase) -> None:
        first, alice, bob = await friendly_game(s, **{"clock.limit": "60"})
        made = await s.post("/api/challenge/bob", alice, data={"color": "white",
                                                               "clock.limit": "60"})
        second = made.json()["id"]
        await s.post(f"/api/challenge/{second}/accept", bob)
        for game in (first, second):
            await play(s, game, "e2e4 e7e5", alice, bob)
        one, two = await s.game(first), await s.game(second)
        db.release = threading.Event()
        stalled = asyncio.ensure_future(s.post(f"/api/board/game/{first}/move/g1f3", alice))
        await asyncio.to_thread(db.blocked.wait, 30)
        s.clock.advance(4_000)
        waiting = asyncio.ensure_future(s.post(f"/api/board/game/{second}/move/d2d4", alice))
        while len(two.moves) < 3:
            await asyncio.sleep(0)  # the second move applied, its commit queued
        s.clock.advance(6_000)
        db.release.set()
        assert (await stalled).status_code == 200
        assert (await waiting).status_code == 200
        assert one.live.clocks() == (MINUTE, MINUTE)  # moved at once; bob not charged
        assert two.live.clocks() == (MINUTE - 4_000, MINUTE)  # charged up to its arrival

    run(tmp_path, scenario, lag_ms=0)


def test_the_lag_compensated_is_charged_to_no_one(tmp_path: Path) -> None:
    async def scenario(s: InProcess, db: StallingDatabase) -> None:
        game_id, alice, bob = await friendly_game(s, **{"clock.limit": "60"})
        await play(s, game_id, "e2e4 e7e5", alice, bob)
        entry = await s.game(game_id)
        s.clock.advance(1_000)
        db.stall_ms = 3_000
        await play(s, game_id, "g1f3", alice, bob)
        # alice is given 300 ms for the network; bob's clock starts at the delivery
        assert entry.live.clocks() == (MINUTE - 700, MINUTE)

    run(tmp_path, scenario)


def test_a_move_in_time_is_not_flagged_while_it_waits(tmp_path: Path) -> None:
    """A move that arrives before its player's flag falls, then waits for the game's
    sequence (held by another command) past that instant, is played, not flagged."""

    async def scenario(s: InProcess, db: StallingDatabase) -> None:
        game_id, alice, bob = await friendly_game(s, **{"clock.limit": "60"})
        await play(s, game_id, "e2e4 e7e5", alice, bob)
        entry = await s.game(game_id)
        s.clock.advance(MINUTE - 500)  # alice has 0.5 s left
        async with entry.sequence:  # another command of the game is being served
            moving = asyncio.ensure_future(
                s.post(f"/api/board/game/{game_id}/move/g1f3", alice))
            while not entry.arrivals:
                await asyncio.sleep(0)
            s.clock.advance(5_000)  # her flag falls while the move waits
            assert s.hub.fire_due() == 0
        moved = await moving
        assert moved.status_code == 200, moved.text
        assert entry.game.outcome is None and entry.live.clocks() == (500, MINUTE)
        s.clock.advance(MINUTE)
        assert s.hub.fire_due() == 1  # bob's flag, which nothing holds back
        flagging = entry.flagging
        assert flagging is not None
        await flagging
        assert json.loads(entry.line)["status"] == "outoftime"

    run(tmp_path, scenario, lag_ms=0)


async def four_players_joined(s: InProcess) -> tuple[dict[str, str], int]:
    """A Swiss tournament's organiser (their headers) and number, four accounts joined."""
    org = await s.account("org")
    players = [await s.account(f"p{n}") for n in range(4)]
    number = (await s.post("/api/tournament/new", org, data={
        "name": "four", "system": "swiss", "rounds": "3"})).json()["id"]
    for headers in players:
        assert (await s.post(f"/api/tournament/{number}/join", headers)).status_code == 200
    return org, int(number)


def test_a_slow_pairing_holds_up_no_game(tmp_path: Path) -> None:
    """A round's pairing that takes long (injected: it waits until the test lets it go)
    runs off the event loop and off the writer: meanwhile an unrelated game's move is
    acknowledged at once, its mover charged exactly his thinking time, the opponent
    nothing; tournament reads still answer."""

    async def scenario(s: InProcess, db: StallingDatabase) -> None:
        org, number = await four_players_joined(s)
        entered, release = threading.Event(), threading.Event()

        def slow_pairing(state: TournamentState) -> list[TournamentEvent]:
            entered.set()
            assert release.wait(30), "never let go"
            return pair_next(state)

        desk = DESKS[s.hub]
        desk.pairing = ThreadPoolExecutor(1)
        desk.pair_round = slow_pairing
        game_id, alice, bob = await friendly_game(s, **{"clock.limit": "60"})
        await play(s, game_id, "e2e4 e7e5", alice, bob)
        pairing = asyncio.ensure_future(s.post(f"/api/tournament/{number}/pair", org))
        assert await asyncio.to_thread(entered.wait, 30)
        s.clock.advance(1_000)
        moved = await asyncio.wait_for(
            s.post(f"/api/board/game/{game_id}/move/g1f3", alice), 10)
        assert moved.status_code == 200 and not pairing.done()
        entry = await s.game(game_id)
        assert entry.live.clocks() == (MINUTE - 1_000, MINUTE)
        standings = await asyncio.wait_for(s.client.get(f"/api/tournament/{number}"), 10)
        assert standings.status_code == 200 and len(standings.json()["players"]) == 4
        assert not pairing.done()
        release.set()
        paired = await pairing
        assert paired.status_code == 200, paired.text
        assert len(paired.json()["boards"]) == 2
        desk.pairing.shutdown()

    run(tmp_path, scenario, lag_ms=0)


def test_a_reader_does_not_wait_for_a_pairing(tmp_path: Path) -> None:
    """The server's own processes: while a round's pairing is held in the pairing process,
    the tournament is rendered for a reader in the rendering process."""

    async def scenario(s: InProcess, db: StallingDatabase) -> None:
        org, number = await four_players_joined(s)
        with get_context("spawn").Manager() as manager:
            began, release = manager.Event(), manager.Event()
            desk = DESKS[s.hub]
            desk.pair_round = partial(held_pairing, began, release)
            pairing = asyncio.ensure_future(s.post(f"/api/tournament/{number}/pair", org))
            try:
                assert await asyncio.to_thread(began.wait, 60), "the pairing never began"
                read = await asyncio.wait_for(s.client.get(f"/api/tournament/{number}"), 60)
                assert read.status_code == 200 and len(read.json()["players"]) == 4
                assert not pairing.done()
            finally:
                release.set()
            paired = await pairing
        assert paired.status_code == 200 and len(paired.json()["boards"]) == 2

    run(tmp_path, scenario, lag_ms=0)


@pytest.mark.long
def test_a_real_400_player_pairing_holds_up_no_game(tmp_path: Path) -> None:
    """Round 2 of a 400-player Swiss (the Dutch system, seconds of CPU) is paired in the
    pairing process while an unrelated game goes on: every move made meanwhile is
    acknowledged promptly and charged exactly its thinking time."""

    async def scenario(s: InProcess, db: StallingDatabase) -> None:
        org = await s.account("org")
        number = (await s.post("/api/tournament/new", org, data={
            "name": "big", "system": "swiss", "rounds": "9"})).json()["id"]
        for n in range(400):
            added = await s.post(f"/api/tournament/{number}/player", org,
                                 data={"name": f"Player {n:03d}", "rating": str(2400 - n)})
            assert added.status_code == 200, added.text
        boards = (await s.post(f"/api/tournament/{number}/pair", org)).json()["boards"]
        for board, _ in enumerate(boards, 1):
            entered = await s.post(f"/api/tournament/{number}/result", org, data={
                "round": "1", "board": str(board), "result": ("1-0", "0-1")[board % 2]})
            assert entered.status_code == 200, entered.text
        game_id, alice, bob = await friendly_game(s, **{"clock.limit": "600"})
        await play(s, game_id, "e2e4 c7c6", alice, bob)  # then a real game's moves
        entry = await s.game(game_id)
        pairing = asyncio.ensure_future(s.post(f"/api/tournament/{number}/pair", org))
        acks = []
        for ply, move in enumerate(GAME.split()):
            if pairing.done():
                break
            before = entry.live.clocks()
            assert before is not None
            s.clock.advance(100)  # the mover thinks
            began = time.perf_counter()
            moved = await s.post(f"/api/board/game/{game_id}/move/{move}",
                                 (alice, bob)[ply % 2])
            acks.append(time.perf_counter() - began)
            assert moved.status_code == 200, moved.text
            after = entry.live.clocks()
            assert after is not None
            mover = ply % 2
            assert before[mover] - after[mover] == 100 and before[1 - mover] == after[1 - mover]
        paired = await pairing
        assert paired.status_code == 200 and len(paired.json()["boards"]) == 200
        assert len(acks) >= 3, "the pairing ended before the game could move"
        assert max(acks) < 1.0, acks

    run(tmp_path, scenario, lag_ms=0)
