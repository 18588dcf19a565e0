"""Match statistics."""

from __future__ import annotations

import math

import pytest

from chessarbiter.tournament.elo import Tally, elo_difference


def test_elo_difference_of_known_scores() -> None:
    assert elo_difference(0.5) == 0
    assert elo_difference(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo_difference(0.25) == pytest.approx(-190.85, abs=0.01)
    assert elo_difference(1.0) == math.inf and elo_difference(0.0) == -math.inf


def test_tally_score_and_margin() -> None:
    tally = Tally(wins=30, losses=20, draws=50)
    assert tally.games == 100 and tally.score == 0.55
    assert tally.elo() == pytest.approx(34.86, abs=0.01)
    assert 30 < tally.margin() < 70  # a hundred games pin the difference only roughly
    assert Tally(300, 200, 500).margin() < tally.margin()  # more games, a tighter margin
    assert tally.line() == "+30 -20 =50, score 55.0%, Elo +34.9 +- " + f"{tally.margin():.1f}"
    assert "inf" in Tally(wins=2).line()


def test_a_lopsided_match_has_a_finite_margin() -> None:
    """37 of 40 won: Wilson's interval stays below a score of 1, so the margin is finite (a
    normal approximation reached 1 there, an infinite difference); every game won is not."""
    low, high = Tally(wins=37, losses=2, draws=1).interval()
    assert 0.8 < low < 0.9375 < high < 1.0
    assert math.isfinite(Tally(wins=37, losses=2, draws=1).margin())
    assert Tally(wins=40).interval()[1] == 1.0 and Tally(wins=40).margin() == math.inf
    assert Tally(draws=10).margin() == 0.0
    assert Tally().interval() == (0.0, 1.0)


@pytest.mark.parametrize("wins, losses, draws", [(30, 20, 50), (60, 40, 0), (10, 80, 10)])
def test_wilson_interval_holds_the_score_and_draws_narrow_it(wins: int, losses: int,
                                                            draws: int) -> None:
    tally = Tally(wins, losses, draws)
    low, high = tally.interval()
    assert low < tally.score < high
    decisive = Tally(wins + draws // 2, losses + draws // 2 + draws % 2, 0)
    assert high - low <= decisive.interval()[1] - decisive.interval()[0] + 1e-12
