"""Scenario tests of every ending, named after the article, under each profile where they differ."""

from __future__ import annotations

import pytest

from chessarbiter.arbiter import (
    ArbiterError,
    BothLost,
    Forfeited,
    Game,
    GameOverError,
    Moved,
    OfferAccepted,
    Resigned,
    ResultDeclared,
    oracles,
)
from chessarbiter.core import Position, parse_fen
from chessarbiter.core.squares import BLACK, WHITE
from chessarbiter.laws import mating_material
from chessarbiter.laws.deadpos import Winnability
from chessarbiter.laws.endings import Result, Termination
from chessarbiter.laws.profiles import FIDE_2000, FIDE_2023, ONLINE, PROFILES, USCF, RuleProfile
from tests.arbiter.driver import B, Driver, S, W

ALL = list(PROFILES.values())
KNIGHT_DANCE = "g1f3 g8f6 f3g1 f6g8"


@pytest.mark.parametrize("profile", ALL, ids=lambda p: p.name)
def test_art_5_1_1_checkmate_ends_the_game(profile: RuleProfile) -> None:
    d = Driver(profile)
    d.play("f2f3 e7e5 g2g4 d8h4")
    outcome = d.game.outcome
    assert outcome is not None and outcome.termination is Termination.CHECKMATE
    assert outcome.result is Result.BLACK_WINS and outcome.winner == 1
    with pytest.raises(GameOverError, match="game is over"):
        d.game.apply(Moved(d.tick(S), W, "a2a3"))


@pytest.mark.parametrize(
    ("profile", "expected"),
    [(FIDE_2023, "1/2-1/2"), (FIDE_2000, "0-1"), (USCF, "0-1"), (ONLINE, "0-1")],
    ids=lambda v: v.name if isinstance(v, RuleProfile) else v,
)
def test_art_5_1_2_resignation_drawn_if_the_opponent_cannot_mate(
    profile: RuleProfile, expected: str
) -> None:
    d = Driver(profile, fen="4k3/8/8/8/8/8/8/Q3K3 w - - 0 1")
    d.event(Resigned, side=B)
    assert d.result == "1-0"
    d = Driver(profile, fen="4k3/8/8/8/8/8/8/Q3K3 w - - 0 1")
    d.event(Resigned, side=W)
    assert d.result == expected
    assert d.game.outcome is not None
    assert d.game.outcome.termination is Termination.RESIGNATION


def test_art_5_1_2_resignation_by_the_side_not_to_move_loses() -> None:
    d = Driver(FIDE_2023)
    d.play("e2e4")
    d.event(Resigned, side=W)
    assert d.result == "0-1"


@pytest.mark.parametrize("profile", ALL, ids=lambda p: p.name)
def test_art_5_2_1_stalemate(profile: RuleProfile) -> None:
    d = Driver(profile, fen="7k/8/6Q1/8/8/8/8/K7 w - - 0 1")
    d.play("g6f7")
    assert d.game.outcome is not None
    assert (d.result, d.game.outcome.termination) == ("1/2-1/2", Termination.STALEMATE)


@pytest.mark.parametrize(
    ("fen", "move"),
    [
        ("4k3/8/8/8/8/8/4q3/3K4 w - - 0 1", "d1e2"),  # K v K after Kxe2
        ("4k3/8/8/8/8/8/3n4/2B1K3 w - - 0 1", "e1d2"),  # KB v K
        ("2b1k3/8/8/8/8/8/8/3nKB2 w - - 0 1", "e1d1"),  # KB v KB, bishops on one colour
    ],
)
def test_art_5_2_2_dead_position_ends_the_game(fen: str, move: str) -> None:
    d = Driver(FIDE_2023, fen=fen)
    assert d.game.outcome is None
    d.play(move)
    assert d.game.outcome is not None
    assert (d.result, d.game.outcome.termination) == ("1/2-1/2", Termination.DEAD_POSITION)


def test_art_5_2_2_knight_against_knight_is_not_dead() -> None:
    d = Driver(FIDE_2023, fen="4k3/8/8/2n5/8/8/3N4/4K3 w - - 0 1")
    d.play("d2f3")
    assert d.game.outcome is None


def test_art_5_2_3_agreement_not_before_both_have_moved_in_2023() -> None:
    d = Driver(FIDE_2023)
    d.play("e2e4", offer=True)
    with pytest.raises(ArbiterError, match=r"5\.2\.3"):
        d.event(OfferAccepted, side=B)
    d.play("e7e5")
    assert d.game.pending_offer is None


@pytest.mark.parametrize("profile", [FIDE_2000, USCF], ids=lambda p: p.name)
def test_art_5_3_agreement_at_any_time_in_2000(profile: RuleProfile) -> None:
    d = Driver(profile)
    d.play("e2e4", offer=True)
    d.event(OfferAccepted, side=B)
    assert d.game.outcome is not None
    assert (d.result, d.game.outcome.termination) == ("1/2-1/2", Termination.AGREEMENT)


def test_art_9_6_1_fivefold_repetition_is_automatic_in_2023() -> None:
    d = Driver(FIDE_2023)
    for _ in range(3):
        d.play(KNIGHT_DANCE)
    assert d.game.outcome is None
    d.play(KNIGHT_DANCE)
    assert d.game.outcome is not None
    assert d.game.outcome.termination is Termination.FIVEFOLD_REPETITION
    assert len(d.game.records) == 16


@pytest.mark.parametrize("profile", [FIDE_2000, USCF], ids=lambda p: p.name)
def test_art_9_6_1_no_automatic_fivefold_in_2000_and_uscf(profile: RuleProfile) -> None:
    d = Driver(profile)
    for _ in range(6):
        d.play(KNIGHT_DANCE)
    assert d.game.outcome is None
    d.event(ResultDeclared, result=Result.DRAW, reason="USCF 14K: fivefold repetition")
    assert d.game.outcome is not None
    assert d.game.outcome.termination is Termination.ARBITER_DECISION


def test_art_9_6_2_seventy_five_moves_end_the_game() -> None:
    d = Driver(FIDE_2023, fen="4k3/8/8/8/8/8/8/R3K3 w - - 149 120")
    d.play("a1a2")
    assert d.game.outcome is not None
    assert d.game.outcome.termination is Termination.SEVENTY_FIVE_MOVES
    d = Driver(FIDE_2000, fen="4k3/8/8/8/8/8/8/R3K3 w - - 149 120")
    d.play("a1a2")
    assert d.game.outcome is None


def test_art_9_6_2_checkmate_on_the_150th_ply_wins() -> None:
    d = Driver(FIDE_2023, fen="6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 120")
    d.play("a1a8")
    assert d.game.outcome is not None
    assert (d.result, d.game.outcome.termination) == ("1-0", Termination.CHECKMATE)


def test_online_threefold_and_fifty_moves_are_drawn_automatically() -> None:
    d = Driver(ONLINE)
    d.play(KNIGHT_DANCE)
    d.play(KNIGHT_DANCE)
    assert d.game.outcome is not None
    assert d.game.outcome.termination is Termination.THREEFOLD_REPETITION
    d = Driver(ONLINE, fen="4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
    d.play("a1a2")
    assert d.game.outcome is not None
    assert d.game.outcome.termination is Termination.FIFTY_MOVES


def test_art_11_7_forfeit_and_11_8_both_lose_scores() -> None:
    d = Driver(FIDE_2023)
    d.play("e2e4")
    d.event(Forfeited, side=W, reason="persistent refusal to comply (11.7)")
    assert d.result == "0-1"
    assert d.game.outcome is not None
    assert d.game.outcome.result.score(BLACK) == 1 and d.game.outcome.result.score(WHITE) == 0
    d.event(BothLost, reason="both refused to comply (11.8)")
    outcome = d.game.outcome
    assert outcome is not None and outcome.result is Result.BOTH_LOSE
    assert outcome.result.score(WHITE) == outcome.result.score(BLACK) == 0


def test_arbiter_decisions_need_a_reason_and_only_they_change_a_final_result() -> None:
    d = Driver(FIDE_2023)
    d.play("f2f3 e7e5 g2g4 d8h4")
    with pytest.raises(ArbiterError, match="reason"):
        d.event(ResultDeclared, result=Result.DRAW, reason="")
    with pytest.raises(GameOverError):
        d.event(Resigned, side=B)
    d.event(ResultDeclared, result=Result.DRAW, reason="appeal upheld")
    assert d.result == "1/2-1/2"


def test_art_5_2_2_the_dead_position_analysis_ends_a_locked_game() -> None:
    """The default dead check runs the quick dead-position analysis: locked pawn walls are
    found (material rules alone would not); a plain material check can be put in instead."""
    walls = "8/8/1k6/8/p1p1p1p1/P1P1P1P1/8/1K6 w - - 0 1"  # kings locked out by the pawns
    game = Game(FIDE_2023, fen="8/8/1k6/8/p1p1p1p1/P1P1P1P1/1n6/1K6 w - - 0 1")
    assert game.outcome is None
    game.apply(Moved(0, W, "b1b2"))  # the knight taken: the kings are locked out
    assert game.outcome is not None
    assert game.outcome.termination is Termination.DEAD_POSITION
    analysis = game.log[-1].analysis
    assert analysis is not None and analysis.outcome is Winnability.UNWINNABLE

    def material_only(pos: Position) -> str | None:
        dead = not any(mating_material.may_checkmate(pos, colour) for colour in (0, 1))
        return "material" if dead else None

    plain = Game(FIDE_2023, fen=walls, dead_check=material_only)
    plain.apply(Moved(0, W, "b1b2"))
    assert plain.outcome is None
    assert Game(FIDE_2023, fen=walls).outcome is not None  # judged when set up


def test_art_6_9_the_full_analysis_decides_a_flag() -> None:
    """The opponent of a flagged player has only a dark-squared bishop shut in behind its own
    pawns: material rules alone cannot tell, the full analysis proves he can never mate."""
    fen = "8/8/1k6/8/p1p1p1p1/P1P1P1P1/8/1KB5 w - - 0 1"
    assert mating_material.may_checkmate(parse_fen(fen), WHITE)
    assert oracles.mate_verdict(parse_fen(fen), WHITE).unwinnable
    assert oracles.mate_verdict(parse_fen("4k3/8/8/8/8/8/8/4KQ2 w - - 0 1"), WHITE).winnable
