"""A game's flag timer is not set again on every move: a timer due earlier than the new
instant is kept; it looks, finds no flag fallen, and is set for the new instant, at which
the flag is recorded (not before)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from chessarbiter.arbiter.events import ClocksSet
from chessarbiter.server.app import open_services
from chessarbiter.server.config import ServerConfig
from tests.server.helpers import next_line, queen_ending


def test_an_earlier_timer_is_kept_and_the_flag_falls_at_the_later_instant(
        tmp_path: Path) -> None:
    async def main() -> tuple[bool, bool, str, int]:
        hub = open_services(ServerConfig(db=tmp_path / "games.sqlite")).hub
        await hub.start()
        try:
            entry = await queen_ending(hub)
            stream = entry.subscribe()
            await hub.act(entry, None, lambda at: ClocksSet(at, 40, 300_000, "test"))
            await next_line(stream)
            early = entry.timer
            await hub.act(entry, None, lambda at: ClocksSet(at, 400, 300_000, "test"))
            await next_line(stream)
            kept = entry.timer is early
            set_at = entry.game.log[-1].at_ms
            state = json.loads(await next_line(stream, timeout=10) or b"")
            flag = entry.game.log[-1]
            return kept, early is not None, state["status"], flag.at_ms - set_at
        finally:
            await hub.stop()

    kept, had_timer, status, after = asyncio.run(main())
    assert had_timer and kept  # the later instant did not set the timer again
    assert status == "outoftime"
    assert after >= 400  # recorded at the flag's instant, not at the early look
