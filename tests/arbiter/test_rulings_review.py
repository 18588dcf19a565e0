"""Rulings fixed in review: the sudden-death claim under the 2000 rules (S10.2a-c) and under
F23 Guidelines III.5, persistent offers counting offers made with moves (11.5), clock settings
(6.13) and claims when nothing is claimable (9.2, 9.3, 9.5) under every profile."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import pytest

from chessarbiter.arbiter import (
    ArbiterError,
    ClaimKind,
    ClocksSet,
    Decision,
    DrawClaimed,
    DrawOffered,
    Event,
    FlagClaimed,
    FlagObserved,
    OfferDeclined,
    Ruling,
    SuddenDeathClaimed,
    SuddenDeathRuled,
    from_jsonl,
    to_jsonl,
)
from chessarbiter.laws.endings import Termination
from chessarbiter.laws.profiles import FIDE_2000, FIDE_2023, PROFILES, RuleProfile
from tests.arbiter.driver import MIN, B, Driver, S, W

F23_III = replace(FIDE_2023, sudden_death_claims=True)


def claimed(profile: RuleProfile) -> Driver:
    """White, under two minutes in a sudden-death period, has claimed a draw."""
    d = Driver(profile, "2")
    d.play("e2e4 e7e5")
    d.event(SuddenDeathClaimed, side=W)
    return d


def refused(d: Driver, kind: type[Event], match: str, **fields: Any) -> None:
    before, log = d.game.state(), d.game.log
    with pytest.raises(ArbiterError, match=match):
        d.event(kind, **fields)
    assert d.game.state() == before and d.game.log == log


# -- S10.2, F23 III.5 ---------------------------------------------------------------------


def test_s_10_2a_the_arbiter_draws_or_postpones_never_rejects() -> None:
    d = claimed(FIDE_2000)
    refused(d, SuddenDeathRuled, "S10.2a", ruling=Ruling.REJECT)
    assert d.game.state().sudden_death_claim is W
    d = claimed(F23_III)
    d.event(SuddenDeathRuled, ruling=Ruling.REJECT)
    assert d.game.clock_ms() == (2 * MIN - 2 * S, 2 * MIN - S + 2 * MIN)  # III.5.3


@pytest.mark.parametrize(("bonus", "added"), [(None, 2 * MIN), (0, 0), (30 * S, 30 * S)])
def test_s_10_2b_the_arbiter_chooses_the_time_on_postponing(bonus: int | None, added: int) -> None:
    d = claimed(FIDE_2000)
    d.event(SuddenDeathRuled, dt=0, ruling=Ruling.POSTPONE, bonus_ms=bonus)
    assert d.game.clock_ms() == (2 * MIN - 2 * S, 2 * MIN - S + added)
    assert from_jsonl(to_jsonl(d.game)).state() == d.game.state()


def test_the_ruling_time_is_only_for_postponing_and_not_negative() -> None:
    d = claimed(F23_III)
    line = '{"kind": "sudden-death-ruling", "at_ms": 9000, "ruling": "postpone", "bonus_ms": "2"}'
    with pytest.raises(ArbiterError, match="bonus_ms='2'"):
        from_jsonl(to_jsonl(d.game) + line + "\n")
    refused(d, SuddenDeathRuled, "only when postponing", ruling=Ruling.DRAW, bonus_ms=0)
    refused(d, SuddenDeathRuled, "only when postponing", ruling=Ruling.REJECT, bonus_ms=MIN)
    refused(d, SuddenDeathRuled, "not a time", ruling=Ruling.POSTPONE, bonus_ms=-1)


@pytest.mark.parametrize("profile", [FIDE_2000, F23_III], ids=lambda p: p.name)
@pytest.mark.parametrize("claim", [True, False], ids=["claimed", "observed"])
def test_s_10_2c_after_postponing_a_flag_waits_for_the_arbiter(
    profile: RuleProfile, claim: bool
) -> None:
    d = claimed(profile)
    d.event(SuddenDeathRuled, ruling=Ruling.POSTPONE, bonus_ms=0)
    d.tick(2 * MIN)  # White's flag falls
    if claim:
        d.event(FlagClaimed, side=B)
    else:
        d.event(FlagObserved)
    assert d.game.outcome is None and d.game.state().sudden_death_claim is W
    with pytest.raises(ArbiterError, match="rule on the sudden-death claim"):
        d.play("g1f3")
    refused(d, SuddenDeathRuled, "declares the result now", ruling=Ruling.POSTPONE)
    d.event(SuddenDeathRuled, ruling=Ruling.DRAW)
    outcome = d.game.outcome
    assert outcome is not None and outcome.termination is Termination.SUDDEN_DEATH_CLAIM
    assert d.result == "1/2-1/2"
    assert from_jsonl(to_jsonl(d.game)).state() == d.game.state()


def test_s_10_2c_the_arbiter_may_let_the_flag_count() -> None:
    d = claimed(FIDE_2000)
    d.event(SuddenDeathRuled, ruling=Ruling.POSTPONE)
    d.tick(2 * MIN)
    d.event(FlagObserved)
    d.event(SuddenDeathRuled, ruling=Ruling.REJECT)
    outcome = d.game.outcome
    assert outcome is not None and outcome.termination is Termination.TIME_FORFEIT
    assert d.result == "0-1"


def test_without_a_postponed_claim_a_flag_ends_the_game() -> None:
    d = Driver(FIDE_2000, "2")
    d.play("e2e4")
    d.tick(3 * MIN)
    d.event(FlagClaimed, side=W)
    assert d.result == "1-0"


# -- 11.5: persistent offers, with moves or without ---------------------------------------


def persistent(decisions: Iterable[Decision]) -> bool:
    return any("persistent" in decision.text for decision in decisions)


def test_art_11_5_offers_made_with_moves_count() -> None:
    d = Driver(FIDE_2023)
    assert not persistent(d.play("e2e4", offer=True) + d.play("e7e5"))
    assert not persistent(d.play("g1f3", offer=True) + d.play("b8c6"))
    assert persistent(d.play("f1c4", offer=True))
    assert d.game.state().offers == (3, 0)


def test_art_11_5_offers_with_and_without_moves_count_together() -> None:
    d = Driver(FIDE_2023)
    d.play("e2e4", offer=True)
    d.play("e7e5")
    assert not persistent(d.event(DrawOffered, side=W))
    d.event(OfferDeclined, side=B)
    d.play("g1f3 b8c6")
    assert persistent(d.play("f1c4", offer=True))


# -- 6.13: clock settings -----------------------------------------------------------------


@pytest.mark.parametrize(("white", "black"), [(-1, MIN), (MIN, -S)])
def test_art_6_13_negative_clock_settings_are_refused(white: int, black: int) -> None:
    d = Driver(FIDE_2023)
    d.play("e2e4")
    refused(d, ClocksSet, "is not a time", white_ms=white, black_ms=black)
    d.event(ClocksSet, white_ms=0, black_ms=MIN)
    assert d.game.clock_ms() == (0, MIN)


# -- 9.2, 9.3, 9.5: a claim when nothing is claimable -------------------------------------

NOTHING_CLAIMABLE = {
    # profile: (White's time lost, Black's time gained, the claim stands as an offer)
    "fide-2023": (0, 2 * MIN, True),  # 9.5.3, 9.1.2.3
    "fide-2023-rapid": (0, MIN, True),  # A.3
    "fide-2023-blitz": (0, MIN, True),  # B.3: A.3
    "fide-2000": (3 * MIN, 3 * MIN, False),  # S9.5b: half the time, at most 3 min; 3 min
    "uscf": (0, 0, False),
    "uscf-blitz": (0, 0, False),
    "online": None,  # the claim button is not there
}


def test_every_profile_is_pinned() -> None:
    assert set(NOTHING_CLAIMABLE) == set(PROFILES)


@pytest.mark.parametrize("name", sorted(NOTHING_CLAIMABLE))
@pytest.mark.parametrize("claim", list(ClaimKind), ids=lambda c: c.value)
@pytest.mark.parametrize("intended", [None, "g1f3"], ids=["on-the-board", "intended"])
def test_a_claim_when_nothing_is_claimable(
    name: str, claim: ClaimKind, intended: str | None
) -> None:
    d = Driver(PROFILES[name])
    d.play("e2e4 e7e5")
    expected = NOTHING_CLAIMABLE[name]
    if expected is None:
        refused(d, DrawClaimed, "incorrect claim", side=W, claim=claim, intended=intended)
        return
    lost, gained, offer = expected
    before = d.game.clock_at(d.t)
    assert before is not None
    d.event(DrawClaimed, dt=0, side=W, claim=claim, intended=intended)
    assert d.game.outcome is None and d.game.to_move is W
    assert d.game.clock_ms() == (before[0] - lost, before[1] + gained)
    assert d.game.pending_offer is (W if offer else None)
    if intended:  # 9.5.3: the intended move must be played
        assert d.game.legal_moves() == ["g1f3"]
    else:
        assert len(d.game.legal_moves()) == 29
    assert any("incorrect" in text for _, text in d.game.notes)
