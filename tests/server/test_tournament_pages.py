"""Tournaments on the game server, in process: created by an organiser, joined by accounts
(and a player added over the board), a round paired into server games between the paired
accounts with their colours, the games played through the Board API, their results
entered in the tournament as they end, the pages showing pairings, standings and the
crosstable; wrong roles and bad input refused with nothing changed."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from chessarbiter.clock import Side
from chessarbiter.server.accounts import Role
from chessarbiter.server.errors import ApiError
from chessarbiter.server.tournaments.desk import DESKS
from tests.server.helpers import InProcess, in_process

ACCOUNTS = ("alice", "bob", "carol", "dave")
OVER_THE_BOARD = "Eve Board"


def run(tmp_path: Path, scenario: Any) -> None:
    async def main() -> None:
        async with in_process(tmp_path / "games.sqlite") as server:
            await scenario(server)

    asyncio.run(main())


async def state(s: InProcess, number: int) -> dict[str, Any]:
    answer = await s.client.get(f"/api/tournament/{number}")
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


async def refused(s: InProcess, path: str, headers: dict[str, str] | None, status: int,
                  named: str, **fields: object) -> None:
    """A request refused with ``status`` whose message names ``named``."""
    answer = await s.post(path, headers, json=fields)
    assert answer.status_code == status, answer.text
    assert named in answer.json()["error"], answer.text


async def setup(s: InProcess) -> tuple[int, dict[str, dict[str, str]]]:
    """An organiser's round robin (5+3, online rules) with four accounts and one player over
    the board: its id and every account's headers."""
    who = {name: await s.account(name) for name in (*ACCOUNTS, "org", "mallory")}
    who["judge"] = await s.account("judge", Role.ARBITER)
    made = await s.post("/api/tournament/new", who["org"], json={
        "name": "Club championship", "system": "roundrobin", "timeControl": "5+3",
        "profile": "online"})
    assert made.status_code == 200, made.text
    number: int = made.json()["id"]
    for name in ACCOUNTS[:3]:
        joined = await s.post(f"/api/tournament/{number}/join", who[name], json={"rating": 1500})
        assert joined.status_code == 200, joined.text
    for name in ("dave", OVER_THE_BOARD):
        added = await s.post(f"/api/tournament/{number}/player", who["org"], json={"name": name})
        assert added.status_code == 200, added.text
    return number, who


def test_bad_tournaments_are_refused(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        org = await s.account("org")
        await refused(s, "/api/tournament/new", None, 401, "token", name="x", rounds=3)
        for fields, named in (({"rounds": 3}, "name"), ({"name": "x"}, "rounds"),
                              ({"name": "x", "rounds": 0}, "rounds"),
                              ({"name": "x", "system": "knockout"}, "system"),
                              ({"name": "x", "system": "double", "rounds": 4}, "rounds"),
                              ({"name": "x", "rounds": 3, "timeControl": "5 minutes"},
                               "timeControl"),
                              ({"name": "x", "rounds": 3, "profile": "chess-boxing"}, "profile"),
                              ({"name": "x", "rounds": 3, "tiebreaks": "XYZ"}, "XYZ")):
            await refused(s, "/api/tournament/new", org, 400, named, **fields)
        assert (await s.client.get("/api/tournament")).json() == {"tournaments": []}
        assert (await s.client.get("/api/tournament/1")).status_code == 404
        assert (await s.client.get(f"/api/tournament/{2**70}")).status_code == 404
        page = await s.client.get("/tournament/1/standings")
        assert page.status_code == 404 and "no tournament 1" in page.text

    run(tmp_path, scenario)


def test_a_round_robin_played_on_the_server(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        number, who = await setup(s)
        base = f"/api/tournament/{number}"
        before = await state(s, number)
        assert [p["name"] for p in before["players"]] == [*ACCOUNTS, OVER_THE_BOARD]
        assert [p["account"] for p in before["players"]] == [*ACCOUNTS, None]
        assert before["rounds"] == 5 and before["paired"] == 0

        # wrong roles and bad input: refused, nothing changed
        await refused(s, base + "/pair", who["mallory"], 403, "mallory")
        await refused(s, base + "/pair", None, 401, "token")
        await refused(s, base + "/player", who["alice"], 403, "alice", name="zed")
        await refused(s, base + "/join", who["alice"], 400, "already registered")
        await refused(s, base + "/result", who["org"], 400, "round 1: not paired",
                      round=1, board=1, result="1-0")
        assert await state(s, number) == before

        paired = await s.post(base + "/pair", who["org"])
        assert paired.status_code == 200, paired.text
        after = await state(s, number)
        boards = after["pairings"][0]["boards"]
        assert len(boards) == 2  # five players: one has no game in each round
        games = {}
        for board in boards:
            names: tuple[str, str] = (board["white"]["name"], board["black"]["name"])
            if OVER_THE_BOARD in names:
                assert board["game"] is None
                continue
            entry = await s.game(board["game"])
            assert (entry.meta.white.account, entry.meta.black.account) == names
            assert entry.game.setup.profile.name == "online"
            assert entry.game.setup.tags["Round"] == f"1.{board['board']}"
            games[board["board"]] = (board["game"], who[names[0]], who[names[1]])
            for side, name in zip((Side.WHITE, Side.BLACK), names, strict=True):
                assert (entry, side) in await s.services.loader.playing(name)
        assert len(games) == 1

        for_round = f"{base}/result"
        await refused(s, for_round, who["mallory"], 403, "mallory", round=1, board=1,
                      result="1-0")
        await refused(s, for_round, who["alice"], 403, "alice", round=1, board=1,
                      result="1-0")
        for fields, named in (({"round": 2, "board": 1, "result": "1-0"}, "round 2"),
                              ({"round": 1, "board": 3, "result": "1-0"}, "board 3"),
                              ({"round": 1, "board": 1, "result": "2-0"}, "result"),
                              ({"round": 1, "board": 1}, "required")):
            await refused(s, for_round, who["judge"], 400, named, **fields)
        await refused(s, base + "/pair", who["org"], 400, "results missing")
        assert await state(s, number) == after

        # the server game: Black mates; its result flows into the tournament
        (game_id, white, black), = games.values()
        for ply, move in enumerate(["f2f3", "e7e5", "g2g4", "d8h4"]):
            moved = await s.post(f"/api/board/game/{game_id}/move/{move}",
                                 white if ply % 2 == 0 else black)
            assert moved.status_code == 200, moved.text
        await DESKS[s.hub].settled()
        board_no = next(iter(games))
        flowed = await state(s, number)
        assert flowed["pairings"][0]["boards"][board_no - 1]["result"] == "0-1"
        assert not flowed["pairings"][0]["complete"]

        # the board over the board: the arbiter enters it
        other = 3 - board_no
        entered = await s.post(for_round, who["judge"],
                               json={"round": 1, "board": other, "result": "1/2-1/2"})
        assert entered.status_code == 200, entered.text
        done = await state(s, number)
        assert done["pairings"][0]["complete"]
        points = {row["name"]: row["points"] for row in done["standings"]}
        mated = boards[board_no - 1]
        assert points[mated["black"]["name"]] == 1 and points[mated["white"]["name"]] == 0
        drawn = boards[other - 1]
        assert points[drawn["white"]["name"]] == points[drawn["black"]["name"]] == 0.5
        assert done["standings"][0]["name"] == mated["black"]["name"]
        assert len(done["standings"][0]["tiebreaks"]) == 3  # SB, DE, WIN

        # the pages
        listing = await s.client.get("/tournaments")
        assert listing.status_code == 200 and "Club championship" in listing.text
        overview = (await s.client.get(f"/tournament/{number}")).text
        assert all(name in overview for name in (*ACCOUNTS, OVER_THE_BOARD))
        assert "over the board" in overview
        pairings = (await s.client.get(f"/tournament/{number}/round/1")).text
        assert f'href="/{game_id}"' in pairings and "0-1" in pairings
        assert "1/2-1/2</span>" in pairings
        standings = (await s.client.get(f"/tournament/{number}/standings")).text
        leader = re.search(r"<tbody><tr><td>1</td><td>\d</td><td>([^<]+)</td>", standings)
        assert leader is not None and leader.group(1) == mated["black"]["name"]
        assert "Crosstable" in standings and "½" in standings
        assert (await s.client.get(f"/tournament/{number}/round/2")).status_code == 404

        # round 2: the next games start with their colours
        second = await s.post(base + "/pair", who["judge"])
        assert second.status_code == 200, second.text
        for board in second.json()["boards"]:
            if board["game"] is not None:
                entry = await s.game(board["game"])
                assert entry.meta.white.name == board["white"]
                assert entry.meta.black.name == board["black"]
                resigned = await s.post(f"/api/board/game/{board['game']}/resign",
                                        who[board["black"]])
                assert resigned.status_code == 200, resigned.text
        await DESKS[s.hub].settled()
        results = [b["result"] for b in (await state(s, number))["pairings"][1]["boards"]
                   if b["game"] is not None]
        assert results and set(results) == {"1-0"}

    run(tmp_path, scenario)


def test_a_directors_result_ends_the_live_game(tmp_path: Path) -> None:
    """A result a director enters ends the board's live game with it (the arbiter's decision
    in the game's log): the game and the round agree, and the players can act no more."""
    async def scenario(s: InProcess) -> None:
        number, who = await setup(s)
        base = f"/api/tournament/{number}"
        for round_no, result, kind in ((1, "+-", "forfeit"), (2, "1/2-1/2", "declare-result")):
            boards = (await s.post(base + "/pair", who["org"])).json()["boards"]
            for board_no, board in enumerate(boards, 1):
                if board["game"] is None:
                    over_the_board = {"round": round_no, "board": board_no, "result": "1-0"}
                    await s.post(base + "/result", who["org"], json=over_the_board)
                    continue
                entered = await s.post(base + "/result", who["org"], json={
                    "round": round_no, "board": board_no, "result": result})
                assert entered.status_code == 200, entered.text
                assert entered.json()["gameEnded"] is True
                game = (await s.game(board["game"])).game
                assert game.log[-1].kind == kind
                assert "director" in getattr(game.log[-1], "reason", "")
                resigned = await s.post(f"/api/board/game/{board['game']}/resign",
                                        who[board["white"]])
                assert resigned.status_code == 400, resigned.text
                await DESKS[s.hub].settled()
                data = await state(s, number)
                assert data["pairings"][round_no - 1]["boards"][board_no - 1]["result"] == result
                shown = (await s.client.get(f"/api/game/{board['game']}")).json()["state"]
                assert shown["termination"]["result"] == ("1-0" if result == "+-" else result)
                played = board_no, board
        corrected = await s.post(base + "/result", who["org"],
                                 json={"round": 2, "board": played[0], "result": "-+"})
        assert corrected.json()["gameEnded"] is False  # a finished game stays as played

    run(tmp_path, scenario)


def test_the_director_starts_the_round(tmp_path: Path) -> None:
    """Under FIDE rules a paired round's clocks stand still until a director starts the
    round (Art. 6.5), each start an arbiter's event; under online rules the players' first
    moves start them, and there is nothing to start."""
    async def scenario(s: InProcess) -> None:
        who = {name: await s.account(name) for name in ("ann", "ben", "org", "mallory")}
        numbers = {}
        for profile in ("fide-2023-rapid", "online"):
            made = await s.post("/api/tournament/new", who["org"], json={
                "name": profile, "system": "roundrobin", "timeControl": "10+5",
                "profile": profile})
            numbers[profile] = made.json()["id"]
            for name in ("ann", "ben"):
                await s.post(f"/api/tournament/{numbers[profile]}/join", who[name])
        fide = f"/api/tournament/{numbers['fide-2023-rapid']}"
        board = (await s.post(fide + "/pair", who["org"])).json()["boards"][0]
        entry = await s.game(board["game"])
        assert not entry.game.log and entry.game.time_to_flag() is None
        moved = await s.post(f"/api/board/game/{board['game']}/move/e2e4", who[board["white"]])
        assert moved.status_code == 400 and "clocks are not running" in moved.text
        await refused(s, fide + "/round/1/start", who["mallory"], 403, "mallory")
        await refused(s, fide + "/round/2/start", who["org"], 400, "round 2: not paired")
        started = await s.post(fide + "/round/1/start", who["org"])
        assert started.status_code == 200, started.text
        assert started.json()["started"] == [board["game"]]
        assert [e.kind for e in entry.game.log] == ["start-clocks"]
        assert entry.game.time_to_flag() is not None  # White's clock runs
        await refused(s, fide + "/round/1/start", who["org"], 400, "no game waits")
        moved = await s.post(f"/api/board/game/{board['game']}/move/e2e4", who[board["white"]])
        assert moved.status_code == 200, moved.text

        online = f"/api/tournament/{numbers['online']}"
        board = (await s.post(online + "/pair", who["org"])).json()["boards"][0]
        await refused(s, online + "/round/1/start", who["org"], 400, "no game waits")
        moved = await s.post(f"/api/board/game/{board['game']}/move/e2e4", who[board["white"]])
        assert moved.status_code == 200, moved.text

    run(tmp_path, scenario)


def test_the_last_round_catches_up_when_pairing(tmp_path: Path) -> None:
    """A game the server did not start when its round was paired starts when a director
    pairs again; a result that did not flow in (the server stopped first) is entered
    then."""

    async def scenario(s: InProcess) -> None:
        number, who = await setup(s)
        base = f"/api/tournament/{number}"
        create_game = s.hub.create_game

        async def failing(*args: Any, **kwargs: Any) -> Any:
            raise ApiError(503, "the server plays 0 games at most")

        s.hub.create_game = failing  # type: ignore[method-assign]
        assert (await s.post(base + "/pair", who["org"])).status_code == 503
        s.hub.create_game = create_game  # type: ignore[method-assign]
        board = next(b for b in (await state(s, number))["pairings"][0]["boards"]
                     if b["game"])
        assert (await s.client.get(f"/api/game/{board['game']}")).status_code == 404
        await refused(s, base + "/pair", who["org"], 400, "results missing")
        assert (await s.client.get(f"/api/game/{board['game']}")).status_code == 200

        s.hub.finish_hooks.clear()  # as if the server stopped before the result flowed in
        resigned = await s.post(f"/api/board/game/{board['game']}/resign",
                                who[board["white"]["name"]])
        assert resigned.status_code == 200, resigned.text
        assert (await state(s, number))["pairings"][0]["boards"][board["board"] - 1][
            "result"] is None
        other = 3 - board["board"]
        entered = await s.post(base + "/result", who["org"],
                               json={"round": 1, "board": other, "result": "1-0"})
        assert entered.status_code == 200, entered.text
        assert (await s.post(base + "/pair", who["org"])).status_code == 200
        data = await state(s, number)
        assert data["pairings"][0]["boards"][board["board"] - 1]["result"] == "0-1"
        assert data["paired"] == 2

    run(tmp_path, scenario)


def test_a_swiss_round_with_a_bye(tmp_path: Path) -> None:
    """Five accounts in a Swiss (FIDE Dutch): the lowest rated gets the pairing-allocated
    bye and no game; the boards' games have the pairing's colours; the bye scores."""

    async def scenario(s: InProcess) -> None:
        names = (*ACCOUNTS, "erin")
        who = {name: await s.account(name) for name in (*names, "org")}
        made = await s.post("/api/tournament/new", who["org"], data={
            "name": "Open", "system": "swiss", "rounds": "3", "timeControl": "3+2"})
        assert made.status_code == 200, made.text
        base = f"/api/tournament/{made.json()['id']}"
        for rating, name in enumerate(names):
            joined = await s.post(base + "/join", who[name], data={"rating": 2000 - rating})
            assert joined.status_code == 200, joined.text
        paired = await s.post(base + "/pair", who["org"])
        assert paired.status_code == 200, paired.text
        data = (await s.client.get(base)).json()
        game_round = data["pairings"][0]
        assert game_round["bye"]["name"] == "erin"
        assert {p for b in game_round["boards"] for p in (b["white"]["name"],
                                                          b["black"]["name"])} == set(ACCOUNTS)
        started = await s.post(base + "/round/1/start", who["org"])  # FIDE blitz: Art. 6.5
        assert len(started.json()["started"]) == 2, started.text
        for board in game_round["boards"]:
            entry = await s.game(board["game"])
            assert entry.meta.white.name == board["white"]["name"]
            assert entry.meta.black.name == board["black"]["name"]
            assert entry.game.setup.profile.name == "fide-2023-blitz"
            white, black = who[board["white"]["name"]], who[board["black"]["name"]]
            game = f"/api/board/game/{board['game']}"
            for move, side in (("e2e4", white), ("e7e5", black),
                               ("g1f3?offeringDraw=true", white)):
                moved = await s.post(f"{game}/move/{move}", side)
                assert moved.status_code == 200, moved.text
            accepted = await s.post(f"{game}/draw/yes", black)
            assert accepted.status_code == 200, accepted.text
        await DESKS[s.hub].settled()
        data = (await s.client.get(base)).json()
        assert [b["result"] for b in data["pairings"][0]["boards"]] == ["1/2-1/2"] * 2
        assert data["standings"][0]["name"] == "erin"
        assert data["standings"][0]["points"] == 1

    run(tmp_path, scenario)


def test_withdrawals(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        names = (*ACCOUNTS, "erin")
        who = {name: await s.account(name) for name in (*names, "org")}
        made = await s.post("/api/tournament/new", who["org"],
                            json={"name": "Open", "system": "swiss", "rounds": 3})
        base = f"/api/tournament/{made.json()['id']}"
        for name in names:
            assert (await s.post(base + "/join", who[name])).status_code == 200
        await refused(s, base + "/withdraw", who["bob"], 403, "only themselves",
                      player="carol")
        await refused(s, base + "/withdraw", who["org"], 400, "no such player",
                      player="nobody")
        assert (await s.post(base + "/withdraw", who["dave"])).status_code == 200
        await refused(s, base + "/withdraw", who["dave"], 400, "withdrawn already")
        assert (await s.post(base + "/withdraw", who["org"], json={"player": "erin"})
                ).status_code == 200
        boards = (await s.post(base + "/pair", who["org"])).json()["boards"]
        bye = (await s.client.get(base)).json()["pairings"][0]["bye"]["name"]
        assert len(boards) == 1
        assert {boards[0]["white"], boards[0]["black"], bye} == {"alice", "bob", "carol"}

    run(tmp_path, scenario)
