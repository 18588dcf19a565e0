"""The clock package's errors."""

from __future__ import annotations


class TimeControlError(ValueError):
    """A time control that is malformed or cannot be written in the requested form."""


class ClockError(RuntimeError):
    """An operation the clock does not allow in its present state (e.g. a press while stopped)."""
