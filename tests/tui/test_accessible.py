"""The accessible line mode, played through its input and output functions."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from chessarbiter.arbiter.game import Game
from chessarbiter.clock import Side, parse_human
from chessarbiter.laws.profiles import FIDE_2023, InputMode
from chessarbiter.live.play import Play
from chessarbiter.live.players import BuiltinPlayer
from chessarbiter.live.session import LiveGame
from chessarbiter.tui.accessible import run_accessible
from tests.clock.fake_time import FakeTime


def test_two_people_play_a_short_game_in_words(tmp_path: Path) -> None:
    game = Game(replace(FIDE_2023, input_mode=InputMode.DIGITAL), parse_human("10+0"))
    play = Play(LiveGame(game, now=FakeTime()), {}, spoken=True, pgn_path=tmp_path / "g.pgn")
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
    assert any(line.startswith("game over: 0-1 by checkmate") for line in said)
    assert prompts[:2] == ["white> ", "black> "] and prompts[-1] == "game over> "
    assert '[Result "0-1"]' in (tmp_path / "g.pgn").read_text()


def test_engine_moves_are_announced(tmp_path: Path) -> None:
    game = Game(replace(FIDE_2023, input_mode=InputMode.DIGITAL), None,
                fen="6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1")
    engine = BuiltinPlayer(4, seed=3)
    play = Play(LiveGame(game, now=FakeTime()), {Side.WHITE: engine}, spoken=True)
    said: list[str] = []
    lines = iter(["h6", "quit"])
    run_accessible(play, lambda _: next(lines), said.append, watch=False)
    assert "black: pawn h6" in said
    assert any(line.startswith("white: ") for line in said)
