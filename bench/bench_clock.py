"""Benchmark: one million clock presses with a fake time source (``python bench/bench_clock.py``).

Presses are played as 5,000 games of 200 presses under 40/90+30, 30+30, each move taking a
few seconds of fake time, twice: with ``Clock.press`` (which answers the move's ``Press``
record) and with ``Clock.complete_move`` (which answers only the display and the time used:
the arbiter's press on every move). Prints the median of several repeats of each.
"""

from __future__ import annotations

import statistics
import time

from chessarbiter.clock import Clock, Side, parse_human

PRESSES = 1_000_000
PER_GAME = 200
REPEATS = 5


class Ticker:
    """A fake monotonic source that moves on 1.5 s at every reading."""

    def __init__(self) -> None:
        self.ms = 0

    def __call__(self) -> int:
        self.ms += 1_500
        return self.ms


def run(method: str) -> float:
    """Seconds for one million presses with the clock's ``method``."""
    control = parse_human("40/90+30, 30+30")
    sides = (Side.WHITE, Side.BLACK) * (PER_GAME // 2)
    began = time.perf_counter()
    for _ in range(PRESSES // PER_GAME):
        clock = Clock(control, Ticker())
        clock.start()
        press = getattr(clock, method)
        for side in sides:
            press(side)
    return time.perf_counter() - began


def main() -> None:
    for method in ("press", "complete_move"):
        seconds = statistics.median(run(method) for _ in range(REPEATS))
        print(f"{PRESSES:,} presses with {method}, median of {REPEATS}: {seconds:.2f} s")
        print(f"  {PRESSES / seconds:,.0f} presses/s, {seconds / PRESSES * 1e6:.2f} us/press")
    print("No comparison: python-chess has no clock to measure against.")


if __name__ == "__main__":
    main()
