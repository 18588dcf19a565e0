"""Correspondence games on the server (lichess' ``days``), in process on a hand-driven
calendar (tests never sleep): challenges, open challenges, seeks and games against the
engine made with ``days``, lichess' fields validated against its own specification, the
deadline's flag, the first move's wait, and a restart that does not move a deadline."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from chessarbiter.clock.correspondence import DAY
from chessarbiter.server.games.table import ndjson
from tests.clock.fake_time import FakeTime
from tests.server.helpers import InProcess, in_process, memory_lobby
from tests.server.lichess_spec import SPECS, violations

HOUR = 3_600_000
JSON = "application/json"
NDJSON = "application/x-ndjson"


@asynccontextmanager
async def served(db: Path, clock: FakeTime, timers: bool = False) -> AsyncIterator[InProcess]:
    """The app over a hub whose monotonic clock and calendar are both ``clock``."""
    async with in_process(db, clock, calendar_ms=clock, timers=timers) as server:
        yield server


def run(tmp_path: Path, scenario: Callable[[InProcess], Awaitable[None]]) -> None:
    async def main() -> None:
        async with served(tmp_path / "games.sqlite", FakeTime(1_700_000_000_000)) as server:
            await scenario(server)

    asyncio.run(main())


def valid(method: str, path: str, body: bytes | dict[str, Any], media: str = JSON,
          status: int = 200) -> None:
    """``body`` breaks nothing of lichess' schema for ``path`` answering ``status``."""
    if not SPECS.exists():  # pragma: no cover - the shared folder is laid beside the checkout
        pytest.skip("lichess' specification is not in shared/")
    text = ndjson(body) if isinstance(body, dict) else body
    assert violations(method, path, status, text, media) == []


async def until(test: Callable[[], bool]) -> None:
    """Until ``test()`` holds (work on the loop or in a worker thread), 10 s at most."""
    for _ in range(1000):
        if test():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("never came")


async def accepted_game(s: InProcess, days: str = "3") -> tuple[str, dict[str, str],
                                                                dict[str, str]]:
    """alice (white) challenges bob to a correspondence game; bob accepts."""
    alice, bob = await s.account("alice"), await s.account("bob")
    made = await s.post("/api/challenge/bob", alice, data={"days": days, "color": "white"})
    assert made.status_code == 200, made.text
    valid("post", "/api/challenge/{username}", made.content)
    challenge = made.json()
    assert challenge["timeControl"] == {"type": "correspondence", "daysPerTurn": int(days)}
    assert (challenge["speed"], challenge["perf"]["name"]) == ("correspondence",
                                                               "Correspondence")
    assert (await s.post(f"/api/challenge/{challenge['id']}/accept", bob)).status_code == 200
    return challenge["id"], alice, bob


async def moves(s: InProcess, game_id: str, played: str, *players: dict[str, str]) -> None:
    for ply, uci in enumerate(played.split()):
        s.clock.advance(HOUR)
        answer = await s.post(f"/api/board/game/{game_id}/move/{uci}", players[ply % 2])
        assert answer.status_code == 200, answer.text


def test_a_challenge_with_days_is_a_correspondence_game_lost_on_its_deadline(
        tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        game_id, alice, bob = await accepted_game(s)
        entry = await s.game(game_id)
        full = entry.full()
        valid("get", "/api/board/game/stream/{gameId}", full, NDJSON)
        assert (full["daysPerTurn"], full["speed"], "clock" in full) == (3, "correspondence",
                                                                         False)
        assert full["timeControl"]["words"] == "3 days per move (correspondence)"
        game = entry.game_event(entry.game.to_move)
        valid("get", "/api/stream/event", {"type": "gameStart", "game": game}, NDJSON)
        assert game["speed"] == game["perf"] == "correspondence"
        await moves(s, game_id, "e2e4 e7e5 g1f3", alice, bob)
        state = entry.state()  # after the move (stamped with the lag allowed: 300 ms earlier)
        assert (state["wtime"], state["btime"]) == (3 * DAY, 3 * DAY)
        s.clock.advance(2 * DAY + 5 * HOUR)
        left = DAY - 5 * HOUR - entry.lag_ms
        assert entry.state(now=True)["btime"] == left
        playing = await s.client.get("/api/account/playing", headers=bob)
        valid("get", "/api/account/playing", playing.content)
        assert playing.json()["nowPlaying"][0]["secondsLeft"] == left // 1000
        s.clock.advance(left + entry.lag_ms - 1)  # a flag counts once the lag allowed passed
        assert s.hub.fire_due() == 0
        s.clock.advance(1)
        assert s.hub.fire_due() == 1
        await until(lambda: entry.over)  # the ruling's analysis runs in a worker thread
        state = entry.state()
        assert (state["status"], state["winner"]) == ("outoftime", "white")
        exported = await s.client.get(f"/game/export/{game_id}", headers={"Accept": JSON})
        valid("get", "/game/export/{gameId}", exported.content)
        data = exported.json()
        assert (data["daysPerTurn"], data["speed"], "clock" in data) == (3, "correspondence",
                                                                         False)

    run(tmp_path, scenario)


def test_days_are_read_as_lichess_reads_them(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        alice = await s.account("alice")
        await s.account("bob")
        for days, says in (("4", "expected one of [1, 2, 3, 5, 7, 10, 14]"),
                           ("x", "'x': expected one of")):
            refused = await s.post("/api/challenge/bob", alice, data={"days": days})
            assert refused.status_code == 400 and says in refused.json()["error"]
        mixed = await s.post("/api/challenge/bob", alice,
                             data={"days": "3", "clock.limit": "300"})
        assert "clock.limit cannot go with it" in mixed.json()["error"]
        board = await s.post("/api/challenge/bob", alice, data={"days": "3",
                                                                "profile": "fide-2023"})
        assert board.status_code == 400
        assert "fide-2023 profile does not play correspondence" in board.json()["error"]
        written = await s.post("/api/challenge/bob", alice, data={"timeControl": "corr 7d"})
        assert written.json()["timeControl"] == {"type": "correspondence", "daysPerTurn": 7}
        bad = await s.post("/api/challenge/bob", alice, data={"timeControl": "corr 0d"})
        assert bad.status_code == 400 and "'corr 0d'" in bad.json()["error"]
        berserk = await s.post("/api/challenge/bob", alice, json={"days": None,
                                                                   "clock.limit": 300})
        assert berserk.json()["timeControl"]["type"] == "clock"
        opened = await s.post("/api/challenge/open", data={"days": "2"})
        valid("post", "/api/challenge/open", opened.content)
        assert opened.json()["timeControl"]["daysPerTurn"] == 2
        ai = await s.post("/api/challenge/ai", alice, data={"days": "1", "level": "1",
                                                            "color": "black"})
        assert ai.status_code == 201 and ai.json()["speed"] == "correspondence"
        valid("post", "/api/challenge/ai", ai.content, status=201)
        engine_game = await s.game(ai.json()["id"])
        await until(lambda: len(engine_game.moves) == 1)  # days are no budget: it moves

    run(tmp_path, scenario)


def test_correspondence_seeks_answer_at_once_and_pair(tmp_path: Path) -> None:
    """lichess: a correspondence seek is answered at once with its id and stays until
    someone joins it; the game comes on both event streams."""
    async def scenario(s: InProcess) -> None:
        alice, bob = await s.account("alice"), await s.account("bob")
        first = await s.post("/api/board/seek", alice, data={"days": "5"})
        assert first.status_code == 200 and first.headers["content-type"] == JSON
        valid("post", "/api/board/seek", first.content)
        assert s.hub.games == {}
        again = await s.post("/api/board/seek", alice, data={"days": "5"})  # not with herself
        other = await s.post("/api/board/seek", bob, data={"days": "3"})  # not the same game
        assert len({first.json()["id"], again.json()["id"], other.json()["id"]}) == 3
        await until(lambda: len(memory_lobby(s.services).seeks) == 3)  # all three wait
        assert s.hub.games == {}
        joined = await s.post("/api/board/seek", bob, data={"days": "5"})
        valid("post", "/api/board/seek", joined.content)
        await until(lambda: bool(s.hub.games))
        (entry,) = s.hub.games.values()
        assert {entry.meta.white.name, entry.meta.black.name} == {"alice", "bob"}
        assert entry.full()["daysPerTurn"] == 5
        anonymous = await s.post("/api/board/seek", data={"days": "5"})
        assert anonymous.status_code == 401 and "account" in anonymous.json()["error"]

    run(tmp_path, scenario)


def test_a_first_move_may_take_the_days_not_a_minute(tmp_path: Path) -> None:
    """A clock game not started within a minute is aborted; a correspondence game waits
    its days per move for each side's first move."""
    async def scenario(s: InProcess) -> None:
        game_id, alice, _ = await accepted_game(s, days="1")
        entry = await s.game(game_id)
        s.clock.advance(23 * HOUR)
        assert s.hub.unstarted.abort_due() == 0
        await moves(s, game_id, "e2e4", alice)
        s.clock.advance(23 * HOUR)
        assert s.hub.unstarted.abort_due() == 0
        s.clock.advance(HOUR)
        assert s.hub.unstarted.abort_due() == 1
        await until(lambda: entry.meta.aborted)

    run(tmp_path, scenario)


def test_a_restart_does_not_move_the_deadline(tmp_path: Path) -> None:
    """The server stops a day into Black's three days and starts again a day later: Black
    has a day left, the flag falls at the deadline, dated when it passed."""
    async def main() -> None:
        clock = FakeTime(1_700_000_000_000)
        db = tmp_path / "games.sqlite"
        async with served(db, clock) as s:
            game_id, alice, bob = await accepted_game(s)
            await moves(s, game_id, "e2e4 e7e5 g1f3", alice, bob)
            deadline = clock.ms - (await s.game(game_id)).lag_ms + 3 * DAY
            clock.advance(DAY)
        clock.advance(DAY)
        async with served(db, clock) as s:
            entry = await s.game(game_id)
            assert entry.state(now=True)["btime"] == DAY - entry.lag_ms
            clock.advance(DAY - 1 - entry.lag_ms)
            assert s.hub.fire_due() == 0
            clock.advance(HOUR)
            assert s.hub.fire_due() == 1
            await until(lambda: entry.over)
            assert entry.state()["status"] == "outoftime"
            (flag,) = entry.game.state().flags
            assert flag.at_ms + entry.meta.created_ms == deadline
        async with served(db, clock) as s:
            replayed = await s.game(game_id)
            assert replayed.game.state() == entry.game.state()

    asyncio.run(main())


def test_the_flag_timer_is_one_loop_handle_days_ahead(tmp_path: Path) -> None:
    """The days-long deadline is one timer on the event loop's heap, at the deadline."""
    async def main() -> None:
        clock = FakeTime(1_700_000_000_000)
        async with served(tmp_path / "games.sqlite", clock, timers=True) as s:
            game_id, alice, bob = await accepted_game(s, days="14")
            await moves(s, game_id, "e2e4 e7e5", alice, bob)
            entry = await s.game(game_id)
            assert isinstance(entry.timer, asyncio.TimerHandle)
            ahead = entry.timer.when() - asyncio.get_running_loop().time()
            assert 14 * DAY / 1000 - 5 < ahead <= 14 * DAY / 1000
            assert json.loads(entry.line)["btime"] == 14 * DAY

    asyncio.run(main())


def test_a_deadline_passed_while_the_server_was_down_is_recorded_at_the_start(
        tmp_path: Path) -> None:
    async def main() -> None:
        clock = FakeTime(1_700_000_000_000)
        db = tmp_path / "games.sqlite"
        async with served(db, clock) as s:
            game_id, alice, bob = await accepted_game(s, days="1")
            await moves(s, game_id, "e2e4 e7e5", alice, bob)
            fell = clock.ms - (await s.game(game_id)).lag_ms + DAY
        clock.advance(4 * DAY)
        async with served(db, clock) as s:
            entry = await s.game(game_id)
            assert (entry.state()["status"], entry.state()["winner"]) == ("outoftime",
                                                                          "black")
            assert entry.game.state().flags[0].at_ms + entry.meta.created_ms == fell

    asyncio.run(main())


def test_a_restarted_server_wakes_its_correspondence_games_at_once(tmp_path: Path) -> None:
    """A correspondence game is due as soon as the server listens (its deadline is a date,
    which the time down may have passed), where a clock game sleeps until asked for; its
    date survives the pause that delivering a move makes."""
    async def main() -> None:
        clock = FakeTime(1_700_000_000_000)
        db = tmp_path / "games.sqlite"
        async with served(db, clock) as s:
            game_id, alice, bob = await accepted_game(s, days="1")
            await moves(s, game_id, "e2e4 e7e5", alice, bob)
            entry = await s.game(game_id)
            before = entry.live.time()
            entry.live.pause()
            clock.advance(HOUR)
            entry.live.resume()
            assert entry.live.time() == before + HOUR  # the calendar ran on
        clock.advance(2 * DAY)
        async with served(db, clock) as s:
            assert game_id in s.services.dormant
            assert await s.services.dormant.wake_due() == 1
            assert game_id not in s.services.dormant
            entry = s.hub.games[game_id]
            await until(lambda: entry.over)
            assert entry.state()["status"] == "outoftime"

    asyncio.run(main())
