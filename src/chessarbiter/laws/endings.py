"""How a game ended, its result and its score (Laws Art. 5, 6, 7.5, 9-12).

Article numbers are the FIDE Laws of 2023 (Art. 5.1.1 ...) with the official rules of 2000
in brackets where they differ (``S9.6``); :attr:`Termination.pgn` is the PGN standard's
``Termination`` tag value.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from chessarbiter.core.squares import Side


class Result(Enum):
    """The result of a game as the scoresheet writes it (Art. 8.7, 11)."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"
    BOTH_LOSE = "0-0"
    """Both players lose (S12.8, F23 12.9): scored 0-0."""

    @staticmethod
    def win_for(side: Side) -> Result:
        """The result in which ``side`` wins."""
        return Result.WHITE_WINS if side is Side.WHITE else Result.BLACK_WINS

    def score(self, side: Side) -> Fraction:
        """``side``'s points: 1 for a win, 1/2 for a draw, 0 for a loss (Art. 11 / F23 10.1)."""
        if self is Result.DRAW:
            return Fraction(1, 2)
        if self is Result.WHITE_WINS:
            return Fraction(1 if side is Side.WHITE else 0)
        if self is Result.BLACK_WINS:
            return Fraction(1 if side is Side.BLACK else 0)
        return Fraction(0)

    @property
    def pgn(self) -> str:
        """The PGN result token; PGN has none for 0-0, which is written ``*`` (unknown)."""
        return "*" if self is Result.BOTH_LOSE else self.value


class Termination(Enum):
    """Every way a game ends, with the article that ends it (value: a stable name)."""

    CHECKMATE = "checkmate"
    RESIGNATION = "resignation"
    STALEMATE = "stalemate"
    AGREEMENT = "agreement"
    DEAD_POSITION = "dead position"
    THREEFOLD_REPETITION = "threefold repetition"
    FIFTY_MOVES = "fifty-move rule"
    FIVEFOLD_REPETITION = "fivefold repetition"
    SEVENTY_FIVE_MOVES = "seventy-five-move rule"
    TIME_FORFEIT = "time forfeit"
    BOTH_FLAGS = "both flags fallen"
    ILLEGAL_MOVES = "illegal moves"
    SUDDEN_DEATH_CLAIM = "sudden-death draw claim"
    FORFEIT = "forfeit"
    BOTH_LOSE = "both players lose"
    ARBITER_DECISION = "arbiter's decision"
    ABANDONED = "abandoned"
    """Online practice (the profile's ``abandonment_ms``): the opponent left the game."""

    @property
    def article(self) -> str:
        """The article that ends the game this way (F23 numbering, 2000 rules as ``S``)."""
        return _ARTICLES[self]

    @property
    def pgn(self) -> str:
        """The PGN standard ``Termination`` tag value."""
        return _PGN[self]


_ARTICLES = {
    Termination.CHECKMATE: "5.1.1 (S5.1a)",
    Termination.RESIGNATION: "5.1.2 (S5.1b)",
    Termination.STALEMATE: "5.2.1 (S5.2)",
    Termination.AGREEMENT: "5.2.3, 9.1 (S5.3, 9.1)",
    Termination.DEAD_POSITION: "5.2.2 (S9.6)",
    Termination.THREEFOLD_REPETITION: "9.2 (S9.2)",
    Termination.FIFTY_MOVES: "9.3 (S9.3)",
    Termination.FIVEFOLD_REPETITION: "9.6.1",
    Termination.SEVENTY_FIVE_MOVES: "9.6.2",
    Termination.TIME_FORFEIT: "6.9 (S6.9)",
    Termination.BOTH_FLAGS: "Guidelines III.3.1 (S6.11, 10.4)",
    Termination.ILLEGAL_MOVES: "7.5.5 (S10.3)",
    Termination.SUDDEN_DEATH_CLAIM: "Guidelines III.5 (S10.2)",
    Termination.FORFEIT: "11.7, 12.9 (S12.7, 13.4d)",
    Termination.BOTH_LOSE: "11.8 (S12.8)",
    Termination.ARBITER_DECISION: "12.9 (S13.4)",
    Termination.ABANDONED: "the online profile (no article: cf. 6.7)",
}

_PGN = {
    **{t: "normal" for t in Termination},
    Termination.TIME_FORFEIT: "time forfeit",
    Termination.BOTH_FLAGS: "time forfeit",
    Termination.ILLEGAL_MOVES: "rules infraction",
    Termination.FORFEIT: "rules infraction",
    Termination.BOTH_LOSE: "rules infraction",
    Termination.SUDDEN_DEATH_CLAIM: "adjudication",
    Termination.ARBITER_DECISION: "adjudication",
    Termination.ABANDONED: "abandoned",
}


@dataclass(frozen=True, slots=True)
class Outcome:
    """How and with what result a game ended; ``reason`` says it in words for the scoresheet."""

    result: Result
    termination: Termination
    reason: str

    @property
    def winner(self) -> Side | None:
        """The winning side of a decisive game, ``None`` for a draw or 0-0."""
        if self.result is Result.WHITE_WINS:
            return Side.WHITE
        if self.result is Result.BLACK_WINS:
            return Side.BLACK
        return None

    def __str__(self) -> str:
        article = self.termination.article
        return f"{self.result.value} by {self.termination.value} (Art. {article}): {self.reason}"

