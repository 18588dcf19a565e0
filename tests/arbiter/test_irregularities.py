"""Irregularities (Art. 7): two-handed moves (F23 7.5.4), illegal moves left standing and found
later or claimed (7.5.1, A.5.2; S7.4), a wrong initial position (7.2.1; S7.1a) and colours
reversed (7.3; S7.2). Every scenario also goes through the JSON log."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chessarbiter.arbiter import (
    ArbiterError,
    ClocksStarted,
    ColoursReversed,
    Event,
    Game,
    IllegalMoveClaimed,
    IllegalMoveFound,
    IllegalMoveUnnoticed,
    Moved,
    MovedWithTwoHands,
    WrongInitialPosition,
    from_jsonl,
    to_jsonl,
    to_pgn,
)
from chessarbiter.clock import parse_human
from chessarbiter.core import STARTING_FEN
from chessarbiter.core.squares import SQUARE_NAMES as SQUARES
from chessarbiter.laws.endings import Termination
from chessarbiter.laws.profiles import (
    FIDE_2000,
    FIDE_2023,
    FIDE_2023_BLITZ,
    FIDE_2023_RAPID,
    ONLINE,
    USCF,
    RuleProfile,
)
from tests.arbiter.driver import MIN, B, Driver, S, W
from tests.arbiter.test_properties import Maker, makers

AFTER_E4_E5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
RUY_LOPEZ = [
    "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7",
    "f1e1", "b7b5", "a4b3", "d7d6", "c2c3", "e8g8", "h2h3", "c6a5", "b3c2", "c7c5",
]
TEN_MOVES_EACH = " ".join(RUY_LOPEZ)


def same_after_the_log(game: Game) -> None:
    again = from_jsonl(to_jsonl(game))
    assert again.state() == game.state()
    assert Game.replay(game.setup, game.log).state() == game.state()


def refused(d: Driver, kind: type[Event], match: str, **fields: Any) -> None:
    before, log = d.game.state(), d.game.log
    with pytest.raises(ArbiterError, match=match):
        d.event(kind, **fields)
    assert d.game.state() == before and d.game.log == log


# -- F23 7.5.4: two hands ----------------------------------------------------------------


@pytest.mark.parametrize(("profile", "penalty"), [(FIDE_2023, 2 * MIN), (FIDE_2023_RAPID, MIN)])
def test_art_7_5_4_two_handed_move_stands_and_is_penalised(
    profile: RuleProfile, penalty: int
) -> None:
    d = Driver(profile)
    d.play("e2e4 e7e5")
    black = d.game.clock_ms()
    assert black is not None
    decisions = d.event(MovedWithTwoHands, dt=0, side=W, uci="e1e2")
    assert d.game.to_move is B and d.game.position().piece_at(12) != 0  # the king on e2
    assert d.game.illegal_moves(W) == 1
    assert any(dec.article == "7.5.4" for dec in decisions)
    assert d.game.clock_ms() == (black[0] + 30 * S, black[1] + penalty)
    d.play("b8c6")
    d.event(MovedWithTwoHands, side=W, uci="e2d3")
    outcome = d.game.outcome
    assert outcome is not None and outcome.termination is Termination.ILLEGAL_MOVES
    assert d.result == "0-1"
    same_after_the_log(d.game)


def test_art_7_5_4_a_game_ending_two_handed_move_is_not_penalised() -> None:
    d = Driver(FIDE_2023)
    d.play("f2f3 e7e5 g2g4")
    d.event(MovedWithTwoHands, side=B, uci="d8h4")
    outcome = d.game.outcome
    assert outcome is not None and outcome.termination is Termination.CHECKMATE
    assert d.game.illegal_moves(B) == 0


def test_art_7_5_4_needs_a_legal_move_and_the_profile() -> None:
    d = Driver(FIDE_2023)
    refused(d, MovedWithTwoHands, "not a legal move", side=W, uci="e2e5")
    for profile in (FIDE_2000, USCF, ONLINE):
        refused(Driver(profile), MovedWithTwoHands, "not penalised|over-the-board", side=W,
                uci="e2e4")


# -- F23 7.5.1 and A.5.2: an illegal move found later or claimed ---------------------------


def test_art_7_5_1_illegal_move_found_later_reinstates_the_position_before_it() -> None:
    d = Driver(FIDE_2023)
    d.play("e2e4 e7e5")
    decisions = d.event(IllegalMoveUnnoticed, side=W, uci="f1f3")  # a bishop moving like a rook
    assert not decisions and d.game.to_move is B and d.game.illegal_moves(W) == 0
    d.play("g8f6 d2d3 b8c6")
    clocks = d.game.clock_ms()
    assert clocks is not None
    d.event(IllegalMoveFound, dt=0, ply=3)
    assert d.game.fen == AFTER_E4_E5 and d.game.to_move is W
    assert len(d.game.records) == 2 and d.game.illegal_moves(W) == 1
    assert d.game.clock_ms() == (clocks[0], clocks[1] + 2 * MIN)  # 7.1: times kept, + 7.5.5
    assert d.game.state().clock_running
    assert set(d.game.legal_moves()) == {"f1e2", "f1d3", "f1c4", "f1b5", "f1a6"}  # 4.3
    d.play("f1c4", dt=5 * S)
    assert d.game.clock_ms() == (clocks[0] - 5 * S + 30 * S, clocks[1] + 2 * MIN)
    same_after_the_log(d.game)


def test_art_7_5_1_the_ply_must_be_an_unnoticed_illegal_move() -> None:
    d = Driver(FIDE_2023)
    d.play("e2e4 e7e5")
    refused(d, IllegalMoveFound, "not an unnoticed illegal move", ply=1)
    refused(d, IllegalMoveClaimed, "was not recorded", side=W)
    refused(d, IllegalMoveUnnoticed, "is legal", side=W, uci="g1f3")
    refused(d, IllegalMoveUnnoticed, "cannot stand", side=W, uci="d1d2")  # onto its own pawn
    refused(d, IllegalMoveUnnoticed, "no piece of the player", side=W, uci="e5e4")
    refused(Driver(ONLINE), IllegalMoveUnnoticed, "over-the-board", side=W, uci="e2e5")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"kind": "illegal-move-found", "at_ms": 9000, "ply": "3"}', "ply='3'"),
        ('{"kind": "illegal-move-found", "at_ms": 9000, "ply": true}', "ply=True"),
        ('{"kind": "colours-reversed", "at_ms": 9000, "new_game": 1}', "new_game=1"),
        ('{"kind": "wrong-initial-position", "at_ms": 9000, "fen": 7}', "fen=7"),
    ],
)
def test_bad_values_in_the_log_are_named(line: str, message: str) -> None:
    d = Driver(FIDE_2023)
    d.play("e2e4 e7e5")
    d.event(IllegalMoveUnnoticed, side=W, uci="f1f3")
    with pytest.raises(ArbiterError, match=message):
        from_jsonl(to_jsonl(d.game) + line + "\n")


def test_an_illegal_move_leaving_the_king_attacked_cannot_stand() -> None:
    d = Driver(FIDE_2023)
    d.play("e2e4 d7d5 e4d5 d8d5 b1c3 d5e5")  # the queen checks the white king along the file
    refused(d, IllegalMoveUnnoticed, "illegal position", side=W, uci="d2d3")


def test_art_a_5_2_claim_before_moving_then_the_illegal_move_stands() -> None:
    d = Driver(FIDE_2023_BLITZ, "5")
    d.play("e2e4 e7e5")
    d.event(IllegalMoveUnnoticed, side=W, uci="f1f3")
    d.event(IllegalMoveClaimed, side=B)
    assert d.game.fen == AFTER_E4_E5 and d.game.illegal_moves(W) == 1
    d.play("f1c4")
    d.event(IllegalMoveUnnoticed, side=B, uci="f8f6")
    d.play("g1f3")  # the opponent moves: the illegal move stands (A.5.2)
    refused(d, IllegalMoveFound, "A.5.2", ply=4)
    refused(d, IllegalMoveClaimed, "was not recorded", side=B)
    assert d.game.position().piece_at(45) != 0 and d.game.illegal_moves(B) == 0  # bishop f6
    same_after_the_log(d.game)


def test_art_7_5_5_the_second_illegal_move_found_loses() -> None:
    d = Driver(FIDE_2023)
    d.play("e2e4 e7e5")
    d.event(IllegalMoveUnnoticed, side=W, uci="f1f3")
    d.event(IllegalMoveFound, ply=3)
    d.event(IllegalMoveUnnoticed, side=W, uci="f1f3")
    d.event(IllegalMoveClaimed, side=B)
    assert d.result == "0-1"
    same_after_the_log(d.game)


# -- F23 7.2.1, 7.3: the game begun wrongly ----------------------------------------------


def test_art_7_2_1_wrong_initial_position_a_new_game() -> None:
    wrong = STARTING_FEN.replace("RNBQKBNR", "R1BQKBNR")  # White's b1 knight missing
    d = Driver(FIDE_2023, fen=wrong)
    d.play("e2e4 e7e5 d2d4")
    decisions = d.event(WrongInitialPosition)
    assert any(dec.article.startswith("7.2.1") for dec in decisions)
    assert d.game.fen == STARTING_FEN and not d.game.records
    assert d.game.clock_ms() == (90 * MIN, 90 * MIN) and not d.game.state().clock_running
    d.event(ClocksStarted)
    d.play("b1c3")
    same_after_the_log(d.game)
    refused(d, WrongInitialPosition, "wrong-initial-position", fen="not a fen")


def test_art_a_5_1_2_no_set_up_claim_after_ten_moves_each() -> None:
    d = Driver(FIDE_2023_BLITZ, "5")
    d.play(TEN_MOVES_EACH)
    refused(d, WrongInitialPosition, "A.5.1.2")
    d = Driver(FIDE_2023, "5")
    d.play(TEN_MOVES_EACH)
    d.event(WrongInitialPosition)
    assert not d.game.records


def test_art_7_3_colours_reversed_before_ten_moves_each_a_new_game() -> None:
    d = Driver(FIDE_2023)
    d.play("e2e4 e7e5")
    refused(d, ColoursReversed, "7.3 decides", new_game=False)
    d.event(ColoursReversed)
    assert d.game.fen == STARTING_FEN and not d.game.records
    same_after_the_log(d.game)


def test_art_7_3_colours_reversed_after_ten_moves_each_the_game_continues() -> None:
    d = Driver(FIDE_2023)
    d.play(" ".join(RUY_LOPEZ[:-1]))  # ten moves by White, nine by Black
    d.event(ColoursReversed)
    assert d.game.fen == STARTING_FEN  # fewer than 10 moves by Black: a new game
    d = Driver(FIDE_2023)
    d.play(TEN_MOVES_EACH)
    fen = d.game.fen
    decisions = d.event(ColoursReversed)
    assert d.game.fen == fen and "continues" in decisions[0].text
    refused(d, ColoursReversed, "7.3 decides", new_game=True)


def test_s_7_2_colours_reversed_continue_unless_the_arbiter_rules_otherwise() -> None:
    d = Driver(FIDE_2000)
    d.play("e2e4 e7e5")
    d.event(ColoursReversed)
    assert d.game.fen == AFTER_E4_E5
    d.event(ColoursReversed, new_game=True)
    assert d.game.fen == STARTING_FEN
    same_after_the_log(d.game)


def test_a_custom_profile_sets_the_colours_rule() -> None:
    d = Driver(replace(FIDE_2023, colours_reversed_moves=1))
    d.play("e2e4 e7e5")
    d.event(ColoursReversed)
    assert d.game.fen == AFTER_E4_E5
    d.game.apply(Moved(d.tick(S), W, "g1f3"))
    assert d.game.to_move is B


# -- properties: the new events keep the log's guarantees ----------------------------------


def irregularities(game: Game) -> st.SearchStrategy[Maker]:
    """The events of this module, for the game as it stands (many are rejected)."""
    pos = game.position()
    mover = game.to_move
    own = [sq for sq in range(64) if pos.piece_at(sq) and pos.piece_at(sq) >> 3 == mover]
    legal = game.legal_moves() or ["e2e4"]
    sides = st.sampled_from([W, B])
    return st.one_of(
        st.builds(lambda a, b: lambda t: IllegalMoveUnnoticed(t, mover, a + b),
                  st.sampled_from([SQUARES[sq] for sq in own] or ["e2"]), st.sampled_from(SQUARES)),
        st.sampled_from(legal).map(lambda m: lambda t: MovedWithTwoHands(t, mover, m)),
        sides.map(lambda s: lambda t: IllegalMoveClaimed(t, s)),
        st.integers(0, len(game.records) + 1).map(lambda n: lambda t: IllegalMoveFound(t, n)),
        st.just(lambda t: WrongInitialPosition(t)),
        st.sampled_from([None, True, False]).map(lambda b: lambda t: ColoursReversed(t, b)),
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from([FIDE_2023, FIDE_2000, FIDE_2023_BLITZ]))
def test_random_irregularities_replay_and_leave_rejected_events_unapplied(
    data: st.DataObject, profile: RuleProfile
) -> None:
    game = Game(profile, parse_human("3+2"))
    game.apply(ClocksStarted(0))
    t = 0
    for _ in range(data.draw(st.integers(1, 40), label="events")):
        t += data.draw(st.integers(0, 5_000), label="dt")
        roll = data.draw(st.integers(0, 9), label="roll")
        strategy = irregularities(game) if roll < 4 else makers(game)
        event = data.draw(strategy, label="event")(t)
        before_state, before_log = game.state(), game.log
        try:
            game.apply(event)
        except ArbiterError:
            assert game.state() == before_state and game.log == before_log
    assert Game.replay(game.setup, game.log).state() == game.state()
    assert from_jsonl(to_jsonl(game)).state() == game.state()


def test_the_scoresheet_follows_the_new_game_and_the_reinstated_position() -> None:
    wrong = STARTING_FEN.replace("RNBQKBNR", "R1BQKBNR")
    d = Driver(FIDE_2023, fen=wrong)
    d.play("e2e4 e7e5", offer=True)
    d.event(WrongInitialPosition)
    assert {after for after, _ in d.game.notes} == {0}
    d.event(ClocksStarted)
    d.play("b1c3 e7e5")
    d.event(IllegalMoveUnnoticed, side=W, uci="f1f3")
    d.play("g8f6 d2d3")
    d.event(IllegalMoveFound, ply=3)
    assert all(after <= len(d.game.records) == 2 for after, _ in d.game.notes)
    pgn = to_pgn(d.game)
    assert '[FEN "' not in pgn and "1. Nc3" in pgn and "7.2.1" in pgn and "ply 3" in pgn
