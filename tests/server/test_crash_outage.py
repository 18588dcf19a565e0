"""The outage rule (server/games/outage.py): the clocks of a game resumed from the store after the
server was down, on an injected time source (no sleeping)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from chessarbiter.arbiter import ClocksSet, ClocksStarted, Moved
from chessarbiter.arbiter.errors import ArbiterError
from chessarbiter.arbiter.game import Game
from chessarbiter.clock import Side, parse_control
from chessarbiter.laws.profiles import FIDE_2023, ONLINE, Outage, RuleProfile
from chessarbiter.server.app import open_services
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.errors import ApiError
from chessarbiter.server.games.meta import Seat
from chessarbiter.server.games.outage import recover
from chessarbiter.session.live import LiveGame
from chessarbiter.store import Recording, SqliteStore

MINUTE = 60_000


class FakeTime:
    """A wall clock in ms that moves only when told."""

    def __init__(self, now: int) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now


def play_then_crash(path: Path, profile: RuleProfile, wall: FakeTime) -> str:
    """Four acknowledged moves at known times (10 s each), then the process 'dies': nothing
    is closed, the store is simply dropped. Returns the game's id."""
    store = SqliteStore(path)
    game = Game(profile, parse_control("5+0"))
    game_id = store.create(game)
    live = LiveGame(game, now=wall, journal=Recording(store, game_id, game))
    live.start()
    for side, move in ((Side.WHITE, "e4"), (Side.BLACK, "e5"), (Side.WHITE, "Nf3"),
                       (Side.BLACK, "Nc6")):
        wall.now += 10_000
        live.move(side, move)
    wall.now += 25_000  # White thinks 25 s, then the server is killed
    return game_id


def resume(path: Path, game_id: str, wall: FakeTime) -> LiveGame:
    store = SqliteStore(path)
    game = store.load(game_id)
    return LiveGame(game, now=wall, journal=Recording(store, game_id, game))


def test_online_clocks_resume_from_the_last_acknowledged_move(tmp_path: Path) -> None:
    wall = FakeTime(1_000_000)
    game_id = play_then_crash(tmp_path / "g.sqlite", ONLINE, wall)
    before = (5 * MINUTE - 10_000, 5 * MINUTE - 10_000)  # clocks start once both have moved
    wall.now += 3_600_000  # down for an hour
    live = resume(tmp_path / "g.sqlite", game_id, wall)
    assert recover(live) == ()
    assert live.clocks() == before  # neither the 25 s before the crash nor the hour counts
    wall.now += 4_000
    assert live.clocks() == (before[0] - 4_000, before[1])  # White's clock runs at once
    live.move(Side.WHITE, "Bb5")
    assert live.game.clock_ms() == (before[0] - 4_000, before[1])
    assert len(live.game.records) == 5


def test_online_flag_at_the_last_event_is_recorded_on_recovery(tmp_path: Path) -> None:
    wall = FakeTime(0)
    store = SqliteStore(tmp_path / "g.sqlite")
    game = Game(ONLINE, parse_control("1+0"))
    game_id = store.create(game)
    live = LiveGame(game, now=wall, journal=Recording(store, game_id, game))
    live.move(Side.WHITE, "e4")
    live.move(Side.BLACK, "e5")
    wall.now += MINUTE  # White's whole minute, then the crash before the flag was recorded
    live.observe_flag()
    assert live.game.is_over
    resumed = resume(tmp_path / "g.sqlite", game_id, wall)
    assert recover(resumed) == ()  # over: nothing to do
    assert resumed.game.outcome == live.game.outcome


@pytest.mark.parametrize("profile", [FIDE_2023, ONLINE], ids=lambda p: p.name)
def test_the_rule_is_a_profile_field(profile: RuleProfile) -> None:
    expected = Outage.RESUME if profile is ONLINE else Outage.ARBITER
    assert profile.outage is expected
    assert RuleProfile.from_dict(profile.to_dict()).outage is expected


def test_over_the_board_clocks_stay_stopped_until_the_arbiter_restarts_them(
    tmp_path: Path,
) -> None:
    wall = FakeTime(5_000)
    game_id = play_then_crash(tmp_path / "g.sqlite", FIDE_2023, wall)
    before = (5 * MINUTE - 20_000, 5 * MINUTE - 20_000)  # White's clock started at 0
    wall.now += 600_000
    live = resume(tmp_path / "g.sqlite", game_id, wall)
    decisions = recover(live)
    assert [d.article for d in decisions] == ["6.12"]
    assert live.game.log[-1].kind == "stop-clocks"
    wall.now += 30_000
    assert live.clocks() == before  # stopped: the wait for the arbiter is charged to no one
    with pytest.raises(ArbiterError, match="clocks are not running"):
        live.move(Side.WHITE, "Bb5")
    # the arbiter sets the clocks on the evidence (White had thought 25 s: S6.13), restarts
    live.apply(ClocksSet(live.time(), before[0] - 25_000, before[1], "server restart"))
    live.apply(ClocksStarted(live.time()))
    wall.now += 1_000
    live.move(Side.WHITE, "Bb5")
    assert live.game.clock_ms() == (before[0] - 26_000, before[1])
    # the ruling is in the store: a second restart finds it, and the clocks running again
    again = resume(tmp_path / "g.sqlite", game_id, wall)
    assert again.game.clock_ms() == live.game.clock_ms()
    assert [d.article for d in recover(again)] == ["6.12"]


def test_recovery_of_a_game_whose_clocks_are_already_stopped_changes_nothing(
    tmp_path: Path,
) -> None:
    wall = FakeTime(0)
    game_id = play_then_crash(tmp_path / "g.sqlite", FIDE_2023, wall)
    live = resume(tmp_path / "g.sqlite", game_id, wall)
    recover(live)
    events = len(live.game.log)
    again = resume(tmp_path / "g.sqlite", game_id, wall)
    assert recover(again) == ()
    assert len(again.game.log) == events


def moved(side: Side, uci: str) -> Callable[[int], Moved]:
    return lambda at: Moved(at, side, uci)


def test_the_hub_applies_the_rule_to_every_game_it_resumes(tmp_path: Path) -> None:
    """The server's recovery (Hub.start) calls recover(): after a restart an over-the-board
    game waits for the arbiter, an online game goes on at once; neither is charged the
    outage."""
    wall = FakeTime(0)
    config = ServerConfig(db=tmp_path / "games.sqlite", now_ms=wall, timers=False)

    async def before() -> dict[str, str]:
        hub = open_services(config).hub
        await hub.start()
        ids = {}
        for profile in (FIDE_2023, ONLINE):
            entry = await hub.create_game(Game(profile, parse_control("5+0")), Seat(), Seat(),
                                          source="open")
            for side, uci in ((Side.WHITE, "e2e4"), (Side.BLACK, "e7e5")):
                wall.now += 10_000
                await hub.act(entry, side, moved(side, uci))
            ids[profile.name] = entry.id
        wall.now += 7_000  # White thinks, then the server goes down
        await hub.stop()
        return ids

    async def after(ids: dict[str, str]) -> None:
        wall.now += 3_600_000
        hub = open_services(config).hub
        await hub.start()
        assert not hub.games  # each loaded when first asked for
        board = await hub.get(ids[FIDE_2023.name])
        online = await hub.get(ids[ONLINE.name])
        assert board.game.log[-1].kind == "stop-clocks"
        assert online.game.log[-1].kind == "move"
        wall.now += 2_000
        assert board.live.clocks() == (5 * MINUTE - 10_000, 5 * MINUTE - 10_000)
        assert online.live.clocks() == (5 * MINUTE - 2_000, 5 * MINUTE)  # clocks start at
        # the second move online; White's runs from the restart
        with pytest.raises(ApiError, match="clocks are not running"):
            await hub.act(board, Side.WHITE, moved(Side.WHITE, "g1f3"))
        await hub.act(online, Side.WHITE, moved(Side.WHITE, "g1f3"))
        await hub.stop()

    asyncio.run(after(asyncio.run(before())))
