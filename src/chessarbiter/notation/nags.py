"""Numeric Annotation Glyphs (PGN standard 10) and the symbols people write for them.

Export format writes NAGs as ``$n``; import format also sees the traditional suffixes
(``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!``, PGN standard 8.2.3.8) and the evaluation
symbols of printed chess (``=``, ``+=``, ``±``, ``+-``, ``∞``, ...).
"""

from __future__ import annotations

from typing import Final

GOOD: Final = 1
MISTAKE: Final = 2
BRILLIANT: Final = 3
BLUNDER: Final = 4
SPECULATIVE: Final = 5
DUBIOUS: Final = 6

NAG_LIMIT: Final = 255
"""NAG values run from 0 to 255 (PGN standard 10)."""

GLYPHS: Final = {
    "!": GOOD,
    "?": MISTAKE,
    "!!": BRILLIANT,
    "??": BLUNDER,
    "!?": SPECULATIVE,
    "?!": DUBIOUS,
    "□": 7,
    "=": 10,
    "∞": 13,
    "+=": 14,
    "⩲": 14,
    "=+": 15,
    "⩱": 15,
    "+/-": 16,
    "±": 16,
    "-/+": 17,
    "∓": 17,
    "+-": 18,
    "-+": 19,
    "⨀": 22,
    "⟳": 32,
    "→": 36,
    "↑": 40,
    "⇆": 132,
    "N": 146,
}
"""Written symbol -> NAG."""

SUFFIXES: Final = {value: key for key, value in GLYPHS.items() if value <= DUBIOUS}
"""NAG 1-6 -> the move suffix annotation (``!`` ... ``?!``)."""
