"""Shared by the benchmarks: the median rate of a timed function, and which build is timed."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from chessarbiter.core import position


def rate(fn: Callable[[], int], repeats: int) -> float:
    """Median units per second of ``fn`` (which returns the units it did) over ``repeats``."""
    rates = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        units = fn()
        rates.append(units / (time.perf_counter() - t0))
    return statistics.median(rates)


def compare(
    ours: Callable[[], int], theirs: Callable[[], int], repeats: int
) -> tuple[float, float]:
    """Median rates of two functions measured in alternation, so that a change in the
    machine's load falls on both alike."""
    mine: list[float] = []
    other: list[float] = []
    for _ in range(repeats):
        for fn, out in ((ours, mine), (theirs, other)):
            t0 = time.perf_counter()
            units = fn()
            out.append(units / (time.perf_counter() - t0))
    return statistics.median(mine), statistics.median(other)


def build() -> str:
    """Which build of chessarbiter runs: the hot modules compiled (setup.py) or pure Python."""
    return "pure Python" if str(position.__file__).endswith(".py") else "compiled with mypyc"
