"""``[%clk]`` / ``[%emt]`` comment commands <-> integer milliseconds."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chessarbiter.clock import (
    find_clk,
    find_emt,
    format_clk,
    format_clock_time,
    format_emt,
    parse_clock_time,
    strip_commands,
)


@pytest.mark.parametrize(
    ("text", "ms"),
    [
        ("1:59:58", 7_198_000),
        ("0:00:03.2", 3_200),
        ("01:14:46", 4_486_000),
        ("0:00:01.234", 1_234),
        ("123:00:00", 442_800_000),
    ],
)
def test_parse_clock_time(text: str, ms: int) -> None:
    assert parse_clock_time(text) == ms


@pytest.mark.parametrize(
    "text",
    [
        "1:60:00", "0:00:60", "1:2:3", "0:00:01.2345", "-0:00:01", "",
        "1" * 5000 + ":00:00",  # beyond Python's int-string limit
        "1234567890:00:00", "\u0665:00:00", "1:\u00b2\u00b3:00",  # ten hour digits, non-ASCII
    ],
)
def test_parse_errors(text: str) -> None:
    with pytest.raises(ValueError, match="expected") as info:
        parse_clock_time(text)
    assert len(str(info.value)) < 200


def test_format() -> None:
    assert format_clock_time(7_198_000) == "1:59:58"
    assert format_clock_time(3_200) == "0:00:03.2"
    assert format_clock_time(3_299, decimals=1) == "0:00:03.2"  # truncated, as clocks show
    assert format_clock_time(3_299, decimals=0) == "0:00:03"
    assert format_clk(7_198_000) == "[%clk 1:59:58]"
    assert format_emt(3_200) == "[%emt 0:00:03.2]"
    with pytest.raises(ValueError, match=">= 0"):
        format_clock_time(-1)
    with pytest.raises(ValueError, match="0 to 3"):
        format_clock_time(1, decimals=4)


def test_find_and_strip() -> None:
    comment = "good [%emt 0:00:07] [%clk 1:30:42] [%eval 0.3] move"
    assert find_clk(comment) == 5_442_000
    assert find_emt(comment) == 7_000
    assert find_clk("no clock here") is None
    assert strip_commands(comment) == "good move"


@given(st.integers(0, 10**9))
def test_round_trip(ms: int) -> None:
    assert parse_clock_time(format_clock_time(ms)) == ms
