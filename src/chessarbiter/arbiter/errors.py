"""The arbiter's errors: a rejected event names what is wrong; the game is left as it was."""

from __future__ import annotations


class ArbiterError(ValueError):
    """An event the game cannot accept (out of turn, no such offer, illegal move, ...)."""


class GameOverError(ArbiterError):
    """A player's event after the game has ended."""


class FlagFallenError(ArbiterError):
    """Under a profile whose flags fall by themselves, an event after the flag of the player
    to move fell: record a ``FlagObserved`` first."""

    def __init__(self, message: str, flag_at_ms: int) -> None:
        self.flag_at_ms = flag_at_ms
        super().__init__(message)


class LogFormatError(ArbiterError):
    """A JSON-lines game log that cannot be read; names the line and the field."""
