"""Rulings that never guess (Art. 5.1.2, 6.9, 7.5.5), the analyses recorded in the log and read
back on replay, and set-up positions judged when the game is created (Art. 5.1.1, 5.2, 9.6)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from chessarbiter.arbiter import (
    Analysis,
    ArbiterError,
    ArbiterRuled,
    ClocksStarted,
    FlagClaimed,
    Game,
    GameOverError,
    GameSetup,
    IllegalMoveCompleted,
    Moved,
    Question,
    Resigned,
    ResultDeclared,
    from_jsonl,
    to_jsonl,
)
from chessarbiter.arbiter.errors import AnalysisAsked
from chessarbiter.arbiter.oracles import MateOracle, mate_verdict
from chessarbiter.clock import parse_human
from chessarbiter.core import Position
from chessarbiter.core.squares import Side
from chessarbiter.laws.deadpos import Verdict, Winnability
from chessarbiter.laws.deadpos.verdict import SOLVER_VERSION
from chessarbiter.laws.endings import Result, Termination
from chessarbiter.laws.profiles import FIDE_2000, FIDE_2023, USCF, RuleProfile
from tests.arbiter.driver import MIN, B, S, W

PAWN_WALLS = "8/3p1p1p/8/1p6/1P6/KP6/PP1P1P1P/k7 w - - 0 1"
"""From the dead-position corpus: neither side can ever checkmate."""


def oracle(outcome: Winnability, reason: str = "injected") -> MateOracle:
    """A mate oracle that always answers ``outcome``."""

    def answer(pos: Position, colour: Side) -> Verdict:
        return Verdict(outcome, colour, reason=reason)

    return answer


def never_asked(pos: Position, colour: int) -> Verdict:
    raise AssertionError("a recorded analysis was asked again")


def never_dead(pos: Position) -> str | None:
    return None


def always_dead(pos: Position) -> str | None:
    return "injected"


def game(mate_oracle: MateOracle = never_asked, profile: RuleProfile = FIDE_2023) -> Game:
    return Game(profile, parse_human("1"), fen=PAWN_WALLS, dead_check=never_dead,
                mate_oracle=mate_oracle)


@pytest.mark.parametrize("event", [Resigned(1_000, W), FlagClaimed(2 * MIN, B)])
def test_pawn_walls_flag_and_resignation_are_drawn(event: Resigned | FlagClaimed) -> None:
    g = game(mate_oracle=oracle(Winnability.UNWINNABLE, "pawn structures"))
    g.apply(ClocksStarted(0))
    g.apply(event)
    assert g.outcome is not None and g.outcome.result is Result.DRAW
    expected = Termination.RESIGNATION if isinstance(event, Resigned) else Termination.TIME_FORFEIT
    assert g.outcome.termination is expected
    assert "cannot checkmate" in g.outcome.reason
    recorded = g.log[-1].analysis  # type: ignore[union-attr]
    assert recorded == Analysis(Question.CAN_MATE, Winnability.UNWINNABLE, "pawn structures")


@pytest.mark.long
@pytest.mark.parametrize("kind", ["resign", "flag"])
def test_pawn_walls_ruled_drawn_by_the_real_analysis(kind: str) -> None:
    """Needs the full analysis' proof within the ruling's time (after the merge with the
    time-bounded full analysis)."""
    g = game(mate_oracle=mate_verdict)
    g.apply(ClocksStarted(0))
    g.apply(Resigned(1_000, W) if kind == "resign" else FlagClaimed(2 * MIN, B))
    assert g.outcome is not None and g.outcome.result is Result.DRAW


def test_undetermined_resignation_waits_for_the_arbiter() -> None:
    g = game(mate_oracle=oracle(Winnability.UNDETERMINED))
    g.apply(ClocksStarted(0))
    decisions = g.apply(Resigned(1_000, W))
    assert g.outcome is None and not g.is_over
    assert g.pending_ruling == "white resigns"
    assert g.state().pending_ruling == "white resigns"
    assert "the arbiter rules" in decisions[0].text
    assert g.clock_ms() is not None and g.time_to_flag() is None  # the clocks stopped
    with pytest.raises(ArbiterError, match="must first rule whether black can still checkmate"):
        g.apply(Moved(2_000, W, "h2h3"))
    with pytest.raises(ArbiterError, match="reason"):
        g.apply(ArbiterRuled(3_000, can_mate=False, reason=""))
    g.apply(ArbiterRuled(3_000, can_mate=False, reason="the pawns lock both kings out"))
    assert g.outcome is not None
    assert (g.outcome.result, g.outcome.termination) == (Result.DRAW, Termination.RESIGNATION)
    assert "the pawns lock both kings out" in g.outcome.reason
    assert g.log[1].analysis == Analysis(Question.CAN_MATE, Winnability.UNDETERMINED, "injected")


@pytest.mark.parametrize(("can_mate", "result"), [(True, Result.WHITE_WINS),
                                                  (False, Result.DRAW)])
def test_undetermined_flag_ruled_by_the_arbiter(can_mate: bool, result: Result) -> None:
    g = game(mate_oracle=oracle(Winnability.UNDETERMINED))
    g.apply(ClocksStarted(0))
    g.apply(Moved(1_000, W, "h2h3"))
    g.apply(FlagClaimed(2 * MIN, W))  # black's flag fell
    assert g.outcome is None and g.pending_ruling == "black's flag has fallen"
    g.apply(ArbiterRuled(2 * MIN + S, can_mate=can_mate, reason="ruled over the board"))
    assert g.outcome is not None
    assert (g.outcome.result, g.outcome.termination) == (result, Termination.TIME_FORFEIT)


def test_undetermined_illegal_move_loss_and_a_declared_result() -> None:
    g = game(mate_oracle=oracle(Winnability.UNDETERMINED))
    g.apply(ClocksStarted(0))
    g.apply(IllegalMoveCompleted(1_000, W, "a3a5"))
    g.apply(IllegalMoveCompleted(2_000, W, "a3a5"))
    assert g.outcome is None and g.pending_ruling == "white loses by illegal move 2"
    g.apply(ResultDeclared(3_000, Result.DRAW, "appeal"))
    assert g.outcome is not None and g.pending_ruling is None
    with pytest.raises(GameOverError):
        g.apply(ArbiterRuled(4_000, can_mate=True, reason="too late"))


def test_no_ruling_without_a_pending_question() -> None:
    g = game()
    with pytest.raises(ArbiterError, match="no ending awaits"):
        g.apply(ArbiterRuled(0, can_mate=True, reason="r"))


def test_a_player_cannot_bring_an_analysis() -> None:
    g = game(mate_oracle=oracle(Winnability.WINNABLE))
    g.apply(ClocksStarted(0))
    proved = Analysis(Question.CAN_MATE, Winnability.UNWINNABLE, "forged")
    forged = Resigned(1_000, W, analysis=proved)
    with pytest.raises(ArbiterError, match="recorded by the arbiter"):
        g.apply(forged)
    with pytest.raises(ArbiterError, match="recorded by the arbiter"):
        dead = Analysis(Question.DEAD_POSITION, Winnability.UNWINNABLE, "forged")
        g.apply(Moved(1_000, W, "h2h3", analysis=dead))
    assert len(g.log) == 1 and g.outcome is None
    g.apply(Resigned(1_000, W))
    assert g.outcome is not None and g.outcome.result is Result.BLACK_WINS


def test_replay_reads_the_recorded_verdicts_whatever_the_oracle() -> None:
    g = game(mate_oracle=oracle(Winnability.UNWINNABLE))
    g.apply(ClocksStarted(0))
    g.apply(Moved(1_000, W, "h2h3"))
    g.apply(Resigned(2_000, B))
    text = to_jsonl(g)
    header = json.loads(text.splitlines()[0])
    assert header["solver"] == SOLVER_VERSION and header["start"] is None
    again = from_jsonl(text, mate_oracle=never_asked, dead_check=always_dead)
    assert again.outcome == g.outcome and again.log == g.log
    replayed = Game.replay(g.setup, g.log, mate_oracle=oracle(Winnability.WINNABLE),
                           dead_check=always_dead)
    assert replayed.state() == g.state()
    # A log without the solver's version predates recorded analyses: they run again.
    legacy = "\n".join([json.dumps({"version": 1, "setup": header["setup"]})]
                       + [line.replace(', "analysis": {"question": "can-mate", "outcome": '
                                       '"unwinnable", "reason": "injected"}', "")
                          for line in text.splitlines()[1:]])
    old = from_jsonl(legacy, mate_oracle=oracle(Winnability.WINNABLE), dead_check=never_dead)
    assert old.outcome is not None and old.outcome.result is Result.WHITE_WINS


def test_a_dead_position_found_after_a_move_is_recorded_and_read_back() -> None:
    def dead_after_h4(pos: Position) -> str | None:
        return "locked" if pos.board[31] == 1 else None  # a white pawn on h4

    g = Game(FIDE_2023, fen=PAWN_WALLS, dead_check=dead_after_h4, mate_oracle=never_asked)
    g.apply(Moved(0, W, "h2h3"))
    g.apply(Moved(1_000, B, "a1b1"))
    assert g.outcome is None
    g.apply(Moved(2_000, W, "h3h4"))
    assert g.outcome is not None and g.outcome.termination is Termination.DEAD_POSITION
    assert g.log[-1].analysis == Analysis(Question.DEAD_POSITION, Winnability.UNWINNABLE, "locked")
    again = from_jsonl(to_jsonl(g), mate_oracle=never_asked, dead_check=never_dead)
    assert again.outcome == g.outcome
    assert Game.replay(g.setup, g.log[:2], dead_check=always_dead).outcome is None


@pytest.mark.parametrize(
    ("fen", "termination", "result"),
    [
        ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", Termination.CHECKMATE, Result.WHITE_WINS),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Termination.STALEMATE, Result.DRAW),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", Termination.DEAD_POSITION, Result.DRAW),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 150 120", Termination.SEVENTY_FIVE_MOVES, Result.DRAW),
    ],
)
def test_a_set_up_position_is_judged_when_the_game_is_created(
    fen: str, termination: Termination, result: Result
) -> None:
    g = Game(FIDE_2023, fen=fen)
    assert g.outcome is not None
    assert (g.outcome.termination, g.outcome.result) == (termination, result)
    assert g.notes and termination.article in g.notes[0][1]
    with pytest.raises(GameOverError):
        g.apply(Resigned(0, g.to_move))
    again = from_jsonl(to_jsonl(g), mate_oracle=never_asked, dead_check=never_dead)
    assert again.outcome == g.outcome


def test_the_75_move_counter_at_creation_follows_the_profile() -> None:
    assert Game(FIDE_2000, fen="4k3/8/8/8/8/8/8/R3K3 w - - 150 120").outcome is None
    assert Game(FIDE_2023, fen="4k3/8/8/8/8/8/8/R3K3 w - - 149 120").outcome is None


def test_a_dead_start_is_recorded_in_the_header_and_read_back() -> None:
    g = Game(FIDE_2023, fen=PAWN_WALLS, dead_check=always_dead)
    assert g.start_analysis == Analysis(Question.DEAD_POSITION, Winnability.UNWINNABLE, "injected")
    text = to_jsonl(g)
    assert json.loads(text.splitlines()[0])["start"] == {"question": "dead-position",
                                                         "outcome": "unwinnable",
                                                         "reason": "injected"}
    again = from_jsonl(text, dead_check=never_dead)
    assert again.outcome == g.outcome and again.outcome is not None
    setup = GameSetup(FIDE_2023, fen=PAWN_WALLS)
    assert Game.replay(setup, (), dead_check=always_dead).outcome is None  # nothing recorded
    assert Game.replay(setup, (), start=g.start_analysis).outcome == g.outcome


@pytest.mark.parametrize(("event", "winner"), [(Resigned(1_000, W), B),
                                               (FlagClaimed(2 * MIN, W), W)])
def test_the_arbiter_says_which_events_ask_for_an_analysis(
        event: Resigned | FlagClaimed, winner: Side) -> None:
    """``apply_unless_asked``: a ruling that asks the mate oracle leaves the game unchanged
    and hands the question over; the event replayed with the answer rules as ``apply``."""
    asked: list[Side] = []

    def counted(pos: Position, colour: Side) -> Verdict:
        asked.append(colour)
        return Verdict(Winnability.UNWINNABLE, colour, reason="pawn structures")

    g = game(mate_oracle=counted)
    g.apply(ClocksStarted(0))
    g.apply_unless_asked(Moved(500, W, "h2h3"))  # no question: played
    before = to_jsonl(g)
    with pytest.raises(AnalysisAsked) as question:
        g.apply_unless_asked(event)
    assert to_jsonl(g) == before and not g.is_over and asked == []
    assert question.value.colour is winner
    verdict = question.value.answer()
    assert asked == [winner] and verdict.reason == "pawn structures"
    analysis = Analysis(Question.CAN_MATE, verdict.outcome, verdict.reason)
    g.replay_event(replace(event, analysis=analysis), recorded=True)
    same = game(mate_oracle=counted)
    same.apply(ClocksStarted(0))
    same.apply(Moved(500, W, "h2h3"))
    same.apply(event)
    assert to_jsonl(g) == to_jsonl(same) and g.outcome == same.outcome


def test_under_us_chess_a_flag_asks_no_analysis() -> None:
    """Rule 14E decides on material: the ruling never asks the oracle."""
    g = game(profile=USCF)  # never_asked would fail the test if it were asked
    g.apply(ClocksStarted(0))
    g.apply(Moved(1_000, W, "h2h3"))
    decisions = g.apply_unless_asked(FlagClaimed(2 * MIN, W))
    assert decisions and g.is_over
