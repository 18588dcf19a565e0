"""Restarts (docs/server.md, "Storage and restarts"): the server listens at once whatever
the number of unfinished games, loads each game when it is asked for or due (its flag, a
late first move), and charges the time it was down to no one: each game's time runs on
from its last event from the instant the server listens."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from chessarbiter.arbiter.game import Game
from chessarbiter.clock.parse import parse_control
from chessarbiter.clock.records import Side
from chessarbiter.laws.profiles import FIDE_2023
from chessarbiter.server.accounts import Role
from chessarbiter.server.games.meta import Seat, new_id
from chessarbiter.server.limits import START_TIMEOUT_MS
from tests.clock.fake_time import FakeTime
from tests.server.helpers import InProcess, in_process
from tests.server.test_api import friendly_game, play
from tests.server.test_crash_outage import moved

MINUTE = 60_000
HOUR = 60 * MINUTE

Step = Callable[[InProcess], Awaitable[None]]


def served(db: Path, *steps: Step, starts: list[float] | None = None,
           timers: bool = False) -> None:
    """Each step on a server started afresh on ``db`` (a restart between two), the clock
    going on (the downtime between two: an hour); ``starts`` gets how long each start took
    (the app's lifespan, after which the server listens; seconds)."""

    async def main() -> None:
        clock = FakeTime()
        for step in steps:
            async with in_process(db, clock, starts=starts, timers=timers) as server:
                await step(server)
            clock.advance(HOUR)

    asyncio.run(main())


def clone(db: Path, game_id: str, copies: int) -> list[str]:
    """``copies`` copies of the game ``game_id`` (its log, players and deadline) written in
    one transaction: a server with thousands of unfinished games in a moment."""
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        conn.execute("BEGIN")
        store_id, meta = conn.execute("SELECT store_id, meta FROM server_games WHERE id = ?",
                                      (game_id,)).fetchone()
        game = conn.execute("SELECT setup, start, log_version, solver, tags, created_ms, "
                            "updated_ms, outcome FROM games WHERE id = ?",
                            (int(store_id),)).fetchone()
        events = conn.execute("SELECT seq, at_ms, kind, json FROM events WHERE game_id = ?",
                              (int(store_id),)).fetchall()
        deadline = conn.execute("SELECT white, black, events, due_ms FROM server_deadlines "
                                "WHERE game = ?", (game_id,)).fetchone()
        ids = []
        for _ in range(copies):
            number = conn.execute("INSERT INTO games (setup, start, log_version, solver, "
                                  "tags, created_ms, updated_ms, outcome) VALUES "
                                  "(?, ?, ?, ?, ?, ?, ?, ?)", game).lastrowid
            conn.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                             [(number, *event) for event in events])
            public = new_id()
            data = json.loads(meta) | {"id": public, "store_id": str(number)}
            conn.execute("INSERT INTO server_games (id, store_id, meta) VALUES (?, ?, ?)",
                         (public, str(number), json.dumps(data)))
            conn.execute("INSERT INTO server_deadlines VALUES (?, ?, ?, ?, ?)",
                         (public, *deadline))
            ids.append(public)
        conn.execute("COMMIT")
        return ids
    finally:
        conn.close()


def restart_with(tmp_path: Path, copies: int, limit_s: float) -> None:
    db = tmp_path / "games.sqlite"
    found: dict[str, str] = {}

    async def before(s: InProcess) -> None:
        game_id, alice, bob = await friendly_game(s, **{"clock.limit": "60"})
        await play(s, game_id, "e2e4 e7e5", alice, bob)
        found.update(game=game_id, bob=bob["Authorization"], alice=alice["Authorization"])

    async def after(s: InProcess) -> None:
        listening = s.clock.ms
        assert len(s.services.dormant) == copies + 1 and not s.hub.games
        s.clock.advance(10_000)
        copy = ids[copies // 2]
        entry = await s.game(copy)  # loaded when asked for: 10 s since the server listens
        assert entry.moves == ["e2e4", "e7e5"] and entry.live.clocks() == (50_000, MINUTE)
        assert len(s.hub.games) == 1
        moved = await s.post(f"/api/board/game/{copy}/move/g1f3", {"Authorization":
                                                                   found["alice"]})
        assert moved.status_code == 200, moved.text
        assert s.services.dormant.due(listening + MINUTE - 1) == []
        due = s.services.dormant.due(listening + MINUTE)  # every other game's flag falls then
        assert len(due) == copies and copy not in due

    served(db, before)
    ids = clone(db, found["game"], copies)
    starts: list[float] = []
    served(db, after, starts=starts)
    assert starts[0] < limit_s, f"{copies + 1} games: started in {starts[0]:.2f} s"


def test_a_restart_with_thousands_of_unfinished_games_listens_at_once(tmp_path: Path
                                                                     ) -> None:
    restart_with(tmp_path, 3_000, 2.0)


@pytest.mark.long
def test_a_restart_with_20000_unfinished_games_listens_at_once(tmp_path: Path) -> None:
    restart_with(tmp_path, 20_000, 2.0)


def test_the_downtime_is_charged_to_no_one(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    found: dict[str, str] = {}

    async def before(s: InProcess) -> None:
        game_id, alice, bob = await friendly_game(s, **{"clock.limit": "300"})
        await play(s, game_id, "e2e4 e7e5", alice, bob)
        s.clock.advance(4_000)  # alice thinks; the server stops before her move
        found.update(game=game_id, alice=alice["Authorization"])

    async def after(s: InProcess) -> None:  # an hour later
        s.clock.advance(2_000)
        data = (await s.client.get(f"/api/game/{found['game']}")).json()
        assert data["state"]["moves"] == "e2e4 e7e5"
        assert (data["state"]["wtime"], data["state"]["btime"]) == (298_000, 300_000)
        s.clock.advance(1_000)
        moved = await s.post(f"/api/board/game/{found['game']}/move/g1f3",
                             {"Authorization": found["alice"]})
        assert moved.status_code == 200, moved.text
        entry = await s.game(found["game"])
        assert entry.game.clock_ms() == (297_300, 300_000)  # 3 s since it listens, less
        # the lag compensation (300 ms)

    served(db, before, after)


def test_untouched_games_flag_when_due(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    found: dict[str, str] = {}

    async def before(s: InProcess) -> None:
        game_id, alice, bob = await friendly_game(s, **{"clock.limit": "60"})
        await play(s, game_id, "e2e4 e7e5", alice, bob)
        found["game"] = game_id

    async def after(s: InProcess) -> None:
        s.clock.advance(MINUTE - 1)
        assert await s.services.dormant.wake_due() == 0 and not s.hub.games
        s.clock.advance(1)
        assert await s.services.dormant.wake_due() == len(ids) + 1
        lag = s.hub.games[found["game"]].lag_ms
        assert lag > 0 and s.hub.fire_due() == 0  # the lag allowed, as to a live game
        s.clock.advance(lag)
        assert s.hub.fire_due() == len(ids) + 1
        for game_id in (found["game"], *ids):
            flagging = s.hub.games[game_id].flagging
            if flagging is not None:
                await flagging
            state = json.loads(s.hub.games[game_id].line)
            assert (state["status"], state["winner"]) == ("outoftime", "black")

    served(db, before)
    ids = clone(db, found["game"], 5)
    served(db, after)


@pytest.mark.parametrize("late_ms", [200, 301])
def test_a_game_woken_after_its_flag_fell_has_the_lag_allowed(tmp_path: Path,
                                                              late_ms: int) -> None:
    """A game loaded at or after its due time (its flag fallen) is flagged by the rule of a
    live game's flag timer: a move that arrives within the lag allowance (300 ms) is
    played exactly as without the restart; one that comes later finds the flag fallen."""
    answers: dict[str, tuple[int, object]] = {}

    def scenario(restart: bool) -> None:
        db = tmp_path / f"{restart}.sqlite"
        found: dict[str, str] = {}

        async def before(s: InProcess) -> None:
            game_id, alice, bob = await friendly_game(s, **{"clock.limit": "60"})
            await play(s, game_id, "e2e4 e7e5", alice, bob)
            found.update(game=game_id, alice=alice["Authorization"])
            if not restart:
                await after(s)

        async def after(s: InProcess) -> None:
            s.clock.advance(MINUTE + late_ms)
            if restart:
                # loaded by its timer, then the move
                assert await s.services.dormant.wake_due() == 1
            moved = await s.post(f"/api/board/game/{found['game']}/move/g1f3",
                                 {"Authorization": found["alice"]})
            entry = await s.game(found["game"])
            answers[str(restart)] = (moved.status_code, entry.game.clock_ms())

        served(db, before, after) if restart else served(db, before)

    scenario(restart=False)
    scenario(restart=True)
    assert answers["True"] == answers["False"]
    assert answers["True"] == ((200, (300 - late_ms, MINUTE)) if late_ms < 300
                               else (400, (0, MINUTE)))


def test_a_stale_deadline_makes_the_game_due_at_once(tmp_path: Path) -> None:
    """A crash between a batch's commit and its deadlines' update leaves a line that is
    not the log's: the game is loaded at once, not when the line says."""
    db = tmp_path / "games.sqlite"
    found: dict[str, str] = {}

    async def before(s: InProcess) -> None:
        game_id, alice, bob = await friendly_game(s, **{"clock.limit": "60"})
        await play(s, game_id, "e2e4 e7e5", alice, bob)
        found["game"] = game_id

    async def after(s: InProcess) -> None:
        assert found["game"] in s.services.dormant
        assert await s.services.dormant.wake_due() == 1
        assert found["game"] in s.hub.games

    async def timed(s: InProcess) -> None:  # the game's timer wakes it (due now)
        async def woken() -> None:
            while found["game"] not in s.hub.games:
                await asyncio.sleep(0)

        await asyncio.wait_for(woken(), 30)
        assert found["game"] not in s.services.dormant

    served(db, before)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE server_deadlines SET events = events - 1, due_ms = ?",
                     (HOUR,))
    conn.close()
    served(db, after)
    served(db, timed, timers=True)


def test_a_game_nobody_starts_is_aborted_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    found: dict[str, str] = {}

    async def before(s: InProcess) -> None:
        game_id, _, _ = await friendly_game(s, **{"clock.limit": "60"})
        found["game"] = game_id

    async def after(s: InProcess) -> None:
        s.clock.advance(START_TIMEOUT_MS - 1)
        assert await s.services.dormant.wake_due() == 0
        s.clock.advance(1)
        assert await s.services.dormant.wake_due() == 1
        assert s.hub.unstarted.abort_due() == 1
        entry = await s.game(found["game"])
        while not entry.over:
            await asyncio.sleep(0)
        assert json.loads(entry.line)["status"] == "aborted"

    served(db, before, after)


def test_a_players_games_are_listed_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    found: dict[str, str] = {}

    async def before(s: InProcess) -> None:
        game_id, alice, bob = await friendly_game(s, **{"clock.limit": "300"})
        await play(s, game_id, "e2e4 e7e5", alice, bob)
        found.update(game=game_id, alice=alice["Authorization"])

    async def after(s: InProcess) -> None:
        assert not s.hub.games
        answer = await s.client.get("/api/account/playing",
                                    headers={"Authorization": found["alice"]})
        games = answer.json()["nowPlaying"]
        assert [g["gameId"] for g in games] == [found["game"]] and games[0]["isMyTurn"]

    served(db, before, after)


def test_an_interrupted_board_game_is_loaded_at_once_for_the_arbiter(tmp_path: Path) -> None:
    """An over-the-board game is interrupted by a restart (its clocks stopped at its last
    event, docs/server-ops.md "Outage"): it is due at once, so the arbiter finds it in his
    list of games without anyone asking for it first."""
    db = tmp_path / "games.sqlite"
    found: dict[str, str] = {}

    async def before(s: InProcess) -> None:
        entry = await s.hub.create_game(Game(FIDE_2023, parse_control("5+0")), Seat(),
                                        Seat(), source="open")
        for side, uci in ((Side.WHITE, "e2e4"), (Side.BLACK, "e7e5")):
            s.clock.advance(10_000)
            await s.hub.act(entry, side, moved(side, uci))
        found["game"] = entry.id

    async def after(s: InProcess) -> None:
        assert await s.services.dormant.wake_due() == 1
        entry = s.hub.games[found["game"]]
        assert entry.game.log[-1].kind == "stop-clocks"
        assert entry.live.clocks() == (5 * MINUTE - 10_000, 5 * MINUTE - 10_000)

    served(db, before, after)


def test_the_arbiters_list_loads_only_the_games_he_must_act_on(tmp_path: Path) -> None:
    """With thousands of dormant games, the arbiter's list loads the interrupted board game
    (his to restart) and lists the sleeping clock games from their lines, none loaded."""
    db = tmp_path / "games.sqlite"
    found: dict[str, str] = {}

    async def before(s: InProcess) -> None:
        game_id, alice, bob = await friendly_game(s, **{"clock.limit": "60"})
        await play(s, game_id, "e2e4 e7e5", alice, bob)
        board = await s.hub.create_game(Game(FIDE_2023, parse_control("5+0")), Seat(),
                                        Seat(), source="open")
        for side, uci in ((Side.WHITE, "e2e4"), (Side.BLACK, "e7e5")):
            await s.hub.act(board, side, moved(side, uci))
        judge = await s.account("judge", Role.ARBITER)
        account = (await s.client.get("/api/account", headers=alice)).json()["id"]
        found.update(game=game_id, board=board.id, judge=judge["Authorization"],
                     alice=account)

    async def after(s: InProcess) -> None:
        s.clock.advance(1_000)
        answer = await s.client.get("/api/arbiter/games",
                                    headers={"Authorization": found["judge"]})
        assert answer.status_code == 200, answer.text
        listed = answer.json()
        assert [g["id"] for g in listed["games"]] == [found["board"]]
        assert listed["games"][0]["clockRunning"] is False  # stopped for him (S6.12)
        assert set(s.hub.games) == {found["board"]}  # no clock game loaded
        sleeping = {g["id"]: g for g in listed["dormant"]}
        assert set(sleeping) == {found["game"], *ids} == set(s.services.dormant.games)
        assert {(g["white"], g["dueInMs"]) for g in sleeping.values()} \
            == {(found["alice"], MINUTE - 1_000)}

    served(db, before)
    ids = clone(db, found["game"], 2_000)
    served(db, after)
