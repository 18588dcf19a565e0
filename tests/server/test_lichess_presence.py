"""lichess' "opponent gone" on the server's time source (a hand-driven clock): a player's
last stream of a game closing starts the absence; once it has lasted 5 s his opponent's
streams hear it (``opponentGone``), the claim waits the online profile's 30 s from the
close, a return ends it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from chessarbiter.clock.records import Side
from chessarbiter.laws.profiles import ONLINE
from chessarbiter.server.games.presence import GONE_MS
from chessarbiter.server.streams.lines import Line
from tests.server.helpers import InProcess
from tests.server.test_api import friendly_game, play
from tests.server.test_lichess_compat import run

WAIT_MS = ONLINE.abandonment_ms or 0


def lines(queue: asyncio.Queue[Line]) -> list[dict[str, object]]:
    found = []
    while not queue.empty():
        line = queue.get_nowait()
        if line and line.strip():
            found.append(json.loads(line))
    return found


def test_gone_then_back_then_gone_and_claimed(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        game_id, alice, bob = await friendly_game(s, **{"clock.limit": "300"})
        await play(s, game_id, "e2e4 e7e5", alice, bob)
        entry = await s.game(game_id)
        presence = s.services.presence
        white, black = asyncio.Queue[Line](), asyncio.Queue[Line]()
        presence.arrive(entry, Side.WHITE, white)
        presence.arrive(entry, Side.BLACK, black)
        assert lines(white) == [{"type": "opponentGone", "gone": False}]  # black arrived
        presence.leave(entry, Side.WHITE, white)
        s.clock.advance(GONE_MS - 1)
        assert presence.look() == 0 and lines(black) == []  # a reload is not leaving
        s.clock.advance(1)
        assert presence.look() == 1
        assert lines(black) == [{"type": "opponentGone", "gone": True,
                                 "claimWinInSeconds": (WAIT_MS - GONE_MS) // 1000}]
        s.clock.advance(WAIT_MS - GONE_MS - 1)
        early = await s.post(f"/api/board/game/{game_id}/claim-victory", bob)
        assert early.status_code == 400 and "not yet" in early.json()["error"]
        again = asyncio.Queue[Line]()
        presence.arrive(entry, Side.WHITE, again)  # back: the absence is over
        assert lines(black) == [{"type": "opponentGone", "gone": False}]
        s.clock.advance(WAIT_MS)
        assert presence.absent_ms(game_id, Side.WHITE) == 0
        presence.leave(entry, Side.WHITE, again)
        s.clock.advance(WAIT_MS)
        assert presence.look() == 1  # gone, and the wait over: one line says both
        assert lines(black) == [{"type": "opponentGone", "gone": True,
                                 "claimWinInSeconds": 0}]
        claimed = await s.post(f"/api/board/game/{game_id}/claim-draw", bob)
        assert claimed.status_code == 200, claimed.text
        state = entry.state()
        assert state["status"] == "timeout" and "winner" not in state
        assert state["termination"]["name"] == "abandoned"
        stored = await s.services.db.run(lambda store, conn: store.load(entry.meta.store_id))
        assert stored.log == entry.game.log  # the claim is an event of the game's log

    run(tmp_path, scenario)


def test_a_player_never_at_the_board_is_not_gone(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        game_id, alice, _ = await friendly_game(s, **{"clock.limit": "300"})
        entry = await s.game(game_id)
        s.clock.advance(10 * WAIT_MS)
        refused = await s.post(f"/api/board/game/{game_id}/claim-victory", alice)
        assert refused.status_code == 400  # bob never held a stream: he is not gone
        assert s.services.presence.absent_ms(entry.id, Side.BLACK) == 0
        assert s.services.presence.state(entry, Side.BLACK) == "absent"  # not arrived

    run(tmp_path, scenario)


def test_no_claim_in_correspondence(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        game_id, alice, bob = await friendly_game(s, days="3")
        await play(s, game_id, "e2e4 e7e5", alice, bob)
        entry = await s.game(game_id)
        presence = s.services.presence
        white, black = asyncio.Queue[Line](), asyncio.Queue[Line]()
        presence.arrive(entry, Side.WHITE, white)
        presence.arrive(entry, Side.BLACK, black)
        presence.leave(entry, Side.WHITE, white)
        s.clock.advance(GONE_MS)
        presence.look()
        assert lines(black) == [{"type": "opponentGone", "gone": True}]  # no wait: no claim
        s.clock.advance(10 * WAIT_MS)
        refused = await s.post(f"/api/board/game/{game_id}/claim-victory", bob)
        assert refused.status_code == 400 and "correspondence" in refused.json()["error"]

    run(tmp_path, scenario)
