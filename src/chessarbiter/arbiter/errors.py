"""The arbiter's errors: a rejected event names what is wrong; the game is left as it was."""

from __future__ import annotations

from collections.abc import Callable

from chessarbiter.core.position import Position
from chessarbiter.core.squares import Side
from chessarbiter.laws.deadpos import Verdict


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


class AnalysisAsked(ArbiterError):
    """From :meth:`~chessarbiter.arbiter.game.Game.apply_unless_asked`: the ruling on the
    event asks whether ``colour`` can still checkmate in ``position`` (Art. 5.1.2, 6.9,
    7.5.5; F23 5.1.2), and the game is left as it was. :meth:`answer` asks the game's mate
    oracle (it may take seconds: a caller with an event loop runs it elsewhere, or asks the
    same ``oracle`` on ``position`` in another process); the event is then replayed with the
    answer recorded as its analysis."""

    def __init__(self, oracle: Callable[[Position, Side], Verdict], position: Position,
                 colour: Side) -> None:
        self.oracle = oracle
        self.position = position
        self.colour = colour
        super().__init__(f"the ruling asks whether {colour.name.lower()} can still checkmate")

    def answer(self) -> Verdict:
        """The game's mate oracle's answer, here."""
        return self.oracle(self.position, self.colour)
