"""Match statistics: score, Elo difference and its 95% error margin (the logistic model the
rating lists use; the margin from Wilson's interval of the score, which stays finite for a
lopsided match)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist


def elo_difference(score: float) -> float:
    """Elo difference for an expected score in (0, 1); infinite at 0 and 1."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass(frozen=True, slots=True)
class Tally:
    """Wins, losses and draws of the first player."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> float:
        """Points per game (1 / ½ / 0, Art. 11)."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.5

    def elo(self) -> float:
        return elo_difference(self.score)

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """The score's confidence interval: Wilson's, for as many games as give a binomial
        the spread of these games' scores (draws narrow it). Within (0, 1) unless every
        game was won or every game lost, so a lopsided match still bounds the difference."""
        n = self.games
        if n == 0:
            return 0.0, 1.0
        p = self.score
        spread = (self.wins * (1 - p) ** 2 + self.draws * (0.5 - p) ** 2
                  + self.losses * p**2) / n
        if spread == 0 and 0 < p < 1:  # every game drawn
            return p, p
        m = n * p * (1 - p) / spread if spread else n
        z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
        shrink = 1 + z * z / m
        centre = (p + z * z / (2 * m)) / shrink
        half = z * math.sqrt(p * (1 - p) / m + z * z / (4 * m * m)) / shrink
        return (0.0 if p == 0 else centre - half), (1.0 if p == 1 else centre + half)

    def margin(self, confidence: float = 0.95) -> float:
        """Half the width of the confidence interval of the Elo difference
        (:meth:`interval`'s bounds as Elo differences)."""
        low, high = self.interval(confidence)
        return (elo_difference(high) - elo_difference(low)) / 2

    def line(self) -> str:
        """``+3 -2 =5, score 55.0%, Elo +34.9 +- 98.3``."""
        elo, margin = self.elo(), self.margin()
        elo_text = f"{elo:+.1f}" if math.isfinite(elo) else ("+inf" if elo > 0 else "-inf")
        margin_text = f"{margin:.1f}" if math.isfinite(margin) else "inf"
        return (f"+{self.wins} -{self.losses} ={self.draws}, score {100 * self.score:.1f}%, "
                f"Elo {elo_text} +- {margin_text}")
