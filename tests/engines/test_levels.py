"""The level ladder's table: one Elo (or none yet) per level of the built-in engine."""

from __future__ import annotations

import pytest

from chessarbiter.engines.builtin import LEVELS
from chessarbiter.engines.levels import LADDER_ELO, elo_label


def test_every_level_has_its_entry_and_only_they() -> None:
    assert sorted(LADDER_ELO) == sorted(LEVELS)
    assert all(elo is None or 100 <= elo <= 3500 for elo in LADDER_ELO.values())


def test_a_measured_level_shows_its_elo_and_another_says_it_is_not_measured(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(LADDER_ELO, 4, 1450)
    monkeypatch.setitem(LADDER_ELO, 5, None)
    assert elo_label(4) == "about 1450 Elo"
    assert elo_label(5) == "Elo not measured"
