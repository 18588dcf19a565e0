"""The exceptions of the rules core: every bad input names what is wrong and where."""

from __future__ import annotations


def quoted(text: str, limit: int = 80) -> str:
    """``repr(text)``, cut after ``limit`` characters for long input (messages stay short)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


class ChessError(ValueError):
    """Base class for invalid chess input (a ``ValueError``)."""


class FenError(ChessError):
    """A FEN or EPD string that cannot be read: names the field and the reason."""

    def __init__(self, field: str, reason: str, text: str = "") -> None:
        self.field = field
        self.reason = reason
        self.text = text
        where = f" in {quoted(text)}" if text else ""
        super().__init__(f"invalid FEN {field}: {reason}{where}")


class MoveError(ChessError):
    """A move that cannot be played in the position."""


class InvalidMoveError(MoveError):
    """A move written in a form that cannot be read (bad syntax)."""


class IllegalMoveError(MoveError):
    """A well-formed move that is not legal in the position (Laws Art. 3.10)."""


class AmbiguousMoveError(MoveError):
    """A move that fits more than one legal move; ``candidates`` lists them."""

    def __init__(self, message: str, candidates: list[str]) -> None:
        self.candidates = candidates
        super().__init__(message)
