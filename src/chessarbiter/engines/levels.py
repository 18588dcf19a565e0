"""Each strength level's rating on Stockfish's ``UCI_Elo`` scale, as the level ladder measured
it (``bench/ladder.py``; BENCHMARKS.md, "Level ladder"): the one table the level choosers of
``chessarbiter play`` and the server read.

Levels 1-8 are capped by depth and nodes, so a busy machine slows them without weakening
them; levels 9 and 10 use their clock and are measured at 10 s + 0.1 s. The ratings carry
95% margins of 115-220 Elo (BENCHMARKS.md): levels 7-10 are not told apart at that clock.
The table holds the measurements fitted to rise with the level (``bench/ladder.py``'s
``monotone``: levels measured out of order share their weighted mean), as the script prints
its lines to copy here; ``None`` is a level not measured."""

from __future__ import annotations

from typing import Final

LADDER_ELO: Final[dict[int, int | None]] = {
    1: 124,
    2: 387,
    3: 991,
    4: 1159,
    5: 1458,
    6: 1477,
    7: 1770,
    8: 1770,
    9: 1869,
    10: 1885,
}
"""The Elo of each level (1-10) on Stockfish's ``UCI_Elo`` scale, or ``None``."""


def elo_label(level: int) -> str:
    """A level's rating as a chooser shows it: ``about 1450 Elo`` or ``Elo not measured``."""
    elo = LADDER_ELO[level]
    return "Elo not measured" if elo is None else f"about {elo} Elo"
