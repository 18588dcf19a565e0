"""The full-screen game driven headless through Textual's pilot, as a person would."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

from textual.widgets import RichLog, Static

from chessarbiter.arbiter.game import Game
from chessarbiter.clock import Side, parse_human
from chessarbiter.laws.profiles import FIDE_2023, InputMode
from chessarbiter.live.play import Play
from chessarbiter.live.players import BuiltinPlayer
from chessarbiter.live.session import LiveGame
from chessarbiter.tui.app import GameApp
from tests.clock.fake_time import FakeTime


def _text(app: GameApp, selector: str) -> str:
    return str(app.query_one(selector, Static).render())


def _log(app: GameApp) -> str:
    return "\n".join(line.text for line in app.query_one("#log", RichLog).lines)


def test_a_person_plays_the_engine(tmp_path: Path) -> None:
    time = FakeTime()
    game = Game(replace(FIDE_2023, input_mode=InputMode.DIGITAL), parse_human("5+3"))
    play = Play(LiveGame(game, now=time), {Side.BLACK: BuiltinPlayer(1, seed=5)},
                unicode=False, pgn_path=tmp_path / "g.pgn")

    async def scenario() -> None:
        app = GameApp(play)
        async with app.run_test() as pilot:
            await pilot.press(*"e4", "enter")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert "1. e4" in _text(app, "#moves")
            assert game.to_move is Side.WHITE  # the engine answered
            board = _text(app, "#board")
            assert board.splitlines()[4][10] == "P"  # the pawn on e4
            time.advance(20_000)
            await pilot.press(*"Ke3", "enter")  # illegal: a clear message, nothing changes
            await pilot.pause()
            assert "Ke3" in _log(app) and len(game.records) == 2
            assert "white" in _text(app, "#bottom-clock")
            await pilot.press("ctrl+f")
            assert _text(app, "#board").splitlines()[-1].strip().startswith("h g f")
            await pilot.press(*"resign", "enter")
            await pilot.pause()
            assert "game over" in _text(app, "#status")
            await pilot.press("ctrl+q")

    asyncio.run(scenario())
    assert (tmp_path / "g.pgn").read_text().count('[Result "0-1"]') == 1
