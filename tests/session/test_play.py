"""People and engines at one table: engine moves, and engines that fail lose by the rules."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest

from chessarbiter.arbiter.events import Forfeited
from chessarbiter.arbiter.game import Game
from chessarbiter.clock import Side, TimeControl, parse_human
from chessarbiter.core.position import STARTING_FEN, Position
from chessarbiter.engines.tt import MATE
from chessarbiter.engines.uci_client import EngineFailure
from chessarbiter.laws.endings import Result, Termination
from chessarbiter.laws.profiles import FIDE_2023, InputMode
from chessarbiter.session.live import LiveGame
from chessarbiter.session.play import Play
from chessarbiter.session.players import BuiltinPlayer, info_score, player_from_spec
from tests.clock.fake_time import FakeTime

PROFILE = replace(FIDE_2023, input_mode=InputMode.DIGITAL)


class Scripted:
    """An engine that answers from a list (moves in UCI or failures)."""

    name = "scripted"
    score_cp: int | None = None

    def __init__(self, answers: list[str | EngineFailure], time: FakeTime | None = None,
                 think_ms: int = 0) -> None:
        self.answers = answers
        self.time = time
        self.think_ms = think_ms
        self.closed = False

    def think(self, pos: Position, control: TimeControl | None,
              clocks: tuple[int, int] | None, stop: threading.Event) -> str | EngineFailure:
        if self.time is not None:
            self.time.advance(self.think_ms)
        return self.answers.pop(0)

    def close(self) -> None:
        self.closed = True


def table(engine: Scripted, time: FakeTime, fen: str | None = None, tc: str = "5+0") -> Play:
    game = Game(PROFILE, parse_human(tc), fen=fen or STARTING_FEN)
    play = Play(LiveGame(game, now=time), {Side.BLACK: engine}, unicode=False)
    play.start()
    return play


def test_person_and_engine_take_turns() -> None:
    time = FakeTime()
    play = table(Scripted(["e7e5"]), time)
    assert play.engine_to_move() is None and play.human_side() is Side.WHITE
    assert play.type_line("e4").lines == ["1. e4"]
    assert play.engine_move() == ["1... e5"]
    assert play.live.game.to_move is Side.WHITE


def test_engine_failures_lose_by_the_rules() -> None:
    for failure in (EngineFailure("crash", "exit code 1"), "e7e4", "garbage"):
        time = FakeTime()
        play = table(Scripted([failure]), time)
        play.type_line("e4")
        lines = play.engine_move()
        outcome = play.live.game.outcome
        assert outcome is not None and outcome.result is Result.WHITE_WINS, failure
        assert isinstance(play.live.game.log[-1], Forfeited)
        assert any("game over" in line for line in lines)


def test_a_hanging_engine_loses_on_its_flag_unless_the_opponent_cannot_mate() -> None:
    time = FakeTime()
    hang = EngineFailure("timeout", "no bestmove")
    play = table(Scripted([hang], time, think_ms=400_000), time)
    play.type_line("e4")
    play.engine_move()
    outcome = play.live.game.outcome
    assert outcome is not None and outcome.termination is Termination.TIME_FORFEIT
    assert outcome.result is Result.WHITE_WINS
    time = FakeTime()
    bare = table(Scripted([hang], time, think_ms=400_000), time,
                 fen="3qk3/8/8/8/8/8/8/4K3 w - - 0 1")
    bare.type_line("Kf2")
    bare.engine_move()
    outcome = bare.live.game.outcome
    assert outcome is not None and outcome.termination is Termination.TIME_FORFEIT
    assert outcome.result is Result.DRAW  # Art. 6.9: a lone king cannot checkmate


def test_builtin_engine_plays_legal_moves_to_the_end() -> None:
    time = FakeTime()
    game = Game(PROFILE, None, fen="6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    engine = BuiltinPlayer(4, seed=1)
    play = Play(LiveGame(game, now=time), {Side.WHITE: engine}, unicode=False)
    lines = play.engine_move()
    assert lines[0] == "1. Ra8#" and "game over" in lines[-1]
    play.close()


def test_info_scores_are_ascii_numbers_or_none() -> None:
    assert info_score("info depth 3 score cp -34 pv e2e4") == -34
    assert info_score("info score mate 2") == MATE - 2
    for value in ("\u00b3", "\u0663", "9" * 5000, "-", "1.5"):
        assert info_score(f"info depth 1 score cp {value} pv e2e4") is None, value


@pytest.mark.parametrize("level", ["\u00b3", "\u0663", "9" * 5000, "0", "11", "x"])
def test_engine_levels_outside_1_to_10_are_named(level: str) -> None:
    with pytest.raises(ValueError, match=r"level .*expected .*1.*10"):
        player_from_spec(f"engine:{level}")
