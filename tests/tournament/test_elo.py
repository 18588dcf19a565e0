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
