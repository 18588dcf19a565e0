"""People and engines at one table: typed answers to actions, engine moves, and engines that
fail lose by the rules."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest

from chessarbiter.arbiter.events import FlagObserved, Forfeited
from chessarbiter.arbiter.game import Game
from chessarbiter.clock import Side, TimeControl, parse_human
from chessarbiter.core.position import STARTING_FEN, Position
from chessarbiter.engines.uci_client import EngineFailure
from chessarbiter.laws.endings import Result, Termination
from chessarbiter.laws.profiles import FIDE_2023, InputMode
from chessarbiter.present.answers import answer_lines
from chessarbiter.session.commands import Command, Verb, read_command
from chessarbiter.session.live import LiveGame
from chessarbiter.session.play import Play, Thought
from chessarbiter.session.players import BuiltinPlayer, player_from_spec
from chessarbiter.session.results import EngineFailed, Refused, Resumed, Ruling
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
    play = Play(LiveGame(game, now=time), {Side.BLACK: engine})
    play.start()
    return play


def act(play: Play, line: str) -> Ruling | Refused:
    command = read_command(line)
    assert command is not None
    return play.act(command, play.human_side())


def test_person_and_engine_take_turns() -> None:
    time = FakeTime()
    play = table(Scripted(["e7e5"]), time)
    assert play.engine_to_move() is None and play.human_side() is Side.WHITE
    moved = act(play, "e4")
    assert isinstance(moved, Ruling) and moved.action is Verb.MOVE and moved.decisions == ()
    assert moved.played is not None and moved.played.side is Side.WHITE
    assert moved.played.before.fen() == STARTING_FEN
    assert moved.played.before.uci(moved.played.move) == "e2e4"
    assert moved.after.to_move is Side.BLACK and moved.after.outcome is None
    assert moved.after.clocks == (300_000, 300_000)
    assert answer_lines(moved) == ["1. e4"]
    [answer] = play.engine_move()
    assert isinstance(answer, Ruling) and answer.played is not None
    assert answer.played.side is Side.BLACK and answer_lines(answer) == ["1... e5"]
    assert play.live.game.to_move is Side.WHITE


def test_engine_failures_lose_by_the_rules() -> None:
    for failure in (EngineFailure("crash", "exit code 1"), "e7e4", "garbage"):
        time = FakeTime()
        play = table(Scripted([failure]), time)
        act(play, "e4")
        [answer] = play.engine_move()
        outcome = play.live.game.outcome
        assert outcome is not None and outcome.result is Result.WHITE_WINS, failure
        assert isinstance(play.live.game.log[-1], Forfeited)
        assert isinstance(answer, EngineFailed) and answer.name == "scripted"
        assert answer.after.outcome == outcome and answer.decisions
        assert answer.move == (None if isinstance(failure, EngineFailure) else failure)
        assert answer.failure.kind == ("crash" if isinstance(failure, EngineFailure)
                                       else "illegal")
        lines = answer_lines(answer)
        assert lines[0].startswith("scripted played " if answer.move else "scripted failed: ")
        assert lines[-1].startswith("game over: 1-0 by forfeit")


def test_a_hanging_engine_loses_on_its_flag_unless_the_opponent_cannot_mate() -> None:
    time = FakeTime()
    hang = EngineFailure("timeout", "no bestmove")
    play = table(Scripted([hang], time, think_ms=400_000), time)
    act(play, "e4")
    [answer] = play.engine_move()
    # the flag fell while it thought: seen, it ends the game before the failure counts
    assert isinstance(answer, Ruling) and answer.action is None and answer.played is None
    assert isinstance(play.live.game.log[-1], FlagObserved)
    outcome = play.live.game.outcome
    assert outcome is not None and outcome.termination is Termination.TIME_FORFEIT
    assert outcome.result is Result.WHITE_WINS
    time = FakeTime()
    bare = table(Scripted([hang], time, think_ms=400_000), time,
                 fen="3qk3/8/8/8/8/8/8/4K3 w - - 0 1")
    act(bare, "Kf2")
    bare.engine_move()
    outcome = bare.live.game.outcome
    assert outcome is not None and outcome.termination is Termination.TIME_FORFEIT
    assert outcome.result is Result.DRAW  # Art. 6.9: a lone king cannot checkmate


def test_builtin_engine_plays_legal_moves_to_the_end() -> None:
    time = FakeTime()
    game = Game(PROFILE, None, fen="6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    engine = BuiltinPlayer(4, seed=1)
    play = Play(LiveGame(game, now=time), {Side.WHITE: engine})
    [answer] = play.engine_move()
    assert isinstance(answer, Ruling) and answer.after.outcome is not None
    assert answer.after.outcome.termination is Termination.CHECKMATE
    lines = answer_lines(answer)
    assert lines[0] == "1. Ra8#" and "game over" in lines[-1]
    assert play.engine_move() == ()
    play.close()


def test_refused_actions_change_nothing_and_say_why() -> None:
    time = FakeTime()
    play = table(Scripted([]), time)
    before = play.live.game.state()
    for line, action in (("Ke2", Verb.MOVE), ("accept", Verb.ACCEPT),
                         ("resign purple", Verb.RESIGN)):
        answer = act(play, line)
        assert isinstance(answer, Refused) and answer.action is action, line
        assert answer.reason and answer.after.to_move is Side.WHITE
    assert play.live.game.state() == before
    refused = act(play, "resign purple")
    assert isinstance(refused, Refused)
    assert refused.reason == "'purple' is not a side: say white or black"
    with pytest.raises(ValueError, match="board: not an action"):
        play.act(Command(Verb.BOARD))


def test_offers_claims_and_a_flag_seen_are_typed() -> None:
    time = FakeTime()
    play = table(Scripted([]), time, tc="90+30")
    claim = act(table(Scripted([]), FakeTime()), "claim")  # a wrong claim of a repetition
    assert isinstance(claim, Ruling) and claim.action is Verb.CLAIM and claim.decisions
    assert claim.after.pending_offer is Side.WHITE  # it stands as a draw offer (Art. 9.2.3)
    offered = act(play, "e4 =")
    assert isinstance(offered, Ruling) and offered.played is not None
    assert offered.played.offer_draw and offered.after.pending_offer is Side.WHITE
    assert answer_lines(offered)[0] == "1. e4 (=)"
    assert answer_lines(offered, spoken=True)[0] == "white: pawn e4, offers a draw"
    assert play.tick() is None
    time.advance(100 * 60_000)
    flagged = play.tick()
    assert isinstance(flagged, Ruling) and flagged.action is None
    assert flagged.after.outcome is not None
    assert flagged.after.outcome.termination is Termination.TIME_FORFEIT
    assert play.tick() is None


def test_a_resumed_game_answers_with_its_last_move() -> None:
    time = FakeTime()
    play = table(Scripted(["e7e5"]), time)
    begun = play.start()  # the clocks were started: the game has begun, no move yet
    assert isinstance(begun, Resumed) and begun.last is None
    assert answer_lines(begun) == ["game resumed before the first move; white to move; "
                                   "white 5:00, black 5:00"]
    act(play, "e4")
    play.engine_move()
    resumed = play.start()
    assert isinstance(resumed, Resumed) and resumed.last is not None
    assert resumed.last.side is Side.BLACK
    assert resumed.last.before.uci(resumed.last.move) == "e7e5"
    assert answer_lines(resumed) == ["game resumed after 1... e5; white to move; "
                                     "white 5:00, black 5:00"]


@pytest.mark.parametrize("level", ["\u00b3", "\u0663", "9" * 5000, "0", "11", "x"])
def test_engine_levels_outside_1_to_10_are_named(level: str) -> None:
    with pytest.raises(ValueError, match=r"level .*expected .*1.*10"):
        player_from_spec(f"engine:{level}")


def test_an_engine_thinks_in_one_thread_and_its_move_is_played_in_another() -> None:
    time = FakeTime()
    play = table(Scripted(["e7e5", "g8f6"]), time)
    act(play, "e4")
    thoughts: list[Thought | None] = []
    worker = threading.Thread(target=lambda: thoughts.append(play.think()))
    worker.start()
    worker.join()
    [thought] = thoughts
    assert thought is not None and len(play.live.game.records) == 1  # not played yet
    [answer] = play.play_thought(thought)
    assert isinstance(answer, Ruling) and answer.played is not None
    assert answer.played.before.uci(answer.played.move) == "e7e5"
    assert play.play_thought(thought) == ()  # played once: the game has moved on
    act(play, "Nf3")
    standing = play.think()
    assert standing is not None
    act(play, "offer")  # not a move: the answer still stands
    [moved] = play.play_thought(standing)
    assert isinstance(moved, Ruling) and moved.played is not None
    assert play.think() is None  # a person is to move


def test_an_answer_that_comes_after_the_game_was_closed_records_nothing() -> None:
    time = FakeTime()
    play = table(Scripted(["e7e5"]), time, tc="1+0")
    act(play, "e4")
    thought = play.think()
    assert thought is not None
    time.advance(120_000)  # a flag has fallen meanwhile, but the players have left
    play.close()
    events = len(play.live.game.log)
    assert play.play_thought(thought) == () and len(play.live.game.log) == events
