"""A time bound on the analysis: rulings (Laws Art. 6.9, 5.1.2 of 2023, 7.5.5) must not wait
on it for ever. Node budgets keep the verdicts deterministic; the deadline is a guard on top
that turns a search still running when it passes into an undetermined verdict."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final

EVERY: Final = 256
"""Nodes between two readings of the clock."""


class TimeUp(Exception):
    """The deadline passed while the analysis ran."""


class Deadline:
    """Raises :class:`TimeUp` from :meth:`tick` once ``seconds`` have passed on ``clock``
    (``time.monotonic`` by default) since it was made; ``seconds=None`` never does."""

    __slots__ = ("_at", "_clock", "_left", "nodes")

    def __init__(self, seconds: float | None = None, clock: Callable[[], float] | None = None):
        self._clock = clock or time.monotonic
        self._at = None if seconds is None else self._clock() + seconds
        self._left = EVERY
        self.nodes = 0
        """The positions the helpmate searches have visited under this deadline (each
        :meth:`tick`): what a verdict cut short by the deadline reports."""

    def tick(self) -> None:
        """Counts a node of a helpmate search; reads the clock every :data:`EVERY` calls
        of :meth:`tick` or :meth:`pace`."""
        self.nodes += 1
        self.pace()

    def pace(self) -> None:
        """Counts a step of a proof (a phase, a move tried); reads the clock every
        :data:`EVERY` calls of :meth:`tick` or :meth:`pace`."""
        self._left -= 1
        if self._left <= 0:
            self._left = EVERY
            self.check()

    def check(self) -> None:
        """Reads the clock now: raises :class:`TimeUp` if the deadline has passed."""
        if self._at is not None and self._clock() >= self._at:
            raise TimeUp


NEVER: Final = Deadline()
"""A deadline that never passes (the default of every stage)."""
