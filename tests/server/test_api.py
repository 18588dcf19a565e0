"""The Board API in process: challenges, moves, who may act, draws, claims, flags, aborts
and resuming after a restart (a hand-driven clock: no test waits for time to pass)."""

from __future__ import annotations

import asyncio
import json
import shlex
import sys
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from chessarbiter.arbiter import oracles
from chessarbiter.arbiter.events import ClocksSet, Resigned
from chessarbiter.clock import Side
from chessarbiter.laws.deadpos import Verdict, Winnability
from chessarbiter.server import background
from chessarbiter.server.accounts import Role
from chessarbiter.server.app import open_services
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.games.keepalive import KEEP_FINISHED_S, evict_finished
from tests.server.helpers import InProcess, in_process, next_line, queen_ending

Scenario = Callable[[InProcess], Awaitable[None]]


def run(tmp_path: Path, scenario: Scenario, **settings: Any) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "games.sqlite", **settings) as server:
            await scenario(server)

    asyncio.run(main())


async def friendly_game(s: InProcess, **fields: object) -> tuple[str, dict[str, str],
                                                                 dict[str, str]]:
    """alice (white) challenges bob, who accepts: the game id and both headers."""
    alice = await s.account("alice")
    bob = await s.account("bob")
    made = await s.post("/api/challenge/bob", alice, data={"color": "white", **fields})
    assert made.status_code == 200, made.text
    game_id = made.json()["id"]
    accepted = await s.post(f"/api/challenge/{game_id}/accept", bob)
    assert accepted.status_code == 200, accepted.text
    return game_id, alice, bob


async def play(s: InProcess, game_id: str, moves: str, white: dict[str, str],
               black: dict[str, str]) -> None:
    for ply, move in enumerate(moves.split()):
        answer = await s.post(f"/api/board/game/{game_id}/move/{move}",
                              white if ply % 2 == 0 else black)
        assert answer.status_code == 200, answer.text


def test_account_needs_a_token(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        assert (await s.client.get("/api/account")).status_code == 401
        wrong = await s.client.get("/api/account", headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401
        assert wrong.json() == {"error": "no such token"}
        alice = await s.account("alice")
        me = (await s.client.get("/api/account", headers=alice)).json()
        assert (me["id"], me["username"]) == ("alice", "alice")

    run(tmp_path, scenario)


def test_challenge_accept_then_mate(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        alice = await s.account("alice")
        bob = await s.account("bob")
        events = await s.services.fanout.subscribe_user("bob")
        made = await s.post("/api/challenge/bob", alice,
                            json={"clock.limit": 300, "clock.increment": 3, "color": "white",
                                  "rated": None, "days": None})
        assert made.status_code == 200, made.text
        challenge = made.json()
        assert challenge["timeControl"] == {"type": "clock", "limit": 300, "increment": 3,
                                            "show": "5+3"}
        told = json.loads(await next_line(events) or b"")
        assert told["type"] == "challenge" and told["challenge"]["id"] == challenge["id"]
        assert (await s.post(f"/api/challenge/{challenge['id']}/accept", bob)).status_code \
            == 200
        started = json.loads(await next_line(events) or b"")
        assert started["type"] == "gameStart"
        assert started["game"]["color"] == "black"
        game_id = started["game"]["gameId"]
        entry = await s.game(game_id)
        stream = entry.subscribe()
        await play(s, game_id, "f2f3 e7e5 g2g4 d8h4", alice, bob)
        states = [json.loads(await next_line(stream) or b"") for _ in range(4)]
        assert [st["moves"] for st in states][-1] == "f2f3 e7e5 g2g4 d8h4"
        assert states[-1]["status"] == "mate" and states[-1]["winner"] == "black"
        assert states[-1]["termination"]["article"].startswith("5.1.1")
        assert await next_line(stream) is None  # the stream ends with the game
        finished = json.loads(await next_line(events) or b"")
        assert finished["type"] == "gameFinish" and finished["game"]["winner"] == "black"
        now = (await s.client.get(f"/api/game/{game_id}", headers=bob)).json()
        assert now["san"] == ["f3", "e5", "g4", "Qh4#"] and now["you"] == "black"
        assert now["legalMoves"] == [] and now["state"]["status"] == "mate"
        pgn = (await s.client.get(f"/game/export/{game_id}")).text
        assert "Qh4#" in pgn and '[Result "0-1"]' in pgn

    run(tmp_path, scenario)


def test_decline_and_cancel(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        alice = await s.account("alice")
        bob = await s.account("bob")
        alice_events = await s.services.fanout.subscribe_user("alice")
        first = (await s.post("/api/challenge/bob", alice, data={"clock.limit": "60"})).json()
        assert json.loads(await next_line(alice_events) or b"")["type"] == "challenge"
        # only the challenged may decline, only the challenger may cancel
        assert (await s.post(f"/api/challenge/{first['id']}/decline", alice)).status_code \
            == 403
        assert (await s.post(f"/api/challenge/{first['id']}/decline", bob,
                             data={"reason": "later"})).status_code == 200
        declined = json.loads(await next_line(alice_events) or b"")
        assert declined["type"] == "challengeDeclined"
        assert declined["challenge"]["declineReasonKey"] == "later"  # lichess: the key
        assert (await s.post(f"/api/challenge/{first['id']}/accept", bob)).status_code == 404
        bob_events = await s.services.fanout.subscribe_user("bob")
        second = (await s.post("/api/challenge/bob", alice)).json()
        assert json.loads(await next_line(bob_events) or b"")["type"] == "challenge"
        assert (await s.post(f"/api/challenge/{second['id']}/cancel", bob)).status_code == 403
        assert (await s.post(f"/api/challenge/{second['id']}/cancel", alice)).status_code \
            == 200
        assert json.loads(await next_line(bob_events) or b"")["type"] == "challengeCanceled"
        assert not s.hub.games
        unknown = await s.post("/api/challenge/nobody", alice)
        assert unknown.status_code == 404 and "nobody" in unknown.json()["error"]

    run(tmp_path, scenario)


def test_only_the_player_acts(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        game_id, alice, bob = await friendly_game(s)
        carol = await s.account("carol")
        entry = await s.game(game_id)
        path = f"/api/board/game/{game_id}/move/e2e4"
        assert (await s.post(path)).status_code == 401  # a spectator
        assert (await s.post(path, carol)).status_code == 403  # another account
        assert (await s.post(path, {"Authorization": "Bearer forged"})).status_code == 401
        assert (await s.post(path, bob)).status_code == 400  # not black's move
        assert (await s.post(f"/api/board/game/{game_id}/resign", carol)).status_code == 403
        assert (await s.post("/api/board/game/nogame/move/e2e4", alice)).status_code == 404
        assert entry.game.log == () or all(e.kind != "move" for e in entry.game.log)
        assert not entry.over
        watched = await s.client.get(f"/api/game/{game_id}")
        assert watched.json()["you"] is None and "e2e4" in watched.json()["legalMoves"]
        assert (await s.post(path, alice)).status_code == 200

    run(tmp_path, scenario)


def test_bad_requests_change_nothing(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        game_id, alice, _bob = await friendly_game(s)
        entry = await s.game(game_id)
        before = entry.game.log
        for path, expected in (
            (f"/api/board/game/{game_id}/move/e2e5", "e2e5"),
            (f"/api/board/game/{game_id}/move/zz", "UCI"),
            (f"/api/board/game/{game_id}/move/e2e4?offeringDraw=maybe", "offeringDraw"),
            (f"/api/board/game/{game_id}/draw/perhaps", "yes or no"),
            (f"/api/board/game/{game_id}/draw/no", "no draw offer"),
            (f"/api/board/game/{game_id}/claim/fivefold", "threefold"),
        ):
            answer = await s.post(path, alice)
            assert answer.status_code == 400, (path, answer.text)
            assert expected in answer.json()["error"], answer.json()
        assert entry.game.log == before
        for fields, named in (({"clock.limit": "-5"}, "clock.limit"),
                              ({"timeControl": "5+x"}, "timeControl"),
                              ({"profile": "chaos"}, "profile"),
                              ({"variant": "atomic"}, "variant"),
                              ({"variant": "fromPosition", "fen": "8/8"}, "fen"),
                              ({"color": "green"}, "color")):
            answer = await s.post("/api/challenge/open", data=fields)
            assert answer.status_code == 400, (fields, answer.text)
            assert named in answer.json()["error"]
        assert list(s.hub.games) == [game_id]

    run(tmp_path, scenario)


def test_draw_offer_accepted(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        game_id, alice, bob = await friendly_game(s)
        await play(s, game_id, "e2e4 e7e5", alice, bob)
        offered = await s.post(f"/api/board/game/{game_id}/move/g1f3?offeringDraw=true", alice)
        assert offered.status_code == 200
        entry = await s.game(game_id)
        assert json.loads(entry.line)["wdraw"] is True
        assert (await s.post(f"/api/board/game/{game_id}/draw/yes", bob)).status_code == 200
        state = json.loads(entry.line)
        assert state["status"] == "draw" and "winner" not in state
        assert state["termination"]["name"] == "agreement"

    run(tmp_path, scenario)


def test_threefold_claim_on_the_intended_move(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        game_id, alice, bob = await friendly_game(s, profile="fide-2023")
        await play(s, game_id, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1", alice, bob)
        claimed = await s.post(f"/api/board/game/{game_id}/claim/threefold?move=f6g8", bob)
        assert claimed.status_code == 200, claimed.text
        entry = await s.game(game_id)
        state = json.loads(entry.line)
        assert state["status"] == "draw"
        assert state["termination"]["name"] == "threefold repetition"
        assert any(note["article"].startswith("9.2") for note in state["notes"])

    run(tmp_path, scenario)


def test_flag_against_a_lone_king_is_a_draw(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        made = await s.post("/api/challenge/open", data={
            "timeControl": "1+0", "profile": "fide-2023-blitz", "variant": "fromPosition",
            "fen": "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"})
        assert made.status_code == 200, made.text
        game_id = made.json()["id"]
        entry = await s.game(game_id)
        stream = entry.subscribe()
        assert s.hub.fire_due() == 0
        s.clock.advance(59_999)
        assert s.hub.fire_due() == 0
        s.clock.advance(1)
        assert s.hub.fire_due() == 1
        state = json.loads(await next_line(stream) or b"")
        assert state["status"] == "outoftime" and "winner" not in state
        assert state["termination"]["result"] == "1/2-1/2"
        assert state["termination"]["article"].startswith("6.9")
        late = await s.post(f"/api/board/game/{game_id}/move/d1d7",
                            {"Authorization": f"Bearer {made.json()['secretWhite']}"})
        assert late.status_code == 400

    run(tmp_path, scenario)


def test_online_flag_with_lag_compensation(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        game_id, alice, bob = await friendly_game(s, **{"clock.limit": "60"})
        await play(s, game_id, "e2e4 e7e5", alice, bob)
        entry = await s.game(game_id)
        stream = entry.subscribe()
        s.clock.advance(60_100)  # white's flag fell 100 ms ago: within the lag allowed
        assert s.hub.fire_due() == 0
        assert (await s.post(f"/api/board/game/{game_id}/move/g1f3", alice)).status_code \
            == 200
        assert json.loads(await next_line(stream) or b"")["moves"].endswith("g1f3")
        s.clock.advance(61_000)  # black's flag fell 1 s ago
        assert s.hub.fire_due() == 1
        state = json.loads(await next_line(stream) or b"")
        assert state["status"] == "outoftime" and state["winner"] == "white"

    run(tmp_path, scenario)


def test_abort_only_before_both_moved(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        game_id, alice, bob = await friendly_game(s)
        await play(s, game_id, "e2e4", alice, bob)
        assert (await s.post(f"/api/board/game/{game_id}/abort", bob)).status_code == 200
        entry = await s.game(game_id)
        assert json.loads(entry.line)["status"] == "aborted"
        assert (await s.post(f"/api/board/game/{game_id}/move/e7e5", bob)).status_code == 400
        other, alice2, bob2 = game_id, alice, bob
        made = (await s.post("/api/challenge/bob", alice2, data={"color": "white"})).json()
        await s.post(f"/api/challenge/{made['id']}/accept", bob2)
        await play(s, made["id"], "e2e4 e7e5", alice2, bob2)
        refused = await s.post(f"/api/board/game/{made['id']}/abort", alice2)
        assert refused.status_code == 400 and "resign" in refused.json()["error"]
        assert other != made["id"]

    run(tmp_path, scenario)


def test_open_challenge_secrets_and_cookie(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        made = (await s.post("/api/challenge/open", data={"timeControl": "10+5"})).json()
        game_id = made["id"]
        assert made["urlWhite"].endswith(f"/{game_id}?secret={made['secretWhite']}")
        white = {"Authorization": f"Bearer {made['secretWhite']}"}
        black_cookie = {"chessarbiter-" + game_id: made["secretBlack"]}
        assert (await s.post(f"/api/board/game/{game_id}/move/e2e4", white)).status_code \
            == 200
        s.client.cookies.update(black_cookie)
        try:
            moved = await s.post(f"/api/board/game/{game_id}/move/e7e5",
                                 {"Origin": "http://test"})  # the cookie: from its page
        finally:
            s.client.cookies.clear()
        assert moved.status_code == 200, moved.text
        other = (await s.post("/api/challenge/open")).json()
        assert (await s.post(f"/api/board/game/{other['id']}/move/e2e4", white)).status_code \
            == 401  # one game's secret acts in that game only

    run(tmp_path, scenario)


def test_seek_pairs_two_players(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        alice = await s.account("alice")
        fields = {"time": "5", "increment": "3", "color": "random"}
        first = asyncio.create_task(s.post("/api/board/seek", alice, data=fields))
        await asyncio.sleep(0.05)
        assert not first.done()  # the seek waits for an opponent
        second = await s.post("/api/board/seek", data=fields)  # an anonymous one
        paired = [json.loads(line) for line in (await first).text.split("\n") if line]
        theirs = [json.loads(line) for line in second.text.split("\n") if line]
        assert paired[0]["gameId"] == theirs[0]["gameId"]
        assert {paired[0]["color"], theirs[0]["color"]} == {"white", "black"}
        entry = await s.game(theirs[0]["gameId"])
        assert entry.meta.seat(entry.side_of("alice", None) or entry.game.to_move).account \
            == "alice"
        assert "secret" in theirs[0] and "secret" not in paired[0]

    run(tmp_path, scenario)


def test_arbiter_decisions(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        game_id, alice, bob = await friendly_game(s, **{"clock.limit": "300"})
        await play(s, game_id, "e2e4 e7e5", alice, bob)
        arbiter = await s.account("judge", Role.ARBITER)
        base = f"/api/arbiter/game/{game_id}"
        assert (await s.post(f"{base}/add-time", alice, data={"color": "white",
                                                             "seconds": "60"})).status_code \
            == 403
        listed = (await s.client.get("/api/arbiter/games", headers=arbiter)).json()
        assert [g["id"] for g in listed["games"]] == [game_id]
        added = await s.post(f"{base}/add-time", arbiter, data={"color": "black",
                                                                "seconds": "60"})
        assert added.status_code == 200 and added.json()["notes"][0]["article"].startswith(
            "12.9")
        entry = await s.game(game_id)
        assert entry.game.clock_ms() == (300_000, 360_000)
        assert (await s.post(f"{base}/warn", arbiter, data={"color": "white"})).status_code \
            == 400  # a warning needs its reason
        assert (await s.post(f"{base}/warn", arbiter,
                             data={"color": "white", "reason": "noise"})).status_code == 200
        assert (await s.post(f"{base}/rule", arbiter,
                             data={"canMate": "true", "reason": "x"})).status_code == 400
        declared = await s.post(f"{base}/result", arbiter,
                                data={"result": "1-0", "reason": "black left the hall"})
        assert declared.status_code == 200
        assert json.loads(entry.line)["winner"] == "white"
        assert [e.kind for e in entry.game.log][-3:] == ["add-time", "warning",
                                                         "declare-result"]

    run(tmp_path, scenario)


def test_games_resume_after_a_restart(tmp_path: Path) -> None:
    async def first(s: InProcess) -> None:
        game_id, alice, bob = await friendly_game(s, **{"clock.limit": "300"})
        await play(s, game_id, "e2e4 e7e5 g1f3", alice, bob)
        (tmp_path / "id").write_text(game_id)
        (tmp_path / "bob").write_text(bob["Authorization"])

    async def second(s: InProcess) -> None:
        game_id = (tmp_path / "id").read_text()
        assert game_id in s.services.dormant and game_id not in s.hub.games  # loaded when asked
        entry = await s.game(game_id)
        assert entry.moves == ["e2e4", "e7e5", "g1f3"]
        bob = {"Authorization": (tmp_path / "bob").read_text()}
        assert (await s.post(f"/api/board/game/{game_id}/move/b8c6", bob)).status_code == 200

    run(tmp_path, first)
    run(tmp_path, second)


def test_engine_replies(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        made = await s.post("/api/challenge/ai", data={"level": "1", "color": "white"})
        assert made.status_code == 201, made.text
        game = made.json()
        entry = await s.game(game["id"])
        stream = entry.subscribe()
        mine = {"Authorization": f"Bearer {game['secret']}"}
        assert (await s.post(f"/api/board/game/{game['id']}/move/e2e4", mine)).status_code \
            == 200
        states = [json.loads(await next_line(stream) or b"") for _ in range(2)]
        assert len(states[-1]["moves"].split()) == 2  # the engine answered

    run(tmp_path, scenario)


def test_the_flag_timer_fires_on_the_loop(tmp_path: Path) -> None:
    """With the real time source, the game's one timer (``loop.call_at``) records the flag
    at its instant: here the arbiter leaves White 30 ms."""

    async def main() -> None:
        config = ServerConfig(db=tmp_path / "games.sqlite")
        hub = open_services(config).hub
        await hub.start()
        try:
            entry = await queen_ending(hub)
            stream = entry.subscribe()
            await hub.act(entry, None, lambda at: ClocksSet(at, 30, 300_000, "test"))
            assert json.loads(await next_line(stream) or b"")["wtime"] == 30
            assert entry.timer is not None
            state = json.loads(await next_line(stream, timeout=10) or b"")
            assert state["status"] == "outoftime" and "winner" not in state
            assert entry.game.log[-1].kind == "flag"
        finally:
            await hub.stop()

    asyncio.run(main())


def test_an_undetermined_flag_awaits_the_arbiter(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    def undetermined(pos: object, colour: Side, *args: object, **kwargs: object) -> Verdict:
        return Verdict(Winnability.UNDETERMINED, colour, reason="budget spent")

    monkeypatch.setattr(oracles, "can_checkmate", undetermined)  # the full analysis,
    monkeypatch.setattr(background, "pool",  # asked in this process
                        lambda job, workers: ThreadPoolExecutor(workers))

    async def scenario(s: InProcess) -> None:
        game_id, alice, bob = await friendly_game(s, **{"clock.limit": "60"})
        await play(s, game_id, "e2e4 e7e5", alice, bob)
        entry = await s.game(game_id)
        stream = entry.subscribe()
        s.clock.advance(61_000)
        assert s.hub.fire_due() == 1
        state = json.loads(await next_line(stream) or b"")
        assert state["status"] == "started" and state["pendingRuling"]
        assert s.hub.fire_due() == 0  # no flag twice, no timer while the ruling is pending
        refused = await s.post(f"/api/board/game/{game_id}/move/g1f3", alice)
        assert refused.status_code == 400 and "arbiter" in refused.json()["error"]
        judge = await s.account("judge", Role.ARBITER)
        ruled = await s.post(f"/api/arbiter/game/{game_id}/rule", judge,
                             data={"canMate": "true", "reason": "black has a queen"})
        assert ruled.status_code == 200, ruled.text
        state = json.loads(await next_line(stream) or b"")
        assert state["status"] == "outoftime" and state["winner"] == "black"

    run(tmp_path, scenario)


def test_resigning_against_a_lone_king_draws_under_fide(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        made = (await s.post("/api/challenge/open", data={
            "timeControl": "5+3", "profile": "fide-2023-blitz", "variant": "fromPosition",
            "fen": "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"})).json()
        white = {"Authorization": f"Bearer {made['secretWhite']}"}
        resigned = await s.post(f"/api/board/game/{made['id']}/resign", white)
        assert resigned.status_code == 200, resigned.text
        entry = await s.game(made["id"])
        state = json.loads(entry.line)
        assert state["termination"]["result"] == "1/2-1/2"  # F23 5.1.2: black cannot mate
        last = entry.game.log[-1]
        assert isinstance(last, Resigned) and last.analysis is not None  # recorded with it

    run(tmp_path, scenario)


FAKE_ENGINE = Path(__file__).resolve().parents[1] / "engines" / "fake_engine.py"


def test_configured_uci_engines(tmp_path: Path) -> None:
    """A configured UCI engine answers in its worker; one that crashes forfeits (11.7)."""
    engines = {name: f"uci:{shlex.quote(sys.executable)} {shlex.quote(str(FAKE_ENGINE))} {mode}"
               for name, mode in (("fake", "good"), ("crashy", "crash_on_go"))}

    async def scenario(s: InProcess) -> None:
        unknown = await s.post("/api/challenge/ai", data={"engine": "deep-thought"})
        assert unknown.status_code == 400 and "crashy" in unknown.json()["error"]
        for name, final in (("fake", "started"), ("crashy", "unknownFinish")):
            game = (await s.post("/api/challenge/ai", data={"engine": name,
                                                            "color": "white"})).json()
            entry = await s.game(game["id"])
            stream = entry.subscribe()
            mine = {"Authorization": f"Bearer {game['secret']}"}
            moved = await s.post(f"/api/board/game/{game['id']}/move/e2e4", mine)
            assert moved.status_code == 200
            states = [json.loads(await next_line(stream) or b"") for _ in range(2)]
            assert states[-1]["status"] == final
            if final == "started":
                assert len(states[-1]["moves"].split()) == 2
            else:
                assert states[-1]["winner"] == "white"

    run(tmp_path, scenario, engines=engines)


def test_a_finished_game_leaves_memory_and_is_read_again_when_asked_for(
        tmp_path: Path) -> None:
    """Memory holds the live games: a finished game nobody follows is dropped once its
    last line is ``KEEP_FINISHED_S`` old, a live one never; asked for again, it is read
    from the store, the same game."""
    async def scenario(s: InProcess) -> None:
        game_id, alice, bob = await friendly_game(s)
        live = await s.post("/api/challenge/open")  # another game, not finished
        live_id = live.json()["id"]
        await play(s, game_id, "e2e4 e7e5", alice, bob)
        assert (await s.post(f"/api/board/game/{game_id}/resign", bob)).status_code == 200
        before = (await s.client.get(f"/api/game/{game_id}")).json()
        entry = s.hub.games[game_id]
        assert entry.over
        games, forget = s.hub.games, s.hub.forget
        assert evict_finished(games, entry.published_at + 1, forget) == 0  # too recent
        assert evict_finished(games, entry.published_at + KEEP_FINISHED_S, forget) == 1
        assert game_id not in s.hub.games and live_id in s.hub.games
        again = await s.client.get(f"/api/game/{game_id}")
        assert again.status_code == 200
        for key in ("moves", "status", "winner", "wtime", "btime"):  # the notes are those
            assert again.json()["state"][key] == before["state"][key], key  # of a line sent
        assert s.hub.games[game_id].over
        export = await s.client.get(f"/game/export/{game_id}")
        assert export.status_code == 200 and "0-1" not in export.text and "1-0" in export.text

    run(tmp_path, scenario)
