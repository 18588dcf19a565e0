"""A database write that fails when a move is made: the player gets a clear 503 naming the
failure (not a 500 with a traceback), the game is as it was before the move, and the move
can be made again once the database writes; everything stored before is still there."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from chessarbiter.server.games import db as db_module
from chessarbiter.store import SqliteStore
from tests.server.helpers import InProcess, in_process
from tests.server.test_api import friendly_game, play
from tests.store.failing import FailingStore


def test_a_failed_write_answers_503_and_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stores: list[FailingStore] = []

    def opened(path: Path) -> FailingStore:
        stores.append(FailingStore(path, fail_at=10**9))
        return stores[-1]

    monkeypatch.setattr(db_module, "SqliteStore", opened)

    async def scenario(s: InProcess) -> None:
        game_id, alice, bob = await friendly_game(s)
        await play(s, game_id, "e2e4", alice, bob)
        store = stores[0]  # the writer's (the reader opens its own)
        store.fail_at, store.failures = store.writes + 1, 2  # the batch and its retry fail
        answer = await s.post(f"/api/board/game/{game_id}/move/e7e5", bob)
        assert answer.status_code == 503, answer.text
        error = answer.json()["error"]
        assert "could not be stored" in error and "disk I/O error" in error
        assert "Traceback" not in answer.text
        now = (await s.client.get(f"/api/game/{game_id}", headers=bob)).json()
        assert now["san"] == ["e4"] and now["you"] == "black"
        again = await s.post(f"/api/board/game/{game_id}/move/e7e5", bob)
        assert again.status_code == 200, again.text
        now = (await s.client.get(f"/api/game/{game_id}", headers=bob)).json()
        assert now["san"] == ["e4", "e5"]

    async def main() -> None:
        async with in_process(tmp_path / "games.sqlite") as server:
            await scenario(server)

    asyncio.run(main())
    monkeypatch.undo()
    store = SqliteStore(tmp_path / "games.sqlite")
    [info] = store.games()
    moves = [getattr(event, "uci", None) for event in store.load(info.game_id).log]
    store.close()
    assert [uci for uci in moves if uci] == ["e2e4", "e7e5"]
