"""Flags, clock actions and the sudden-death finish (Art. 6.5-6.13, 10; S10.2, 10.4; USCF 14E,
14H; F23 Guidelines III)."""

from __future__ import annotations

import pytest

from chessarbiter.arbiter import (
    ArbiterError,
    ClocksSet,
    ClocksStarted,
    ClocksStopped,
    FlagClaimed,
    FlagFallenError,
    FlagObserved,
    Game,
    GameOverError,
    Moved,
    Resigned,
    Ruling,
    SuddenDeathClaimed,
    SuddenDeathRuled,
    TimeAdded,
    Warned,
)
from chessarbiter.clock.controls import BonusMode, Period, TimeControl
from chessarbiter.laws.endings import Termination
from chessarbiter.laws.profiles import (
    FIDE_2000,
    FIDE_2023,
    ONLINE,
    PROFILES,
    USCF,
    RuleProfile,
)
from tests.arbiter.driver import MIN, B, Driver, S, W


def test_art_6_5_no_move_before_the_clocks_start() -> None:
    d = Driver(FIDE_2023, start=False)
    with pytest.raises(ArbiterError, match="not running"):
        d.play("e2e4")
    d.event(ClocksStarted)
    d.play("e2e4")
    with pytest.raises(ArbiterError, match="already running"):
        d.event(ClocksStarted)


def test_online_clocks_start_once_both_players_have_moved() -> None:
    d = Driver(ONLINE, "1+0")
    with pytest.raises(ArbiterError, match="start with the first moves"):
        d.event(ClocksStarted)
    d.play("e2e4 e7e5", dt=30 * S)
    assert d.game.clock_ms() == (MIN, MIN)
    d.play("g1f3", dt=10 * S)
    assert d.game.clock_ms() == (50 * S, MIN)


@pytest.mark.parametrize("claim", [True, False], ids=["claimed", "observed"])
def test_art_6_9_flag_loses(claim: bool) -> None:
    d = Driver(FIDE_2023, "1")
    d.play("e2e4")
    with pytest.raises(ArbiterError, match="has not fallen"):
        d.event(FlagClaimed, side=W)
    d.tick(MIN)
    if claim:
        d.event(FlagClaimed, side=W)
    else:
        d.event(FlagObserved)
    outcome = d.game.outcome
    assert outcome is not None and outcome.termination is Termination.TIME_FORFEIT
    assert d.result == "1-0"


def test_art_6_8_flag_not_yet_observed_the_game_goes_on_over_the_board() -> None:
    d = Driver(FIDE_2023, "1")
    d.play("e2e4", dt=2 * MIN)
    assert d.game.outcome is None
    d.play("e7e5")
    d.event(FlagClaimed, side=B)
    assert d.result == "0-1"


@pytest.mark.parametrize(
    ("fen", "fide", "uscf"),
    [
        ("q3k3/8/8/8/8/8/8/4K3 b - - 0 1", "1/2-1/2", "1/2-1/2"),  # a lone king wins nothing
        ("4k3/8/8/8/8/8/7r/N3K3 b - - 0 1", "1-0", "1/2-1/2"),  # K+N against K+R
        ("4k3/8/8/8/8/8/8/NN2K3 b - - 0 1", "1-0", "1/2-1/2"),  # K+N+N against K
        ("4k3/8/8/8/8/8/7p/NN2K3 b - - 0 1", "1-0", "1-0"),  # K+N+N against K+P
        ("4k3/8/8/8/8/8/7r/B3K3 b - - 0 1", "1/2-1/2", "1/2-1/2"),  # K+B against K+R
    ],
)
def test_art_6_9_and_uscf_14e_flag_against_a_side_that_cannot_mate(
    fen: str, fide: str, uscf: str
) -> None:
    for profile, expected in ((FIDE_2023, fide), (USCF, uscf)):
        d = Driver(profile, "1", fen=fen)
        d.tick(2 * MIN)
        d.event(FlagClaimed, side=W)
        assert (profile.name, d.result) == (profile.name, expected)


def both_flags(profile: RuleProfile, control: str) -> Driver:
    """White's flag falls unnoticed, White moves, then Black's flag falls."""
    d = Driver(profile, control)
    d.play("e2e4", dt=2 * MIN)
    d.tick(3 * MIN)
    return d


@pytest.mark.parametrize(
    ("profile", "control", "expected"),
    [
        (FIDE_2000, "1", "1/2-1/2"),  # S10.4: sudden death, both flags: drawn
        (FIDE_2023, "1", "0-1"),  # the clock shows White's flag fell first
        (FIDE_2000, "40/1, 30", None),  # S6.11: before the last period the game continues
    ],
    ids=["2000-sudden-death", "2023-first-flag", "2000-periods"],
)
def test_art_6_11_and_10_4_both_flags(profile: RuleProfile, control: str, expected: str) -> None:
    d = both_flags(profile, control)
    decisions = d.event(FlagObserved)
    assert d.result == expected
    if expected == "1/2-1/2":
        assert d.game.outcome is not None
        assert d.game.outcome.termination is Termination.BOTH_FLAGS
    if expected is None:
        assert "continues" in decisions[0].text


def test_online_flags_fall_by_themselves() -> None:
    d = Driver(ONLINE, "1+0")
    d.play("e2e4 e7e5 g1f3")
    late = d.t + MIN + 1
    with pytest.raises(FlagFallenError, match="flag fell") as info:
        d.game.apply(Moved(late, B, "b8c6"))
    assert info.value.flag_at_ms == d.t + MIN
    assert len(d.game.log) == 3
    d.game.apply(FlagObserved(late))
    assert d.result == "1-0"


def test_art_6_12_stopped_clocks_and_time_adjustments() -> None:
    d = Driver(FIDE_2023, "90")
    d.play("e2e4")
    d.event(ClocksStopped)
    with pytest.raises(ArbiterError, match="not running"):
        d.play("e7e5")
    d.event(TimeAdded, dt=10 * MIN, side=B, ms=MIN, reason="disturbance (12.9, S13.5)")
    d.event(ClocksStarted)
    d.play("e7e5", dt=2 * S)
    assert d.game.clock_ms() == (90 * MIN - S, 90 * MIN + MIN - 3 * S)
    d.event(ClocksSet, white_ms=MIN, black_ms=2 * MIN, reason="6.13")
    assert d.game.clock_ms() == (MIN, 2 * MIN)
    with pytest.raises(ArbiterError, match="0 ms"):
        d.event(TimeAdded, side=B, ms=0)


def test_time_added_after_a_flag_cancels_it() -> None:
    d = Driver(FIDE_2023, "1")
    d.play("e2e4", dt=2 * MIN)
    d.event(TimeAdded, dt=0, side=W, ms=2 * MIN, reason="arbiter's error")
    with pytest.raises(ArbiterError, match="has not fallen"):
        d.event(FlagClaimed, dt=0, side=B)


def test_art_10_2_sudden_death_claim_draw_postpone_reject() -> None:
    d = Driver(FIDE_2000, "2")
    d.play("e2e4 e7e5")
    d.event(SuddenDeathClaimed, side=W)
    assert d.game.state().clock_running is False
    with pytest.raises(ArbiterError, match="rule on the sudden-death claim"):
        d.play("g1f3")
    d.event(SuddenDeathRuled, ruling=Ruling.POSTPONE)
    assert d.game.clock_ms() == (2 * MIN - 2 * S, 4 * MIN - S)
    assert d.game.state().clock_running
    d.event(SuddenDeathClaimed, side=W)
    d.event(SuddenDeathRuled, ruling=Ruling.DRAW)
    outcome = d.game.outcome
    assert outcome is not None and outcome.termination is Termination.SUDDEN_DEATH_CLAIM


def test_art_10_2_claim_conditions() -> None:
    d = Driver(FIDE_2023, "2")
    with pytest.raises(ArbiterError, match="no sudden-death"):
        d.event(SuddenDeathClaimed, side=W)
    d = Driver(FIDE_2000, "90+30")
    with pytest.raises(ArbiterError, match="without increment"):
        d.event(SuddenDeathClaimed, side=W)
    d = Driver(FIDE_2000, "5")
    with pytest.raises(ArbiterError, match="less than two minutes"):
        d.event(SuddenDeathClaimed, side=W)
    with pytest.raises(ArbiterError, match="no sudden-death claim"):
        d.event(SuddenDeathRuled, ruling=Ruling.REJECT)


@pytest.mark.parametrize("profile", [p for p in PROFILES.values() if p.sudden_death_claims])
def test_art_10_2_and_uscf_14h_no_claim_with_a_delay(profile: RuleProfile) -> None:
    """A delay adds time to every move: no sudden-death finish (S10.1 with S6.2's "incremental
    mode"; USCF 14H: only without a delay or increment clock), under every profile that
    allows the claim; the same time without the delay may claim."""
    for delay in (BonusMode.DELAY, BonusMode.BRONSTEIN):
        d = Driver(profile, TimeControl((Period(MIN, None, 5 * S, delay),)))
        with pytest.raises(ArbiterError, match="without increment or delay"):
            d.event(SuddenDeathClaimed, side=W)
        assert d.game.state().clock_running and d.game.outcome is None
    d = Driver(profile, TimeControl((Period(MIN),)))
    d.event(SuddenDeathClaimed, side=W)
    assert d.game.state().clock_running is False


def test_a_claim_rejected_after_a_flag_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading the clock records nothing: rejecting a claim made after the flag fell leaves
    the game as it was, with no rebuild from the log."""
    d = Driver(FIDE_2000, "1")
    monkeypatch.setattr(Game, "_rebuild", lambda self: pytest.fail("the game was rebuilt"))
    with pytest.raises(ArbiterError, match="before the flag falls"):
        d.event(SuddenDeathClaimed, dt=MIN + S, side=W)
    assert d.game.clock_ms() == (MIN, MIN)  # at the last event, as before the claim
    assert d.game.outcome is None and d.game.state().clock_running


def test_arbiter_warning_and_the_clock_after_the_end() -> None:
    d = Driver(FIDE_2023)
    d.play("e2e4")
    d.event(Warned, side=W, reason="persistent draw offers (11.5)")
    assert d.game.state().warnings == (1, 0)
    d.event(Resigned, side=B)
    with pytest.raises(GameOverError):
        d.event(ClocksStarted)
    d.event(Warned, side=B, reason="left the playing area (11.2)")
    assert d.game.state().warnings == (1, 1)


def test_time_never_goes_back() -> None:
    d = Driver(FIDE_2023)
    d.play("e2e4")
    with pytest.raises(ArbiterError, match="never goes back"):
        d.game.apply(Moved(d.t - 1, B, "e7e5"))
    with pytest.raises(ArbiterError, match="not a time"):
        d.game.apply(Moved(-5, B, "e7e5"))
