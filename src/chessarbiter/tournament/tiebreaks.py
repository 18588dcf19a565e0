"""Tie-breaks of FIDE C.07 (as applied from 1 April 2024), from the players' round cells.

Names as C.07 abbreviates them, with modifiers ``-C1``/``-C2`` (cut the 1 or 2 least
significant values, Art. 14.1-14.2) and ``-M1``/``-M2`` (median: also the most significant,
14.3-14.4): ``BH`` Buchholz (Art. 8.1), ``SB`` Sonneborn-Berger (9.1), ``DE`` direct
encounter (6), ``WIN`` rounds won with or without playing (7.1), ``WON`` games won over the
board (7.2), ``BPG`` games played with Black (7.3), ``BWG`` games won with Black (7.4),
``PS`` progressive score (7.5), ``KS`` Koya (9.2), ``ARO`` average rating of opponents
(10.1; ``AROC`` = ``ARO-C1``), ``TPR`` tournament performance rating (10.2).

Unplayed rounds count as Art. 16 says (``unplayed``): an opponent's score is their adjusted
score (16.3), a player's own unplayed round a game against a dummy opponent (16.4), and a
cut takes a voluntary unplayed round's contribution first (16.5). The least significant
value (14.1.1) is the lowest one; for Sonneborn-Berger, the contribution of the opponent
with the lowest score, the lowest such product on equal scores. Cuts never remove the last
value, and a median applies only when a value is left after it. Rating tie-breaks count only
games played against rated opponents (Art. 10). Sonneborn-Berger, Koya and TPR weigh each
game by its game points (1, ½, 0), whatever the tournament's scoring.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from chessarbiter.clock import Side
from chessarbiter.tournament.records import Cell, Code, Scoring
from chessarbiter.tournament.unplayed import Unplayed as Unplayed
from chessarbiter.tournament.unplayed import adjusted_score, is_voluntary, opponent_for


class TiebreakError(ValueError):
    """A tie-break name that is not one: names it and the reason."""


CODES: Final = ("BH", "SB", "DE", "WIN", "WON", "BPG", "BWG", "PS", "KS", "ARO", "TPR")
CUTTABLE: Final = frozenset({"BH", "SB", "PS", "ARO"})
"""The tie-breaks Art. 14's modifiers apply to."""

DP_TABLE: Final = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309,
    322, 336, 351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800)
"""FIDE's conversion of a fractional score p to a rating difference dp (FIDE rating
regulations B.02, table 8.1.a): ``DP_TABLE[k]`` for p = 0.50 + k/100; below 0.50 the
negative of the mirrored entry."""

GAME_POINTS: Final = {
    Code.WIN: Fraction(1), Code.WIN_UNRATED: Fraction(1), Code.FORFEIT_WIN: Fraction(1),
    Code.FULL_BYE: Fraction(1), Code.PAIRING_BYE: Fraction(1),
    Code.DRAW: Fraction(1, 2), Code.DRAW_UNRATED: Fraction(1, 2), Code.HALF_BYE: Fraction(1, 2),
}
"""Game points of a cell (Art. 11 of the Laws: 1, ½, 0); every other code scores 0."""


@dataclass(frozen=True)
class Tiebreak:
    """A tie-break and its modifier: ``low`` least and ``high`` most significant values cut."""

    code: str
    low: int = 0
    high: int = 0

    @property
    def name(self) -> str:
        if self.high:
            return f"{self.code}-M{self.high}"
        return f"{self.code}-C{self.low}" if self.low else self.code


def parse_tiebreak(text: str) -> Tiebreak:
    """``BH``, ``BH-C1``, ``BH-M1``, ``AROC``, ...; ``TiebreakError`` naming a bad one."""
    name = text.strip().upper().replace("/", "-")
    if name == "AROC":
        name = "ARO-C1"
    code, _, modifier = name.partition("-")
    if code not in CODES:
        raise TiebreakError(f"tie-break {text!r}: expected one of {', '.join(CODES)} "
                            "(with -C1, -C2, -M1, -M2 for BH, SB, PS, ARO)")
    if not modifier:
        return Tiebreak(code)
    if code not in CUTTABLE:
        raise TiebreakError(f"tie-break {text!r}: {code} takes no modifier")
    kind, count = modifier[:1], modifier[1:]
    if kind not in ("C", "M") or count not in ("1", "2"):
        raise TiebreakError(f"tie-break {text!r}: modifier {modifier!r}: expected C1, C2, "
                            "M1 or M2")
    return Tiebreak(code, int(count), int(count) if kind == "M" else 0)


def dp(p: Fraction) -> int:
    """The rating difference for the fractional score ``p`` (rounded to hundredths, half
    up)."""
    hundredths = int(p * 100 + Fraction(1, 2))
    return DP_TABLE[hundredths - 50] if hundredths >= 50 else -DP_TABLE[50 - hundredths]


def _round_half_up(value: Fraction) -> int:
    """A rating average to the nearest whole number, halves up (ratings are positive)."""
    return int(value + Fraction(1, 2))


@dataclass(frozen=True)
class _Value:
    """One round's contribution to a tie-break, the opponent's score it comes from (what
    makes it least significant for SB, Art. 14.1.1) and whether it is a voluntary unplayed
    round's (cut first, Art. 16.5.1)."""

    value: Fraction
    basis: Fraction
    voluntary: bool = False


class Tiebreaks:
    """The tie-breaks of a tournament's players, from their cells (by start number) over the
    rounds played so far, the scoring and the players' ratings (0: unrated)."""

    def __init__(self, cells: Mapping[int, Sequence[Cell]], scoring: Scoring,
                 ratings: Mapping[int, int], unplayed: Unplayed = Unplayed.FIDE_2024) -> None:
        self.cells = cells
        self.scoring = scoring
        self.ratings = ratings
        self.unplayed = unplayed
        self.rounds = max((len(c) for c in cells.values()), default=0)
        self.scores = {p: sum((scoring.points(c.code) for c in cs), Fraction(0))
                       for p, cs in cells.items()}
        self.adjusted = {p: adjusted_score(cs, scoring, unplayed) for p, cs in cells.items()}
        """Each player's score as others' tie-breaks use it (Art. 16.3)."""

    def score(self, player: int) -> Fraction:
        return self.scores[player]

    def value(self, tiebreak: Tiebreak, player: int,
              tied: Collection[int] = ()) -> Fraction:
        """The player's value; ``tied``, the players tied with them, for ``DE``."""
        code = tiebreak.code
        cells = self.cells[player]
        if code == "DE":
            return self._direct(player, tied)
        if code in ("WIN", "WON", "BPG", "BWG"):
            return Fraction(sum(1 for c in cells if self._counts(code, c)))
        if code == "KS":
            games = max(sum(c.code is not Code.NONE for c in cs) for cs in self.cells.values())
            half = games * self.scoring.win / 2  # a round robin's bye is no round
            return sum((GAME_POINTS.get(c.code, Fraction(0)) for c in cells
                        if c.opponent is not None and self.scores[c.opponent] >= half),
                       Fraction(0))
        if code == "TPR":
            return self._tpr(player)
        values = self._values(code, player)
        return self._cut(values, tiebreak, code)

    def _counts(self, code: str, cell: Cell) -> bool:
        if code == "WIN":
            return cell.code is not Code.NONE and (
                self.scoring.points(cell.code) == self.scoring.win)
        won = cell.code in (Code.WIN, Code.WIN_UNRATED)
        black = cell.side is Side.BLACK and cell.code.played
        return won if code == "WON" else black if code == "BPG" else won and black

    def _values(self, code: str, player: int) -> list[_Value]:
        cells = self.cells[player]
        if code == "PS":
            running, values = Fraction(0), []
            for cell in cells:
                running += self.scoring.points(cell.code)
                values.append(_Value(running, running))
            return values
        if code == "ARO":
            rated = [Fraction(self.ratings.get(c.opponent, 0)) for c in cells
                     if c.opponent is not None and c.code.played]
            return [_Value(rating, rating) for rating in rated if rating > 0]
        values = []
        for round_no, cell in enumerate(cells, 1):
            if cell.code is Code.NONE:
                continue
            if cell.code.played:
                assert cell.opponent is not None
                opponent = self.adjusted[cell.opponent]
            else:
                opponent = opponent_for(cells, round_no, self.scoring, self.unplayed,
                                        self.rounds)
            weight = Fraction(1) if code == "BH" else GAME_POINTS.get(cell.code, Fraction(0))
            values.append(_Value(opponent * weight, opponent,
                                 is_voluntary(cell.code, self.unplayed)))
        return values

    @staticmethod
    def _cut(values: list[_Value], tiebreak: Tiebreak, code: str) -> Fraction:
        """Art. 14's modifiers with Art. 16.5: each least significant value cut is a
        voluntary unplayed round's lowest contribution when that is not lower (16.5.1-2)."""
        kept = list(values)
        if len(kept) <= 2 * tiebreak.high:
            return Tiebreaks._total(kept, code)
        for _ in range(min(tiebreak.low, len(kept) - 1)):
            least = min(kept, key=lambda v: (v.basis, v.value))
            voluntary = [v for v in kept if v.voluntary]
            if voluntary and min(v.value for v in voluntary) >= least.value:
                least = min(voluntary, key=lambda v: v.value)
            kept.remove(least)
        for _ in range(tiebreak.high):
            kept.remove(max(kept, key=lambda v: v.value))
        return Tiebreaks._total(kept, code)

    @staticmethod
    def _total(kept: list[_Value], code: str) -> Fraction:
        total = sum((v.value for v in kept), Fraction(0))
        if code == "ARO":
            return Fraction(_round_half_up(total / len(kept))) if kept else Fraction(0)
        return total

    def _direct(self, player: int, tied: Collection[int]) -> Fraction:
        """Art. 6: the points scored against the other tied players, when every pair of them
        has met; otherwise 0 for all (the tie is not broken)."""
        group = set(tied) | {player}
        if len(group) < 2:
            return Fraction(0)
        for member in group:
            met = {c.opponent for c in self.cells[member]
                   if c.opponent is not None and c.code is not Code.NONE}
            if not group - {member} <= met:
                return Fraction(0)
        return sum((self.scoring.points(c.code) for c in self.cells[player]
                    if c.opponent in group and c.code is not Code.NONE), Fraction(0))

    def _tpr(self, player: int) -> Fraction:
        """Art. 10.2: ARO + dp(p), p the fraction of game points scored in the games played
        against rated opponents; 0 with no such game."""
        games = [c for c in self.cells[player] if c.opponent is not None and c.code.played
                 and self.ratings.get(c.opponent, 0) > 0]
        if not games:
            return Fraction(0)
        aro = Fraction(sum(self.ratings[c.opponent] for c in games if c.opponent), len(games))
        p = sum((GAME_POINTS.get(c.code, Fraction(0)) for c in games), Fraction(0)) / len(games)
        return Fraction(_round_half_up(aro) + dp(p))
