"""One owner per game: commands for the same game sent at once (concurrent requests over
the ASGI app) are served one after the other, each checking the game as the one before
left it — never two acknowledgements that contradict each other."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx

from chessarbiter.server.tournaments.desk import DESKS, game_result
from tests.server.helpers import InProcess
from tests.server.test_api import play, run

TRIES = 8
"""Races run per test: each failed on every try before the game had one sequence."""


async def _both(s: InProcess, first: tuple[str, dict[str, str]],
                second: tuple[str, dict[str, str]]) -> tuple[httpx.Response, httpx.Response]:
    one, two = await asyncio.gather(s.post(first[0], first[1]), s.post(second[0], second[1]))
    return one, two


def test_abort_and_the_opponents_move(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        alice = await s.account("alice")
        bob = await s.account("bob")
        for _ in range(TRIES):
            made = await s.post("/api/challenge/bob", alice, data={"color": "white"})
            game_id = made.json()["id"]
            await s.post(f"/api/challenge/{game_id}/accept", bob)
            await play(s, game_id, "e2e4", alice, bob)
            game = f"/api/board/game/{game_id}"
            aborted, moved = await _both(s, (f"{game}/abort", alice),
                                         (f"{game}/move/e7e5", bob))
            assert sorted((aborted.status_code, moved.status_code)) == [200, 400], (
                aborted.text, moved.text)
            state = json.loads((await s.game(game_id)).line)
            if aborted.status_code == 200:
                assert (state["status"], state["moves"]) == ("aborted", "e2e4")
            else:
                assert (state["status"], state["moves"]) == ("started", "e2e4 e7e5")

    run(tmp_path, scenario)


def test_abort_and_resign(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        alice = await s.account("alice")
        bob = await s.account("bob")
        for _ in range(TRIES):
            made = await s.post("/api/challenge/bob", alice, data={"color": "white"})
            game_id = made.json()["id"]
            await s.post(f"/api/challenge/{game_id}/accept", bob)
            game = f"/api/board/game/{game_id}"
            aborted, resigned = await _both(s, (f"{game}/abort", alice),
                                            (f"{game}/resign", bob))
            assert sorted((aborted.status_code, resigned.status_code)) == [200, 400], (
                aborted.text, resigned.text)
            entry = await s.game(game_id)
            status = json.loads(entry.line)["status"]
            # what a tournament enters: the acknowledged resignation is never dropped
            if resigned.status_code == 200:
                assert status == "resign" and not entry.meta.aborted
                assert game_result(entry) is not None
            else:
                assert status == "aborted" and entry.game.outcome is None
                assert game_result(entry) is None

    run(tmp_path, scenario)


def test_a_tournament_keeps_the_acknowledged_resignation(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        org = await s.account("org")
        players = {name: await s.account(name) for name in (f"p{n}" for n in range(8))}
        number = (await s.post("/api/tournament/new", org, data={
            "name": "races", "system": "roundrobin", "timeControl": "10+5"})).json()["id"]
        for headers in players.values():
            assert (await s.post(f"/api/tournament/{number}/join", headers)).status_code == 200
        assert (await s.post(f"/api/tournament/{number}/pair", org)).status_code == 200
        view = (await s.client.get(f"/api/tournament/{number}")).json()
        boards = view["pairings"][0]["boards"]
        assert len(boards) == 4
        acknowledged = {}
        for board in boards:
            game = f"/api/board/game/{board['game']}"
            white = players[board["white"]["name"]]
            black = players[board["black"]["name"]]
            aborted, resigned = await _both(s, (f"{game}/abort", white),
                                            (f"{game}/resign", black))
            assert sorted((aborted.status_code, resigned.status_code)) == [200, 400]
            acknowledged[board["board"]] = resigned.status_code == 200
        await DESKS[s.hub].settled()
        view = (await s.client.get(f"/api/tournament/{number}")).json()
        for board in view["pairings"][0]["boards"]:
            if acknowledged[board["board"]]:  # the resignation acknowledged is entered
                assert board["result"] == "1-0", board
            else:
                assert not board["result"], board

    run(tmp_path, scenario)
