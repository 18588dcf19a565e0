"""Controls a clock can play (what ``play`` and ``match`` accept): the first move needs time
before the flag falls; ``parse_control`` reads every written form."""

from __future__ import annotations

import pytest

from chessarbiter.clock.errors import TimeControlError
from chessarbiter.clock.parse import parse_control, parse_human, parse_us, require_playable


@pytest.mark.parametrize("text", ["G/0;d5", "G/1", "G/0.5;b5", "40/90, 0"])
def test_playable(text: str) -> None:
    control = parse_us(text) if text.startswith("G/") else parse_human(text)
    assert require_playable(control, text) is control


@pytest.mark.parametrize(
    ("text", "why"),
    [("G/0", "and no bonus"), ("G/0;b5", "Bronstein"), ("G/0+2", "increment"),
     ("0+3", "increment"), ("40/0, 5", "and no bonus")],
)
def test_unplayable(text: str, why: str) -> None:
    control = parse_us(text) if text.startswith("G/") else parse_human(text)
    with pytest.raises(TimeControlError, match="no time for the first move") as caught:
        require_playable(control, text)
    assert why in str(caught.value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("5+3", parse_human("5+3")), ("40/90+30, 30+30", parse_human("40/90+30, 30+30")),
     ("G/60;d5", parse_us("G/60;d5")), (" None ", None), ("-", None), ("untimed", None)],
)
def test_parse_control_reads_every_form(text: str, expected: object) -> None:
    assert parse_control(text) == expected


def test_parse_control_refuses() -> None:
    with pytest.raises(TimeControlError, match="no time for the first move"):
        parse_control("G/0+2")
    with pytest.raises(TimeControlError) as caught:
        parse_control("5+x")
    with pytest.raises(TimeControlError) as human:
        parse_human("5+x")
    assert str(caught.value) == str(human.value)  # the human form's error when neither reads
