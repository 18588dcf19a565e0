"""Unplayed rounds in tie-breaks: FIDE C.07 Art. 16 as applied from 1 April 2024, with the
2023 reading and the virtual opponent of the rules before 2023 as options.

Art. 16.1: a round without a game over the board is unplayed (forfeits, byes, absences).
Requested byes are half- or zero-point byes, and every round after a withdrawal is a
zero-point bye (TRF ``Z``, as the log writes a Swiss absence); requested byes and forfeit
losses are the player's *voluntary unplayed rounds* (VUR). Art. 16.2 sorts unplayed rounds
into 16.2.1 pairing-allocated and full-point byes, 16.2.2 forfeit wins, 16.2.3 requested
byes followed by at least one round that is not a VUR, 16.2.4 forfeit losses and 16.2.5
requested byes followed only by VURs (a withdrawal, or a bye in the last round).

- Art. 16.3, an opponent's score as a player's tie-breaks use it: each 16.2.5 round counts
  as a draw, every other round its points (:func:`adjusted_score`).
- Art. 16.4, the player's own unplayed round: a game against a *dummy opponent* whose score
  is the player's own final score, with the points the player was given in the round.
- Art. 16.5: a cut removes a VUR's contribution first (16.5.1), anew for each value cut
  (16.5.2); see ``tiebreaks``.

A round robin's bye (a blank cell) is no round at all here. Tournament rules may say
otherwise (16.6); :class:`Unplayed` names the choices.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from fractions import Fraction
from typing import Final

from chessarbiter.tournament.records import Cell, Code, Scoring


class Unplayed(Enum):
    """How unplayed rounds count in tie-breaks.

    ``FIDE_2024``: Art. 16 above. ``FIDE_2023``: the same, except that an opponent's forfeit
    losses after the last round they were available to play count as draws like their
    requested byes (the 2023 text did not put forfeit losses in a category of their own).
    ``VIRTUAL``: the rules before 2023: each opponent's unplayed round counts as a draw, and
    each of the player's own is a game against a *virtual opponent* who starts the round
    with the player's score, takes the opposite of the player's result and draws every later
    round; cuts remove the least values, whatever they come from."""

    FIDE_2024 = "2024"
    FIDE_2023 = "2023"
    VIRTUAL = "virtual"

    @classmethod
    def _missing_(cls, value: object) -> Unplayed | None:
        """``dummy``, the name stored before the editions were told apart, is the current
        one."""
        return cls.FIDE_2024 if value == "dummy" else None


REQUESTED: Final = frozenset({Code.HALF_BYE, Code.ZERO_BYE})
"""Requested byes (Art. 16.1), an absence from a Swiss round included."""

VOLUNTARY: Final = REQUESTED | {Code.FORFEIT_LOSS}
"""Voluntary unplayed rounds (Art. 16.1): requested byes and forfeit losses."""


def is_voluntary(code: Code, unplayed: Unplayed) -> bool:
    """Whether a cut takes this round's contribution first (Art. 16.5.1; never before
    2023)."""
    return unplayed is not Unplayed.VIRTUAL and code in VOLUNTARY


def _counted_as_draws(cells: Sequence[Cell], unplayed: Unplayed) -> set[int]:
    """Indexes of the rounds an opponent's score counts as draws (Art. 16.3)."""
    rounds = [(i, c.code) for i, c in enumerate(cells) if c.code is not Code.NONE]
    if unplayed is Unplayed.VIRTUAL:
        return {i for i, code in rounds if not code.played}
    last = max((i for i, code in rounds if code not in VOLUNTARY), default=-1)
    if unplayed is Unplayed.FIDE_2024:  # 16.2.5: requested byes followed only by VURs
        return {i for i, code in rounds if i > last and code in REQUESTED}
    return {i for i, _ in rounds if i > last}  # 2023: forfeit losses as well


def adjusted_score(cells: Sequence[Cell], scoring: Scoring, unplayed: Unplayed) -> Fraction:
    """A player's score as their opponents' tie-breaks use it (Art. 16.3)."""
    draws = _counted_as_draws(cells, unplayed)
    return sum((scoring.draw if i in draws else scoring.points(c.code)
                for i, c in enumerate(cells)), Fraction(0))


def opponent_for(cells: Sequence[Cell], round_no: int, scoring: Scoring,
                 unplayed: Unplayed, rounds: int) -> Fraction:
    """The score of the opponent standing in for the player's unplayed round ``round_no``
    (1-based) of ``rounds``: the dummy opponent (Art. 16.4) or, before 2023, the virtual
    opponent."""
    score = sum((scoring.points(c.code) for c in cells), Fraction(0))
    if unplayed is not Unplayed.VIRTUAL:
        return score
    before = sum((scoring.points(c.code) for c in cells[:round_no - 1]), Fraction(0))
    own = scoring.points(cells[round_no - 1].code)
    result = scoring.loss if own == scoring.win else scoring.draw if own else scoring.win
    return before + result + scoring.draw * (rounds - round_no)
