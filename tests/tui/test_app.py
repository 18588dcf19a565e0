"""The full-screen game driven headless through Textual's pilot, as a person would."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import RichLog, Static

from chessarbiter.arbiter.game import Game
from chessarbiter.clock import Side, parse_human
from chessarbiter.laws.profiles import FIDE_2023, InputMode
from chessarbiter.session.live import LiveGame
from chessarbiter.session.play import Play
from chessarbiter.session.players import BuiltinPlayer
from chessarbiter.tui.app import GameApp
from tests.clock.fake_time import FakeTime
from tests.session.test_store_failure import kept, stored_table
from tests.store.failing import FailingStore
from tests.tui.resumed import resumed_game


def _text(app: GameApp, selector: str) -> str:
    return str(app.query_one(selector, Static).render())


def _log(app: GameApp) -> str:
    return "\n".join(line.text for line in app.query_one("#log", RichLog).lines)


def test_a_person_plays_the_engine(tmp_path: Path) -> None:
    time = FakeTime()
    game = Game(replace(FIDE_2023, input_mode=InputMode.DIGITAL), parse_human("5+3"))
    play = Play(LiveGame(game, now=time), {Side.BLACK: BuiltinPlayer(1, seed=5)},
                pgn_path=tmp_path / "g.pgn")

    async def scenario() -> None:
        app = GameApp(play, unicode=False)
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


def _shown(app: GameApp) -> list[str]:
    """The lines of messages on screen now (the log's visible rows, as rendered)."""
    log = app.query_one("#log", RichLog)
    height = log.scrollable_content_region.height
    return [log.render_line(y).text.rstrip() for y in range(height)]


def _play(control: str = "5+3") -> Play:
    game = Game(replace(FIDE_2023, input_mode=InputMode.DIGITAL), parse_human(control))
    return Play(LiveGame(game, now=FakeTime()), {})


RUY_LOPEZ = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Na5 Bc2 c5 d4 Qc7"


async def _type(pilot: Pilot[None], *lines: str) -> None:
    for line in lines:
        await pilot.press(*line, "enter")
    await pilot.pause()


def test_at_120x40_the_messages_get_the_free_space_and_help_shows_whole() -> None:
    async def scenario() -> None:
        app = GameApp(_play(), unicode=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await _type(pilot, *RUY_LOPEZ.split(), "help")
            assert app.query_one("#log", RichLog).region.height >= 24
            shown = _shown(app)
            assert "> help" in shown
            assert any(line.startswith("MOVE ") for line in shown)
            assert any(line.startswith("quit ") for line in shown)
            assert any(line.startswith("PageUp / PageDown  scroll") for line in shown)
            assert any(line.startswith("Articles are those of the FIDE Laws") for line in shown)
            await _type(pilot, "board")
            shown = _shown(app)
            assert "8 r . b .   r k ." in shown[-9:] and "  a b c d e f g h" in shown
            assert _text(app, "#moves").splitlines()[-1] == "11. d4 Qc7"

    asyncio.run(scenario())


def test_at_80x24_the_latest_moves_show_and_long_replies_scroll() -> None:
    async def scenario() -> None:
        app = GameApp(_play(), unicode=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await _type(pilot, *RUY_LOPEZ.split())
            moves = _text(app, "#moves").splitlines()
            assert moves[-1] == "11. d4 Qc7"
            assert len(moves) <= app.query_one("#moves", Static).region.height
            await _type(pilot, "help")
            assert _shown(app)[0] == "> help"  # a long reply shows from its start
            shown = _shown(app)  # fitted to the pane: each command's line whole, or wrapped
            assert shown[1] == "MOVE               play a move: Nf3, exd5, O-O, e8=Q, g1f3, Ng1-f3"
            claim = shown.index("claim [repetition|50] [MOVE]")  # under its column
            assert shown[claim + 1].startswith(" " * 19 + "claim a draw, on the board")
            assert len(_shown(app)) >= 8
            log = app.query_one("#log", RichLog)
            top = log.scroll_y
            await pilot.press("pagedown", "pagedown")
            await pilot.pause()
            assert any(line.startswith("Articles are those") for line in _shown(app))
            await pilot.press("pageup")
            await pilot.pause()
            assert log.scroll_y < top + 2 * len(_shown(app))
            await pilot.press("pageup", "pageup")
            await pilot.pause()
            assert log.scroll_y < top  # back to earlier messages

    asyncio.run(scenario())


def test_messages_use_san_plain_articles_and_no_fen() -> None:
    async def scenario() -> None:
        app = GameApp(_play(control="90+30"), unicode=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await _type(pilot, "Ke2", "claim repetition Nf3", "Nc3", "Nf3", "resign")
            log = _log(app)
            assert "illegal move 'Ke2': e2 holds a piece of the side to move" in log
            assert "white must play Nf3 (Art. 9.5)" in log
            assert "g1f3" not in log and "rnbqkbnr" not in log and "(S" not in log
            assert "Nc3 breaks Art. 9.5: the claimant's intended move Nf3 must be played" in log
            assert _text(app, "#status").startswith("game over: 1-0 by resignation (Art. 5.1.2)")

    asyncio.run(scenario())


def test_a_resumed_game_is_announced_with_the_clocks(tmp_path: Path) -> None:
    play = Play(resumed_game(tmp_path, "e5"), {})

    async def scenario() -> None:
        app = GameApp(play, unicode=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert "game resumed after 1... e5; white to move; white 4:56, black 4:53" in _log(app)
            shown = _shown(app)
            assert shown[0].startswith("chessarbiter: two people play, white and black, at")
            assert any(line.startswith("game resumed after 1... e5") for line in shown)
            await pilot.press("ctrl+q")

    asyncio.run(scenario())


def test_a_store_that_fails_stops_the_game_and_keeps_what_was_recorded(tmp_path: Path) -> None:
    store = FailingStore(tmp_path / "games.sqlite", fail_at=4)  # the engine's reply fails
    play = stored_table(store, BuiltinPlayer(1, seed=5), tmp_path)

    async def scenario() -> None:
        app = GameApp(play, unicode=False)
        async with app.run_test() as pilot:
            await pilot.press(*"e4", "enter")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert "game stopped: cannot record the game" in _log(app)
            assert "forfeit" not in _log(app) and "illegal" not in _log(app)
        assert app.return_code == 1

    asyncio.run(scenario())
    assert play.failure is not None and "disk I/O error" in f"{play.failure}"
    saved = (tmp_path / "g.pgn").read_text()
    assert saved == kept(tmp_path / "games.sqlite") and "1. e4 {" in saved
    assert '[Result "*"]' in saved
