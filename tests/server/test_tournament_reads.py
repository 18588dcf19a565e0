"""Reading a tournament on the server costs one computation per state of the tournament,
shared by every reader: readers of an unchanged tournament get the kept rendering (no
replay of its log, no new rendering), concurrent readers share one computation, and every
change through the server shows at the next read (a director's pairing and result, a
player's account made later), and an event written to the log by another program (as
``chessarbiter tournament`` writes it) once the version read last is no longer trusted.
The writes work on the same kept state: the log is replayed once (and for each pairing's
own copy). Renderings and pairings run in a thread here, so that they can be counted."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from chessarbiter.server.tournaments import desk as desk_module
from chessarbiter.server.tournaments import view
from chessarbiter.server.tournaments.desk import DESKS, Desk
from chessarbiter.store.tournaments import TournamentLogs, TournamentStore
from chessarbiter.tournament.events import Registered
from chessarbiter.tournament.log import Tournament
from tests.server.helpers import InProcess
from tests.server.test_tournament_pages import OVER_THE_BOARD, run, setup, state


class Counted:
    """How many times the log was replayed and renderings computed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.loads = 0
        self.renders: list[Any] = []
        load = Tournament.load.__func__  # type: ignore[attr-defined]
        rendered = view.rendered

        def counted_load(cls: type[Tournament], store: TournamentLogs, number: int
                         ) -> Tournament:
            self.loads += 1
            found: Tournament = load(cls, store, number)
            return found

        def counted_render(render: Callable[[Any], Any], shown: bytes,
                           accounts: dict[str, str]) -> Any:
            self.renders.append(render)
            return rendered(render, shown, accounts)

        monkeypatch.setattr(Tournament, "load", classmethod(counted_load))
        monkeypatch.setattr(desk_module, "rendered", counted_render)


def desk_of(s: InProcess) -> Desk:
    desk = DESKS[s.hub]
    desk.rendering = desk.pairing = ThreadPoolExecutor(1)
    return desk


async def bodies(s: InProcess, path: str, readers: int) -> set[bytes]:
    answers = await asyncio.gather(*(s.client.get(path) for _ in range(readers)))
    assert {a.status_code for a in answers} == {200}
    return {a.content for a in answers}


def test_readers_of_an_unchanged_tournament_share_one_computation(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario(s: InProcess) -> None:
        counted = Counted(monkeypatch)
        desk_of(s)
        number, _ = await setup(s)  # the state read once, then caught up at each write
        api, standings = f"/api/tournament/{number}", f"/tournament/{number}/standings"
        first = await bodies(s, api, 20)  # 20 at once: one rendering
        assert len(first) == 1 and (counted.loads, len(counted.renders)) == (1, 1)
        for _ in range(5):
            assert await bodies(s, api, 1) == first
        assert (counted.loads, len(counted.renders)) == (1, 1)
        pages = await bodies(s, standings, 20)  # another rendering of the state kept
        assert len(pages) == 1 and b"Crosstable" in next(iter(pages))
        assert await bodies(s, standings, 3) == pages
        assert (counted.loads, len(counted.renders)) == (1, 2)
        assert (await s.client.get(f"/tournament/{number}/round/1")).status_code == 404
        assert (await s.client.get(f"/api/tournament/{number + 1}")).status_code == 404
        assert (counted.loads, len(counted.renders)) == (1, 3)

    run(tmp_path, scenario)


def test_every_change_shows_at_the_next_read(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario(s: InProcess) -> None:
        counted = Counted(monkeypatch)
        desk = desk_of(s)
        number, who = await setup(s)
        base = f"/api/tournament/{number}"
        before = await state(s, number)
        assert counted.loads == 1  # every write and read since caught up with the log

        late = "frank"  # over the board, then an account of that name: linked at once
        added = await s.post(base + "/player", who["org"], json={"name": late})
        assert added.status_code == 200, added.text
        players = {p["name"]: p["account"] for p in (await state(s, number))["players"]}
        assert players[late] is None and players[OVER_THE_BOARD] is None
        await s.account(late)
        players = {p["name"]: p["account"] for p in (await state(s, number))["players"]}
        assert players[late] == late

        store = TournamentStore(Path(s.services.config.db))  # another program writes to the log
        try:
            Tournament.load(store, number).apply(Registered("Outside Entry", 1700))
        finally:
            store.close()
        # the version read a moment ago is trusted a little longer (nothing changed through
        # the desk), then read again: the outside change shows
        assert "Outside Entry" not in [p["name"] for p in (await state(s, number))["players"]]
        s.clock.advance(desk_module.VERSION_TRUSTED_MS)
        assert "Outside Entry" in [p["name"] for p in (await state(s, number))["players"]]
        page = await s.client.get(f"/tournament/{number}")
        assert "Outside Entry" in page.text and late in page.text

        loads = counted.loads
        paired = await s.post(base + "/pair", who["org"])  # a director's write
        assert paired.status_code == 200, paired.text
        assert counted.loads == loads + 1  # the pairing process's own copy, read afresh
        after = await state(s, number)
        assert (before["paired"], after["paired"]) == (0, 1)
        boards = after["pairings"][0]["boards"]
        assert [b["game"] for b in boards] == [b["game"] for b in paired.json()["boards"]]
        entered = await s.post(base + "/result", who["org"], json={
            "round": 1, "board": 1, "result": "1/2-1/2"})
        assert entered.status_code == 200, entered.text
        assert (await state(s, number))["pairings"][0]["boards"][0]["result"] == "1/2-1/2"
        round_page = await s.client.get(f"/tournament/{number}/round/1")
        assert round_page.status_code == 200 and "1/2-1/2" in round_page.text
        assert counted.loads == loads + 1  # the state kept caught up, not replayed
        assert len(desk.renderings) <= desk_module.KEPT_RENDERINGS

    run(tmp_path, scenario)


def test_a_read_within_the_trusted_time_asks_the_database_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On one process, readers of a tournament whose version was read less than
    VERSION_TRUSTED_MS ago, with no change through the desk since, get the kept rendering
    without the desk's thread; a change through the desk (a result) shows at once."""
    async def scenario(s: InProcess) -> None:
        desk = desk_of(s)
        number, who = await setup(s)
        base = f"/api/tournament/{number}"
        calls = 0
        run_desk = desk.run

        async def counted(*args: Any, **kwargs: Any) -> Any:
            nonlocal calls
            calls += 1
            return await run_desk(*args, **kwargs)

        monkeypatch.setattr(desk, "run", counted)
        first = await bodies(s, base, 1)
        asked = calls
        assert asked >= 1
        for _ in range(5):
            s.clock.advance(desk_module.VERSION_TRUSTED_MS // 10)
            assert await bodies(s, base, 3) == first
        assert calls == asked  # none of the 15 reads went to the desk's thread
        s.clock.advance(desk_module.VERSION_TRUSTED_MS // 2)  # past the trusted time
        assert await bodies(s, base, 1) == first and calls == asked + 1
        paired = await s.post(base + "/pair", who["org"])  # a change through the desk
        assert paired.status_code == 200, paired.text
        assert (await state(s, number))["paired"] == 1  # seen at once

    run(tmp_path, scenario)
