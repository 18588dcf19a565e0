"""The accessible line mode, played through its input and output functions."""

from __future__ import annotations

import re
import threading
from dataclasses import replace
from pathlib import Path

from chessarbiter.arbiter.game import Game
from chessarbiter.clock import Side, parse_human
from chessarbiter.laws.profiles import FIDE_2023, InputMode
from chessarbiter.session.live import LiveGame
from chessarbiter.session.play import Play
from chessarbiter.session.players import BuiltinPlayer
from chessarbiter.tui.accessible import run_accessible, watch_flags
from chessarbiter.tui.console import Console
from tests.clock.fake_time import FakeTime
from tests.session.test_store_failure import kept, stored_table
from tests.store.failing import FailingStore
from tests.tui.resumed import resumed_game


def test_two_people_play_a_short_game_in_words(tmp_path: Path) -> None:
    game = Game(replace(FIDE_2023, input_mode=InputMode.DIGITAL), parse_human("10+0"))
    play = Play(LiveGame(game, now=FakeTime()), {}, pgn_path=tmp_path / "g.pgn")
    lines = iter(["f3", "e5", "clock", "g4", "rank 5", "Qh4", "quit"])
    said: list[str] = []
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(lines)

    run_accessible(play, read, said.append, watch=False)
    assert "white: pawn f3" in said and "black: pawn e5" in said
    assert "white 10:00, black 10:00" in said
    assert "rank 5: a5 to d5 empty, e5 black pawn, f5 to h5 empty" in said
    assert "black: queen h4, checkmate" in said
    assert any(line.startswith("game over: black wins by checkmate (Art. 5.1.1)") for line in said)
    assert prompts[:2] == ["white> ", "black> "] and prompts[-1] == "game over> "
    assert '[Result "0-1"]' in (tmp_path / "g.pgn").read_text()


def test_engine_moves_are_announced(tmp_path: Path) -> None:
    game = Game(replace(FIDE_2023, input_mode=InputMode.DIGITAL), None,
                fen="6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1")
    engine = BuiltinPlayer(4, seed=3)
    play = Play(LiveGame(game, now=FakeTime()), {Side.WHITE: engine})
    said: list[str] = []
    lines = iter(["h6", "quit"])
    run_accessible(play, lambda _: next(lines), said.append, watch=False)
    assert "black: pawn h6" in said
    assert any(line.startswith("white: ") for line in said)


def _transcript(play: Play, typed: list[str]) -> list[str]:
    said: list[str] = []
    lines = iter([*typed, "quit"])
    run_accessible(play, lambda _: next(lines), said.append, watch=False)
    return said


def test_the_opening_line_says_the_side_the_opponent_and_the_time_control() -> None:
    game = Game(replace(FIDE_2023, input_mode=InputMode.DIGITAL), parse_human("5+3"))
    engine = BuiltinPlayer(1, seed=3)
    play = Play(LiveGame(game, now=FakeTime()), {Side.WHITE: engine})
    said = _transcript(play, [])
    assert said[0] == ("chessarbiter, accessible mode: you play black against chessarbiter "
                       "level 1; 5 minutes + 3 seconds per move.")
    two = Play(LiveGame(Game(FIDE_2023, parse_human("40/90+30, 30+30")), now=FakeTime()), {})
    assert _transcript(two, [])[0] == (
        "chessarbiter, accessible mode: two people play, white and black, at this keyboard; "
        "40 moves in 90 minutes + 30 seconds per move, then 30 minutes + 30 seconds per move."
    )


def test_captures_name_the_piece_taken_and_the_pawn_that_takes() -> None:
    game = Game(replace(FIDE_2023, input_mode=InputMode.DIGITAL), parse_human("10+0"))
    play = Play(LiveGame(game, now=FakeTime()), {})
    said = _transcript(play, ["e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5", "Nb5", "Qxa2"])
    assert "white: e-pawn takes pawn on d5" in said
    assert "black: queen takes pawn on d5" in said
    assert "black: queen takes pawn on a2" in said


def test_nothing_read_aloud_is_fen_code_or_jargon() -> None:
    game = Game(replace(FIDE_2023, input_mode=InputMode.DIGITAL), parse_human("90+30"))
    play = Play(LiveGame(game, now=FakeTime()), {})
    said = _transcript(play, ["e4", "Ke3", "claim repetition Nf6", "Nf6", "help", "flip",
                              "resign"])
    text = "\n".join(said)
    assert not re.search(r"\w+/\w+/\w+", text) and "rnbqkbnr" not in text  # no FEN
    assert "(S" not in text and "e2e4" not in text  # no 2000-rules key, no UCI
    assert "illegal move 'Ke3': no king can move to e3" in said
    assert "black must play knight f6 (Art. 9.5)" in said
    assert "120 seconds added to white's clock (Art. 9.5.3)" in said
    assert not any(line.startswith("flip") for line in said)  # not in help: nothing to turn
    assert "there is no board on screen to turn: try board, rank or file" in said
    assert any(line.startswith("Articles are those of the FIDE Laws") for line in said)
    assert any(line.startswith("game over: black wins by resignation (Art. 5.1.2)")
               for line in said)


def test_a_fallen_flag_is_announced_then_a_new_prompt() -> None:
    time = FakeTime()
    game = Game(replace(FIDE_2023, input_mode=InputMode.DIGITAL), parse_human("1+0"))
    play = Play(LiveGame(game, now=time), {})
    play.start()
    time.advance(61_000)
    said: list[str] = []
    shown: list[str] = []
    stopped = threading.Event()

    def show(text: str) -> None:
        shown.append(text)
        said.append(text)
        if text.endswith("> "):
            stopped.set()

    watch_flags(Console(play, spoken=True), said.append, show, stopped)
    assert said == ["\n",
                    "game over: black wins by time forfeit (Art. 6.9): white's flag has fallen",
                    "game over> "]
    assert shown == ["\n", "game over> "]


def test_a_resumed_game_is_announced_with_the_clocks(tmp_path: Path) -> None:
    play = Play(resumed_game(tmp_path, "d5"), {})
    said = _transcript(play, [])
    assert said[2] == ("game resumed after black: pawn d5; white to move; "
                       "white 4:56, black 4:53")


def test_a_store_that_fails_stops_the_game_said_once(tmp_path: Path) -> None:
    store = FailingStore(tmp_path / "games.sqlite", fail_at=4)  # 1... Nf6's write fails
    play = stored_table(store, BuiltinPlayer(1, seed=5), tmp_path)
    play.engines = {Side.WHITE: play.engines[Side.BLACK]}  # the engine has White
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return "Nf6" if len(prompts) == 1 else "e6"

    said: list[str] = []
    run_accessible(play, read, said.append, watch=False)
    stopped = [line for line in said if line.startswith("game stopped: ")]
    assert len(stopped) == 1 and "cannot record the game" in stopped[0]
    assert "everything before is kept in" in stopped[0]
    assert prompts == ["black> "]  # the game ends at once: nothing more is asked
    assert not any("forfeit" in line or "illegal" in line for line in said)
    saved = (tmp_path / "g.pgn").read_text()
    assert saved == kept(tmp_path / "games.sqlite") and "Nf6" not in saved


def test_the_result_is_announced_once() -> None:
    for typed, ending in ((["e4", "e5", "resign"], "by resignation"),
                          (["f3", "e5", "g4", "Qh4"], "by checkmate")):
        game = Game(replace(FIDE_2023, input_mode=InputMode.DIGITAL), parse_human("10+0"))
        said = _transcript(Play(LiveGame(game, now=FakeTime()), {}), typed)
        told = [line for line in said if "black wins" in line]
        assert len(told) == 1 and told[0].startswith(f"game over: black wins {ending}"), said


def test_a_flag_that_cannot_be_recorded_stops_the_game_from_the_watching_thread(
    tmp_path: Path,
) -> None:
    store = FailingStore(tmp_path / "games.sqlite", fail_at=3)  # the flag's write fails
    time = FakeTime()
    play = stored_table(store, None, tmp_path, time)
    time.advance(301_000)  # White's 5 minutes are gone
    said: list[str] = []
    stopped = threading.Event()

    def show(text: str) -> None:
        said.append(text)
        if text.endswith("> "):
            stopped.set()

    watcher = threading.Thread(target=watch_flags,
                               args=(Console(play, spoken=True), said.append, show, stopped))
    watcher.start()
    watcher.join(timeout=30)
    assert said[1].startswith("game stopped: cannot record the game: ")
    assert said[-1] == "game stopped> " and play.live.game.outcome is None
    play.close()
    assert (tmp_path / "g.pgn").read_text() == kept(tmp_path / "games.sqlite")
