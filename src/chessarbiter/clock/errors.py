"""The clock package's errors."""

from __future__ import annotations


def shown(text: str, limit: int = 60) -> str:
    """``repr(text)`` for a message, cut after ``limit`` characters for long input."""
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text)} characters)"


class TimeControlError(ValueError):
    """A time control that is malformed or cannot be written in the requested form."""


class ClockError(RuntimeError):
    """An operation the clock does not allow in its present state (e.g. a press while stopped)."""
