"""FIDE's classification of a time control as standard, rapid or blitz."""

from __future__ import annotations

from enum import Enum

from chessarbiter.clock.controls import TimeControl

BLITZ_MAX_MS = 10 * 60_000
"""Blitz: at most 10 minutes for 60 moves (FIDE Laws Appendix B.1)."""
RAPID_BELOW_MS = 60 * 60_000
"""Rapid: more than 10 and less than 60 minutes for 60 moves (FIDE Laws Appendix A.1)."""


class Category(Enum):
    """The FIDE game categories, which select the rapid (Appendix A) or blitz (Appendix B)
    rules."""

    STANDARD = "standard"
    RAPID = "rapid"
    BLITZ = "blitz"


def classify(control: TimeControl) -> Category:
    """Classify by the time for 60 moves: the allotted time plus 60 times any per-move bonus
    (FIDE Laws Appendix A.1, B.1; delays count like increments, as US Chess counts them)."""
    time = control.time_for_moves(60)
    if time <= BLITZ_MAX_MS:
        return Category.BLITZ
    if time < RAPID_BELOW_MS:
        return Category.RAPID
    return Category.STANDARD
