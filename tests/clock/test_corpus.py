"""The third-party clock corpus (../shared/corpus/clock/), read and rebuilt."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from chessarbiter.clock import (
    Category,
    Clock,
    NoControl,
    Side,
    TimeControl,
    TimeControlError,
    classify,
    find_clk,
    find_emt,
    format_clock_time,
    format_pgn_tag,
    parse_clock_time,
    parse_pgn_tag,
    strip_commands,
)
from tests.corpus import corpus_path


def _cases(name: str) -> list[dict[str, Any]]:
    lines = corpus_path("clock", name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


TIME_CONTROLS = _cases("timecontrol_cases.jsonl")
COMMENTS = _cases("clk_comment_cases.jsonl")

# python-chess's classes come from base + 40 * increment and include BULLET, which FIDE does not
# have (FIDE: blitz <= 10 min, rapid < 60 min for 60 moves). On these cases they agree once
# BULLET is read as BLITZ.
_FIDE_FROM_PYTHON_CHESS = {
    "BULLET": Category.BLITZ,
    "BLITZ": Category.BLITZ,
    "RAPID": Category.RAPID,
    "STANDARD": Category.STANDARD,
}


@pytest.mark.parametrize("case", TIME_CONTROLS, ids=[c["id"] for c in TIME_CONTROLS])
def test_time_control_tag(case: dict[str, Any]) -> None:
    text = case["time_control"]
    if not case["valid"]:
        with pytest.raises(TimeControlError, match=re.escape(repr(text))):
            parse_pgn_tag(text)
        return
    control = parse_pgn_tag(text)
    assert isinstance(control, TimeControl)
    assert format_pgn_tag(control) == text
    if "parts" in case:
        expected = [
            (p["moves"] or None, p["seconds"] * 1000, p["increment"] * 1000) for p in case["parts"]
        ]
        assert [(p.moves, p.time_ms, p.bonus_ms) for p in control.periods] == expected
    assert classify(control) == _FIDE_FROM_PYTHON_CHESS[case["python_chess_type"]]


@pytest.mark.parametrize("case", COMMENTS, ids=[c["id"] for c in COMMENTS])
def test_clock_comment(case: dict[str, Any]) -> None:
    comment = case["comment"]
    for key, find in (("clock_seconds", find_clk), ("emt_seconds", find_emt)):
        seconds = case.get(key)
        # Exact decimal -> ms without float arithmetic: go through the decimal text.
        expected = None if seconds is None else parse_clock_time(_hms(str(seconds)))
        assert find(comment) == expected
    if "text_without_commands" in case:
        assert strip_commands(comment) == case["text_without_commands"]


def _hms(seconds: str) -> str:
    """'3723.4' -> '1:02:03.4' (string arithmetic, no floats)."""
    whole, _, fraction = seconds.partition(".")
    text = format_clock_time(int(whole) * 1000)
    return f"{text}.{fraction}" if fraction else text


_COMMENT = re.compile(r"\{([^}]*)\}")
_TAG = re.compile(r'\[TimeControl "([^"]*)"\]')
_TS = re.compile(r"\[%ts (\d+)\]")


def test_whole_game_replay() -> None:
    """Replay the game's 75 presses at their ``%ts`` instants under its TimeControl: every
    ``%clk`` (displayed truncated to the second) and ``%emt`` comes out again.

    The record does not say when White's clock was started: White's first move time is known
    only to the second (``%emt``). Each later White ``%clk`` narrows it; the test solves for
    the interval, checks it is not empty, and replays from its start.
    """
    text = corpus_path("clock", "scalachess_allSortOfClocks.pgn").read_text(encoding="utf-8")
    tag = _TAG.search(text)
    assert tag is not None
    control = parse_pgn_tag(tag[1])
    assert isinstance(control, TimeControl)
    comments = _COMMENT.findall(text)
    stamps = [int(m[1]) for m in map(_TS.search, comments) if m]
    clks = [find_clk(c) for c in comments]
    emts = [find_emt(c) for c in comments]
    assert len(stamps) == len(clks) == len(emts) == 75
    first_emt = emts[0]
    assert first_emt is not None

    def replay(first_move_ms: int) -> list[tuple[int, int]]:
        now = [stamps[0] - first_move_ms]
        clock = Clock(control, lambda: now[0])
        clock.start()
        readings = []
        for ply, stamp in enumerate(stamps):
            now[0] = stamp
            press = clock.press(Side.WHITE if ply % 2 == 0 else Side.BLACK)
            readings.append((press.clock_ms, press.used_ms))
        return readings

    # White's readings fall 1:1 with his first move's time: bound it by every White %clk.
    low, high = first_emt, first_emt + 999
    for (clock_ms, _), clk in list(zip(replay(first_emt), clks, strict=True))[::2]:
        assert clk is not None
        over = clock_ms - clk  # how much more White's first move may have taken
        low, high = max(low, first_emt + over - 999), min(high, first_emt + over)
    assert low <= high, "no clock start time reproduces White's readings"

    for ply, ((clock_ms, used_ms), clk, emt) in enumerate(
        zip(replay(low), clks, emts, strict=True)
    ):
        assert (clock_ms // 1000 * 1000, used_ms // 1000 * 1000) == (clk, emt), f"ply {ply + 1}"


def test_no_control_tags() -> None:
    assert parse_pgn_tag("?") is NoControl.UNKNOWN
    assert parse_pgn_tag("-") is NoControl.UNTIMED
