"""What lichess clients rely on, in process: ``/api/token/test``, BOT accounts, the game
chat (rooms, length and pace limits), ``finalColor``, decline keys, a draw agreed by
``offeringDraw=true``, castling written as the king's two-square move in standard chess."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from chessarbiter.clock.records import Side
from chessarbiter.server.games.chat import LINES_PER_ACCOUNT, MAX_CHARS
from tests.server.helpers import InProcess, in_process, memory_lobby, next_line
from tests.server.test_api import Scenario, friendly_game, play


def run(tmp_path: Path, scenario: Scenario) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "games.sqlite") as server:
            await scenario(server)

    asyncio.run(main())


def test_token_test_and_bot_upgrade(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        robot = await s.account("robot")
        token = robot["Authorization"].removeprefix("Bearer ")
        answer = await s.client.post("/api/token/test", content=f"{token},nope")
        assert answer.status_code == 200
        found = answer.json()
        assert found["nope"] is None
        assert found[token]["userId"] == "robot"
        assert "bot:play" in found[token]["scopes"].split(",")
        assert "title" not in (await s.client.get("/api/account", headers=robot)).json()
        assert (await s.post("/api/bot/account/upgrade", robot)).json() == {"ok": True}
        me = (await s.client.get("/api/account", headers=robot)).json()
        assert me["title"] == "BOT"
        # kept: a new hub on the same database reads the account as a BOT
        assert await s.services.db.run(lambda store, conn: conn.execute(
            "SELECT role FROM server_accounts WHERE id = 'robot'").fetchone()[0]) == "bot"
        assert (await s.post("/api/bot/account/upgrade", {})).status_code == 401

    run(tmp_path, scenario)


def test_chat_rooms_and_limits(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        game_id, alice, bob = await friendly_game(s)
        carol = await s.account("carol")
        chat = f"/api/bot/game/{game_id}/chat"
        said = await s.post(chat, alice, data={"room": "player", "text": "Good luck!"})
        assert said.json() == {"ok": True}
        assert (await s.post(chat, carol, data={"room": "spectator", "text": "hi"})
                ).status_code == 200
        assert (await s.post(chat, carol, data={"room": "player", "text": "hi"})
                ).status_code == 403
        too_long = await s.post(chat, bob, data={"room": "player", "text": "x" * (MAX_CHARS + 1)})
        assert too_long.status_code == 400 and str(MAX_CHARS) in too_long.json()["error"]
        assert (await s.post(chat, bob, data={"room": "lobby", "text": "x"})).status_code == 400
        lines = (await s.client.get(f"/api/board/game/{game_id}/chat", headers=bob)).json()
        assert lines == [{"user": "alice", "text": "Good luck!"}]  # the player room only
        assert (await s.client.get(chat, headers=carol)).status_code == 403
        for _ in range(LINES_PER_ACCOUNT.count - 1):
            assert (await s.post(chat, alice, data={"room": "player", "text": "gg"})
                    ).status_code == 200
        fast = await s.post(chat, alice, data={"room": "player", "text": "gg"})
        assert fast.status_code == 429 and int(fast.headers["Retry-After"]) >= 1
        s.clock.advance(LINES_PER_ACCOUNT.per_ms)
        assert (await s.post(chat, alice, data={"room": "player", "text": "gg"})
                ).status_code == 200

    run(tmp_path, scenario)


def test_random_colour_has_a_final_colour_the_game_keeps(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        alice = await s.account("alice")
        bob = await s.account("bob")
        seen = set()
        for _ in range(12):
            made = (await s.post("/api/challenge/bob", alice, data={"color": "random"})).json()
            assert made["color"] == "random"
            seen.add(made["finalColor"])
            assert (await s.post(f"/api/challenge/{made['id']}/accept", bob)).status_code == 200
            full = (await s.client.get(f"/api/game/{made['id']}", headers=alice)).json()
            assert full["you"] == made["finalColor"]
            await s.post(f"/api/board/game/{made['id']}/abort", alice)
        assert seen == {"white", "black"}  # drawn, not fixed (12 draws: 1 in 2048 to fail)

    run(tmp_path, scenario)


def test_decline_reason_key(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        alice = await s.account("alice")
        bob = await s.account("bob")
        events = await s.services.fanout.subscribe_user("alice")
        made = (await s.post("/api/challenge/bob", alice)).json()
        await events.get()
        wrong = await s.post(f"/api/challenge/{made['id']}/decline", bob,
                             data={"reason": "bored"})
        assert wrong.status_code == 400
        assert (await s.post(f"/api/challenge/{made['id']}/decline", bob,
                             data={"reason": "tooFast"})).status_code == 200
        line = await events.get()
        declined = json.loads(line or b"")["challenge"]
        assert declined["declineReasonKey"] == "toofast"
        assert "too fast" in declined["declineReason"]

    run(tmp_path, scenario)


def test_offering_draw_with_a_move_agrees_to_a_pending_offer(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        game_id, alice, bob = await friendly_game(s, **{"clock.limit": "300"})
        await play(s, game_id, "e2e4 e7e5", alice, bob)
        offered = await s.post(f"/api/board/game/{game_id}/move/g1f3?offeringDraw=true", alice)
        assert offered.status_code == 200
        state = (await s.game(game_id)).state()
        assert state["wdraw"] and state["status"] == "started"
        agreed = await s.post(f"/api/board/game/{game_id}/move/b8c6?offeringDraw=true", bob)
        assert agreed.status_code == 200
        state = (await s.game(game_id)).state()
        assert state["status"] == "draw" and state["moves"] == "e2e4 e7e5 g1f3"
        assert state["termination"]["article"].startswith("5.2.3")  # by agreement

    run(tmp_path, scenario)


def test_offering_draw_before_an_agreement_is_allowed_plays_the_move(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        game_id, alice, bob = await friendly_game(s, **{"clock.limit": "300"})
        first = await s.post(f"/api/board/game/{game_id}/move/e2e4?offeringDraw=true", alice)
        assert first.status_code == 200
        # black has not moved: no agreement yet (Art. 5.2.3); the move stands, offering
        answer = await s.post(f"/api/board/game/{game_id}/move/e7e5?offeringDraw=true", bob)
        assert answer.status_code == 200, answer.text
        state = (await s.game(game_id)).state()
        assert state["moves"] == "e2e4 e7e5" and state["bdraw"] and not state["wdraw"]
        agreed = await s.post(f"/api/board/game/{game_id}/move/g1f3?offeringDraw=true", alice)
        assert agreed.status_code == 200
        assert (await s.game(game_id)).state()["status"] == "draw"

    run(tmp_path, scenario)


def test_the_engine_agrees_to_a_takeback(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        made = await s.post("/api/challenge/ai", data={"level": "1", "color": "white",
                                                       "clock.limit": "300"})
        game = made.json()
        entry = await s.game(game["id"])
        stream = entry.subscribe()
        mine = {"Authorization": f"Bearer {game['secret']}"}
        board = f"/api/board/game/{game['id']}"
        for move in ("e2e4", "d2d4"):
            assert (await s.post(f"{board}/move/{move}", mine)).status_code == 200
            while len(entry.moves) % 2:  # the engine's answer
                await next_line(stream)
        taken = await s.post(f"{board}/takeback/yes", mine)
        assert taken.status_code == 200, taken.text
        assert len(entry.moves) == 2 and entry.game.to_move is Side.WHITE
        assert entry.moves[0] == "e2e4" and entry.game.pending_takeback is None

    run(tmp_path, scenario)


def test_castling_as_king_takes_rook_is_written_e1g1(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        game_id, alice, bob = await friendly_game(s)
        await play(s, game_id, "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1", alice, bob)
        state = (await s.game(game_id)).state()
        assert state["moves"].split()[-1] == "e1g1"

    run(tmp_path, scenario)


def test_odd_clock_limits_are_refused_clearly(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        alice = await s.account("alice")
        await s.account("bob")
        for limit in ("7", "100", "10860"):
            odd = await s.post("/api/challenge/bob", alice, data={"clock.limit": limit})
            assert odd.status_code == 400 and "clock.limit" in odd.json()["error"]
        for limit in ("15", "90", "120", "10800"):
            made = await s.post("/api/challenge/bob", alice, data={"clock.limit": limit})
            assert made.json()["timeControl"]["limit"] == int(limit)
            await s.post(f"/api/challenge/{made.json()['id']}/cancel", alice)
        assert memory_lobby(s.services).challenges == {} and s.hub.games == {}  # nothing made

    run(tmp_path, scenario)


def test_seek_answers_ndjson(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        fields = {"time": "5", "increment": "3"}
        first = asyncio.create_task(s.post("/api/board/seek", data=fields))
        await asyncio.sleep(0.05)
        second = await s.post("/api/board/seek", data=fields)
        for answer in (await first, second):
            assert answer.headers["content-type"] == "application/x-ndjson"
            lines = [json.loads(line) for line in answer.text.split("\n") if line]
            assert len(lines) == 1 and set(lines[0]) >= {"gameId", "color"}

    run(tmp_path, scenario)


def test_cors_for_the_api_with_tokens_not_cookies(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        alice = await s.account("alice")
        site = {"Origin": "https://elsewhere.example"}
        preflight = await s.client.options("/api/board/game/abc/move/e2e4", headers={
            **site, "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization"})
        assert preflight.status_code == 204
        assert preflight.headers["access-control-allow-origin"] == "*"
        assert "authorization" in preflight.headers["access-control-allow-headers"].lower()
        me = await s.client.get("/api/account", headers={**alice, **site})
        assert me.status_code == 200 and me.headers["access-control-allow-origin"] == "*"
        assert "access-control-allow-credentials" not in me.headers
        refused = await s.client.get("/api/account", headers=site)
        assert refused.status_code == 401  # errors too carry it, for the page to read
        assert refused.headers["access-control-allow-origin"] == "*"
        for same_site in ("/api/session", "/"):
            answer = await s.client.get(same_site, headers=site)
            assert "access-control-allow-origin" not in answer.headers, same_site

    run(tmp_path, scenario)
