"""Offers and claims (Art. 9.1-9.5), named after the article, per profile where they differ."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chessarbiter.arbiter import (
    ArbiterError,
    ClaimKind,
    Decision,
    DrawClaimed,
    DrawOffered,
    Moved,
    OfferAccepted,
    OfferDeclined,
    Resigned,
    Touched,
)
from chessarbiter.laws.endings import Termination
from chessarbiter.laws.profiles import (
    FIDE_2000,
    FIDE_2023,
    FIDE_2023_BLITZ,
    FIDE_2023_RAPID,
    ONLINE,
    RuleProfile,
)
from tests.arbiter.driver import MIN, B, Driver, S, W

KNIGHT_DANCE = "g1f3 g8f6 f3g1 f6g8"
THREEFOLD = ClaimKind.THREEFOLD
FIFTY = ClaimKind.FIFTY_MOVES


def test_art_9_1_2_1_offer_with_a_move_then_accepted() -> None:
    d = Driver(FIDE_2023)
    d.play("e2e4 e7e5")
    d.play("g1f3", offer=True)
    assert d.game.pending_offer is W
    with pytest.raises(ArbiterError, match="no draw offer by black"):
        d.event(OfferAccepted, side=W)
    d.event(OfferAccepted, side=B)
    assert d.game.outcome is not None
    assert d.game.outcome.termination is Termination.AGREEMENT
    assert d.game.records[-1].offers_draw


def test_art_9_1_2_1_offer_at_another_time_is_valid_and_cannot_be_repeated() -> None:
    d = Driver(FIDE_2023)
    d.play("e2e4")
    d.event(DrawOffered, side=W)
    with pytest.raises(ArbiterError, match="already pending"):
        d.event(DrawOffered, side=W)
    with pytest.raises(ArbiterError, match="already pending"):
        d.event(DrawOffered, side=B)
    d.event(OfferDeclined, side=B)
    assert d.game.pending_offer is None
    with pytest.raises(ArbiterError, match="no draw offer"):
        d.event(OfferDeclined, side=B)


@pytest.mark.parametrize(
    ("profile", "pending_after_touch"), [(FIDE_2000, True), (FIDE_2023, False)],
    ids=["fide-2000", "fide-2023"],
)
def test_art_9_1_2_1_offer_lapses_by_touch_in_2023_by_move_in_2000(
    profile: RuleProfile, pending_after_touch: bool
) -> None:
    d = Driver(profile)
    d.play("e2e4 e7e5")
    d.play("g1f3", offer=True)
    d.event(Touched, side=B, square="b8")
    assert (d.game.pending_offer is W) is pending_after_touch
    d.play("b8c6")
    assert d.game.pending_offer is None


def test_art_9_1_offer_lapses_when_the_game_ends() -> None:
    d = Driver(FIDE_2023)
    d.play("e2e4 e7e5")
    d.event(DrawOffered, side=B)
    d.event(Resigned, side=W)
    assert d.game.pending_offer is None and d.result == "0-1"


def test_art_9_1_1_event_may_forbid_offers_before_a_move() -> None:
    d = Driver(replace(FIDE_2023, offers_from_move=3))
    d.play("e2e4 e7e5")
    with pytest.raises(ArbiterError, match="before move 3"):
        d.play("g1f3", offer=True)
    d.play("g1f3 b8c6")
    d.play("f1c4", offer=True)
    assert d.game.pending_offer is W


def test_art_11_5_persistent_offers_are_reported_to_the_arbiter() -> None:
    d = Driver(FIDE_2023)
    d.play("e2e4 e7e5")
    notes: list[Decision] = []
    for _ in range(3):
        notes += d.event(DrawOffered, side=W)
        d.event(OfferDeclined, side=B)
    assert any("persistent" in n.text for n in notes)


def test_art_9_2_2_threefold_claim_on_the_position_on_the_board() -> None:
    d = Driver(FIDE_2023)
    d.play(KNIGHT_DANCE + " " + KNIGHT_DANCE)
    d.event(DrawClaimed, side=W, claim=THREEFOLD)
    assert d.game.outcome is not None
    assert d.game.outcome.termination is Termination.THREEFOLD_REPETITION
    assert d.game.clock_ms() is not None and d.game.state().clock_running is False


def test_art_9_2_1_threefold_claim_on_an_intended_move() -> None:
    d = Driver(FIDE_2023)
    d.play(KNIGHT_DANCE + " g1f3 g8f6 f3g1")
    d.event(DrawClaimed, side=B, claim=THREEFOLD, intended="f6g8")
    assert d.game.outcome is not None
    assert d.game.outcome.termination is Termination.THREEFOLD_REPETITION
    assert "f6g8" in d.game.outcome.reason


def test_art_9_2_only_the_player_having_the_move_claims() -> None:
    d = Driver(FIDE_2023)
    d.play(KNIGHT_DANCE + " " + KNIGHT_DANCE)
    with pytest.raises(ArbiterError, match="white has the move"):
        d.event(DrawClaimed, side=B, claim=THREEFOLD)


@pytest.mark.parametrize(
    ("profile", "claimant_loses", "opponent_gains", "offer"),
    [
        (FIDE_2023, 0, 2 * MIN, True),
        (FIDE_2023_RAPID, 0, MIN, True),
        (FIDE_2023_BLITZ, 0, MIN, True),
        (FIDE_2000, 3 * MIN, 3 * MIN, False),
    ],
    ids=lambda v: v.name if isinstance(v, RuleProfile) else str(v),
)
def test_art_9_5_incorrect_claim_penalty_and_the_intended_move_must_be_played(
    profile: RuleProfile, claimant_loses: int, opponent_gains: int, offer: bool
) -> None:
    d = Driver(profile, "90+30")
    d.play("e2e4 e7e5")
    before = d.game.clock_ms()
    assert before is not None
    decisions = d.event(DrawClaimed, dt=0, side=W, claim=THREEFOLD, intended="g1f3")
    assert d.game.outcome is None
    after = d.game.clock_ms()
    assert after == (before[0] - claimant_loses, before[1] + opponent_gains)
    assert any("9.5" in dec.article for dec in decisions)
    assert (d.game.pending_offer is W) is offer
    assert d.game.legal_moves() == ["g1f3"]
    with pytest.raises(ArbiterError, match=r"9\.5"):
        d.play("d2d4")
    d.play("g1f3")
    assert d.game.legal_moves() != ["g1f3"]


def test_art_9_5_2000_deducts_half_the_claimants_time_up_to_three_minutes() -> None:
    d = Driver(FIDE_2000, "4")
    d.play("e2e4 e7e5")
    d.event(DrawClaimed, dt=0, side=W, claim=FIFTY)
    assert d.game.clock_ms() == (119_500, 4 * MIN - S + 3 * MIN)  # 239 s - 119.5 s


def test_online_incorrect_claims_are_rejected() -> None:
    d = Driver(ONLINE)
    d.play("e2e4 e7e5")
    with pytest.raises(ArbiterError, match="incorrect claim"):
        d.event(DrawClaimed, side=W, claim=THREEFOLD)
    assert d.game.state().notes == ()


def test_art_9_4_right_to_claim_lost_by_touching_a_piece_in_2023() -> None:
    d = Driver(FIDE_2023)
    d.play(KNIGHT_DANCE + " " + KNIGHT_DANCE)
    d.event(Touched, side=W, square="g1")
    with pytest.raises(ArbiterError, match=r"9\.4"):
        d.event(DrawClaimed, side=W, claim=THREEFOLD)
    d = Driver(FIDE_2000)
    d.play(KNIGHT_DANCE + " " + KNIGHT_DANCE)
    d.event(Touched, side=W, square="g1")
    d.event(DrawClaimed, side=W, claim=THREEFOLD)
    assert d.game.outcome is not None


def test_art_9_3_fifty_move_claims() -> None:
    fen = "4k3/8/8/8/8/8/8/R3K3 w - - 99 80"
    d = Driver(FIDE_2023, fen=fen)
    d.event(DrawClaimed, side=W, claim=FIFTY, intended="a1a2")
    assert d.game.outcome is not None
    assert d.game.outcome.termination is Termination.FIFTY_MOVES
    d = Driver(FIDE_2023, fen=fen)
    d.event(DrawClaimed, side=W, claim=FIFTY)
    assert d.game.outcome is None
    d.play("a1a2")
    d.event(DrawClaimed, side=B, claim=FIFTY)
    assert d.game.outcome is not None


def test_art_9_5_illegal_intended_move_over_the_board_binds_the_piece() -> None:
    d = Driver(FIDE_2023)
    d.play("e2e4 e7e5")
    d.event(DrawClaimed, side=W, claim=THREEFOLD, intended="g1g3")
    assert d.game.outcome is None
    assert set(d.game.legal_moves()) == {"g1f3", "g1h3", "g1e2"}
    d = Driver(ONLINE)
    d.play("e2e4 e7e5")
    with pytest.raises(ArbiterError, match="not legal"):
        d.event(DrawClaimed, side=W, claim=THREEFOLD, intended="g1g3")


def test_claim_of_a_bad_move_text_is_rejected() -> None:
    d = Driver(FIDE_2023)
    with pytest.raises(ArbiterError, match="invalid UCI"):
        d.event(DrawClaimed, side=W, claim=THREEFOLD, intended="e9e4")
    with pytest.raises(ArbiterError, match="invalid UCI"):
        d.game.apply(Moved(d.tick(S), W, "castles"))
