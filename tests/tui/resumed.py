"""A game played 1.e4 and a reply to a journal, then resumed from it (for the "game resumed"
notices of both interfaces)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from chessarbiter.arbiter import Game
from chessarbiter.clock import Side, parse_human
from chessarbiter.laws.profiles import FIDE_2023, InputMode
from chessarbiter.session.live import LiveGame
from chessarbiter.store.journal import Journal
from tests.clock.fake_time import FakeTime


def resumed_game(tmp_path: Path, reply: str) -> LiveGame:
    """White plays e4 after 4 s, Black ``reply`` after 7 s; the game read back from its
    journal, with a fresh time source."""
    time = FakeTime()
    path = tmp_path / "g.jsonl"
    game = Game(replace(FIDE_2023, input_mode=InputMode.DIGITAL), parse_human("5+0"))
    live = LiveGame(game, now=time, journal=Journal.create(path, game))
    live.start()
    time.advance(4_000)
    live.move(Side.WHITE, "e4")
    time.advance(7_000)
    live.move(Side.BLACK, reply)
    live.close()
    resumed, journal, _ = Journal.resume(path)
    return LiveGame(resumed, now=FakeTime(), journal=journal)
