"""Time controls in words, as the commands show them back before a game."""

from __future__ import annotations

import pytest

from chessarbiter.clock import parse_control, parse_cutechess
from chessarbiter.present.controls import control_words, duration_words


@pytest.mark.parametrize(("control", "words"), [
    ("10s+0.1s", "10 seconds + 0.1 seconds per move"),
    ("5+3", "5 minutes + 3 seconds per move"),
    ("1m+1s", "1 minute + 1 second per move"),
    ("90", "90 minutes"),
    ("120+30", "2 hours + 30 seconds per move"),
    ("40/90+30, 30+30",
     "40 moves in 90 minutes + 30 seconds per move, then 30 minutes + 30 seconds per move"),
    ("40/120, 20/60", "40 moves in 2 hours, then 20 moves in 1 hour, repeated"),
    ("G/60;d5", "1 hour with a delay of 5 seconds per move"),
    ("G/0;d5", "no time with a delay of 5 seconds per move"),
    ("G/5;b2", "5 minutes with a Bronstein delay of 2 seconds per move"),
    ("none", "no clock"),
])
def test_controls_in_words(control: str, words: str) -> None:
    assert control_words(parse_control(control)) == words


def test_engine_runner_controls_in_words() -> None:
    assert control_words(parse_cutechess("40/60+0.6")) == (
        "40 moves in 1 minute + 0.6 seconds per move, repeated")
    assert control_words(parse_cutechess("1:30.5")) == "1 minute 30.5 seconds"


@pytest.mark.parametrize(("ms", "words"), [
    (1, "0.001 seconds"), (1000, "1 second"), (61_000, "1 minute 1 second"),
    (3_600_000, "1 hour"), (5_400_000, "90 minutes"), (7_200_500, "120 minutes 0.5 seconds"),
])
def test_durations_are_exact(ms: int, words: str) -> None:
    assert duration_words(ms) == words
