"""The cyclic garbage collector is paused while ``can_checkmate`` analyses (``api``): sound
only because the analysis makes no reference cycles, which these tests check on positions
that reach every search, and it must be resumed afterwards as it was."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import pytest

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.squares import BLACK, WHITE, Side
from chessarbiter.laws.deadpos import Winnability, api, can_checkmate

CASES = [
    # every search has its turns (a winner with pieces; with pawns only), budget spent
    ("k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - - 0 1", WHITE, 20_000),
    ("8/p1p1p3/8/8/8/6p1/P1P1P1Pp/k6K w - - 0 1", WHITE, 20_000),
    # a helpmate found by the progress search; proved by the exploration; found by it
    ("6k1/2B2pp1/3Kp1p1/8/1r6/8/8/8 b - - 5 45", WHITE, 200_000),
    ("B6b/pr6/8/8/8/4p1pp/P3Pp1p/2b2K1k w - - 0 1", WHITE, 200_000),
    ("6kB/p3p1P1/2p3P1/p7/8/4P3/P1P5/K7 w - - 0 1", BLACK, 200_000),
]


@pytest.fixture
def collecting() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def collected() -> int:
    """The objects the collector found unreachable so far (its own collections counted)."""
    gc.collect()
    return sum(generation["collected"] for generation in gc.get_stats())


@pytest.mark.parametrize(("fen", "winner", "budget"), CASES)
def test_the_analysis_makes_no_reference_cycles(
    fen: str, winner: Side, budget: int, collecting: None
) -> None:
    pos = parse_fen(fen)
    before = collected()
    verdict = can_checkmate(pos, winner, "full", budget)
    assert verdict.nodes > 1_000
    assert collected() == before  # nothing the analysis left needed the collector
    assert gc.isenabled()


def test_a_cycle_made_in_the_analysis_is_seen(
    collecting: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the check above can fail: a cycle made while the collector is paused is left for it
    analyse = api._analyse

    def with_a_cycle(*args: Any) -> api.Answer:
        cycle: list[object] = []
        cycle.append(cycle)
        return analyse(*args)

    monkeypatch.setattr(api, "_analyse", with_a_cycle)
    before = collected()
    can_checkmate(parse_fen(CASES[0][0]), WHITE, "full", 2_000)
    assert collected() == before + 1


def test_the_collector_is_resumed_after_a_time_out(collecting: None) -> None:
    ticks = iter(range(1_000_000))
    verdict = can_checkmate(parse_fen(CASES[0][0]), WHITE, "full", seconds=3,
                            clock=lambda: float(next(ticks)))
    assert verdict.outcome is Winnability.UNDETERMINED and verdict.reason == "time"
    assert gc.isenabled()


def test_a_paused_collector_stays_paused() -> None:
    was = gc.isenabled()
    gc.disable()
    try:
        can_checkmate(parse_fen(CASES[0][0]), WHITE, "full", 2_000)
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()
