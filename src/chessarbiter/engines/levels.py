"""Each strength level's rating on Stockfish's ``UCI_Elo`` scale, as the level ladder measured
it (``bench/ladder.py``; BENCHMARKS.md, "Level ladder"): the one table the level choosers of
``chessarbiter play`` and the server read.

A level not yet measured on an idle machine has ``None`` (a loaded machine slows the two
engines unlike, so its figures are no rating); ``bench/ladder.py`` prints the table's lines
to copy here.
"""

from __future__ import annotations

from typing import Final

LADDER_ELO: Final[dict[int, int | None]] = {
    1: None,
    2: None,
    3: None,
    4: None,
    5: None,
    6: None,
    7: None,
    8: None,
    9: None,
    10: 1808,
}
"""The Elo of each level (1-10) on Stockfish's ``UCI_Elo`` scale, or ``None``."""


def elo_label(level: int) -> str:
    """A level's rating as a chooser shows it: ``about 1450 Elo`` or ``Elo not measured``."""
    elo = LADDER_ELO[level]
    return "Elo not measured" if elo is None else f"about {elo} Elo"
