"""What pairing needs to know of each player before a round: score, colour history of the
games played (forfeits and byes carry no colour, C.04.2), opponents met over the board,
floats of the last two rounds (C.04.3 1.4) and eligibility for the pairing-allocated bye."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import cached_property

from chessarbiter.clock import Side
from chessarbiter.tournament.records import Cell, Code, Scoring


class Float(Enum):
    """A player's float in one round (C.04.3 1.4)."""

    NONE = 0
    DOWN = 1
    UP = 2


class Strength(Enum):
    """How strongly a player wants a colour (C.04.3 1.7 / A.6)."""

    NONE = 0
    MILD = 1
    STRONG = 2
    ABSOLUTE = 3


@dataclass(frozen=True)
class PlayerState:
    """One player, as pairing sees them before the round."""

    start: int
    score: Fraction
    """The pairing score: points plus any acceleration (virtual) points."""
    points: Fraction
    """Real points, for topscorers (C.04.3 1.8 / A.7)."""
    colours: tuple[Side, ...]
    """Colours of the games played over the board, oldest first."""
    opponents: frozenset[int]
    """Opponents met over the board (C.04.1: forfeited games do not count)."""
    floats: tuple[Float, Float]
    """The float of the last round and of the round before it."""
    bye_eligible: bool
    unplayed: int
    """Rounds without a game over the board (C.04.3 2026 C9)."""

    @cached_property
    def difference(self) -> int:
        """Colour difference: whites minus blacks."""
        return sum(1 if c is Side.WHITE else -1 for c in self.colours)

    @cached_property
    def preference(self) -> tuple[Side | None, Strength]:
        """The colour wanted and how strongly (A.6 a-d)."""
        if not self.colours:
            return None, Strength.NONE
        cd = self.difference
        last = self.colours[-1]
        if cd > 1 or cd < -1:
            return (Side.BLACK if cd > 1 else Side.WHITE), Strength.ABSOLUTE
        if len(self.colours) >= 2 and self.colours[-2] is last:
            return last.opponent, Strength.ABSOLUTE
        if cd:
            return (Side.BLACK if cd > 0 else Side.WHITE), Strength.STRONG
        return last.opponent, Strength.MILD


def build_states(cells: Mapping[int, Sequence[Cell]], round_no: int, scoring: Scoring,
                 virtual: Mapping[int, Sequence[Fraction]], *, rules: str = "2025"
                 ) -> dict[int, PlayerState]:
    """Each player's state before round ``round_no`` (1-based) from their cells of the
    earlier rounds; ``virtual`` holds acceleration points per player and round."""
    before = round_no - 1
    scores = {p: _running(cs, before, scoring, virtual.get(p, ())) for p, cs in cells.items()}
    states = {}
    for player, player_cells in cells.items():
        history = [player_cells[r] if r < len(player_cells) else Cell(None, None, Code.NONE)
                   for r in range(before)]
        colours = tuple(c.side for c in history if c.code.played and c.side is not None)
        opponents = frozenset(c.opponent for c in history if c.code.played and c.opponent)
        floats = tuple(_float(player, history, r, scores, scoring, rules)
                       for r in (before - 1, before - 2))
        eligible = not any(c.code is Code.PAIRING_BYE or (
            not c.code.played and scoring.points(c.code) >= scoring.win) for c in history)
        states[player] = PlayerState(
            start=player, score=scores[player][before], points=scores[player][before]
            - _virtual(virtual.get(player, ()), before), colours=colours,
            opponents=opponents, floats=(floats[0], floats[1]), bye_eligible=eligible,
            unplayed=sum(1 for c in history if not c.code.played))
    return states


def _virtual(points: Sequence[Fraction], round_index: int) -> Fraction:
    return points[round_index] if round_index < len(points) else Fraction(0)


def _running(cells: Sequence[Cell], upto: int, scoring: Scoring,
             virtual: Sequence[Fraction]) -> list[Fraction]:
    """Pairing scores before each round 1..upto+1 (index r: before round r+1); zero
    points are not added (Fraction sums are dear, and most virtual points are zero)."""
    out = []
    total = Fraction(0)
    for r in range(upto + 1):
        extra = _virtual(virtual, r)
        out.append(total + extra if extra else total)
        if r < len(cells):
            points = scoring.points(cells[r].code)
            if points:
                total += points
    return out


def _float(player: int, history: Sequence[Cell], r: int,
           scores: Mapping[int, list[Fraction]], scoring: Scoring, rules: str) -> Float:
    """The float of round index ``r`` (C.04.3 1.4.2-1.4.3; 2017 A.4.b: any round not
    played is a downfloat)."""
    if r < 0:
        return Float.NONE
    cell = history[r]
    if cell.code.played and cell.opponent:
        mine, theirs = scores[player][r], scores[cell.opponent][r]
        if mine > theirs:
            return Float.DOWN
        return Float.UP if mine < theirs else Float.NONE
    if (rules == "2017" or cell.code is Code.PAIRING_BYE
            or scoring.points(cell.code) > scoring.loss):
        return Float.DOWN
    return Float.NONE
