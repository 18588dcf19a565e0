"""A hand-driven monotonic time source: tests never sleep."""

from __future__ import annotations


class FakeTime:
    """Call it for the time in ms; ``advance`` moves it on."""

    def __init__(self, start: int = 1_000_000) -> None:
        self.ms = start

    def __call__(self) -> int:
        return self.ms

    def advance(self, ms: int) -> None:
        assert ms >= 0, "monotonic time never goes back"
        self.ms += ms
