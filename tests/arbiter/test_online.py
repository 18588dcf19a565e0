"""Online practice where the profile allows it (takebacks, time given, a game claimed when
the opponent left), refused with the article under the Laws' profiles; every such event is
in the log, and replaying the log gives the same game."""

from __future__ import annotations

import pytest

from chessarbiter.arbiter.errors import ArbiterError
from chessarbiter.arbiter.events import (
    AbandonmentClaimed,
    Event,
    Moved,
    TakebackAccepted,
    TakebackDeclined,
    TakebackProposed,
    TimeGiven,
)
from chessarbiter.arbiter.game import Game
from chessarbiter.arbiter.log import from_jsonl, to_jsonl
from chessarbiter.clock.correspondence import DAY, parse_correspondence
from chessarbiter.clock.parse import parse_control
from chessarbiter.clock.records import Side
from chessarbiter.laws.endings import Result, Termination
from chessarbiter.laws.profiles import FIDE_2023, ONLINE, USCF, RuleProfile

W, B = Side.WHITE, Side.BLACK


def played(profile: RuleProfile, moves: str, control: str | None = "3+2") -> Game:
    read = parse_correspondence if control and control.endswith("d") else parse_control
    game = Game(profile, None if control is None else read(control))
    for ply, move in enumerate(moves.split()):
        game.apply(Moved(1000 * (ply + 1), W if ply % 2 == 0 else B, move))
    return game


def test_a_takeback_of_ones_own_move_keeps_the_clocks() -> None:
    game = played(ONLINE, "e2e4 e7e5 g1f3")
    clocks = game.clock_at(3600)  # black's clock runs until the takeback
    game.apply(TakebackProposed(3500, W))
    assert game.pending_takeback is W
    game.apply(TakebackAccepted(3600, B))
    assert game.fen == played(ONLINE, "e2e4 e7e5").fen
    assert game.to_move is W and game.pending_takeback is None
    assert game.clock_ms() == clocks  # no time given back: the displays keep theirs
    game.apply(Moved(4000, W, "d2d4"))
    assert [r.side for r in game.records] == [W, B, W]


def test_a_takeback_on_ones_own_turn_takes_two_moves_back() -> None:
    game = played(ONLINE, "e2e4 e7e5 g1f3 b8c6")
    game.apply(TakebackProposed(4500, W))
    game.apply(TakebackAccepted(4600, B))
    assert game.fen == played(ONLINE, "e2e4 e7e5").fen and game.to_move is W


def test_declined_withdrawn_and_lapsed_proposals() -> None:
    game = played(ONLINE, "e2e4 e7e5 g1f3")
    game.apply(TakebackProposed(3100, W))
    with pytest.raises(ArbiterError, match="awaits an answer"):
        game.apply(TakebackProposed(3150, B))
    game.apply(TakebackDeclined(3200, B))
    assert game.pending_takeback is None
    game.apply(TakebackProposed(3300, W))
    game.apply(TakebackDeclined(3400, W))  # withdrawn
    game.apply(TakebackProposed(3500, W))
    game.apply(Moved(3600, B, "b8c6"))  # a move lets it lapse
    assert game.pending_takeback is None
    with pytest.raises(ArbiterError, match="none is proposed"):
        game.apply(TakebackAccepted(3700, B))


def test_no_takeback_of_the_first_moves() -> None:
    game = played(ONLINE, "e2e4 e7e5")
    with pytest.raises(ArbiterError, match="no move to take back"):
        game.apply(TakebackProposed(2500, B))


def test_time_given_to_the_opponent() -> None:
    game = played(ONLINE, "e2e4 e7e5")
    white, black = game.clock_at(2000) or (0, 0)
    game.apply(TimeGiven(2000, W, 15_000))
    assert game.clock_ms() == (white, black + 15_000)
    with pytest.raises(ArbiterError, match="not a time to give"):
        game.apply(TimeGiven(2100, W, 0))


@pytest.mark.parametrize("draw", [False, True])
def test_a_game_claimed_when_the_opponent_left(draw: bool) -> None:
    game = played(ONLINE, "e2e4 e7e5")
    limit = ONLINE.abandonment_ms or 0
    with pytest.raises(ArbiterError, match="not yet"):
        game.apply(AbandonmentClaimed(3000, B, limit - 1, draw))
    game.apply(AbandonmentClaimed(3000, B, limit, draw))
    outcome = game.outcome
    assert outcome is not None and outcome.termination is Termination.ABANDONED
    assert outcome.result is (Result.DRAW if draw else Result.BLACK_WINS)


def test_no_absence_claim_in_correspondence() -> None:
    game = played(ONLINE, "e2e4 e7e5", control="3d")
    with pytest.raises(ArbiterError, match="correspondence"):
        game.apply(AbandonmentClaimed(3000, B, 10 * DAY))
    assert game.outcome is None


@pytest.mark.parametrize("profile", [FIDE_2023, USCF])
@pytest.mark.parametrize(("event", "article"), [
    (TakebackProposed(5000, W), "F23 4.7"),
    (TimeGiven(5000, W, 15_000), "F23 6.13"),
    (AbandonmentClaimed(5000, W, 10**9), "F23 6.7"),
])
def test_the_laws_refuse_them_with_the_article(profile: RuleProfile, event: Event,
                                                article: str) -> None:
    game = played(profile, "e2e4 e7e5 g1f3", control=None)
    before = game.state()
    with pytest.raises(ArbiterError, match=f"under the {profile.name} profile.*{article}"):
        game.apply(event)
    assert game.state() == before


def test_replaying_the_log_gives_the_same_game() -> None:
    game = played(ONLINE, "e2e4 e7e5 g1f3 b8c6 f1c4")
    for event in (TakebackProposed(6000, B), TakebackAccepted(6100, W),
                  TimeGiven(6200, W, 30_000), Moved(6300, B, "g8f6"),
                  TakebackProposed(6400, W), TakebackDeclined(6500, B),
                  AbandonmentClaimed(7000, B, 60_000)):
        game.apply(event)
    again = from_jsonl(to_jsonl(game))
    assert again.log == game.log
    assert again.state() == game.state()
