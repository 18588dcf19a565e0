"""Standings: the players ranked by points, then by the tournament's tie-breaks in order
(C.07 Art. 4.2: each tie-break splits only the ties the previous ones left); players still
tied share the place, listed by start number."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from chessarbiter.tournament.records import Cell, Entrant, Scoring
from chessarbiter.tournament.tiebreaks import Tiebreak, Tiebreaks, Unplayed


@dataclass(frozen=True)
class Standing:
    """One line of the standings: the place (shared by players still tied), the player,
    the points and the value of each tie-break."""

    place: int
    entrant: Entrant
    points: Fraction
    values: tuple[Fraction, ...]


def standings(entrants: Sequence[Entrant], cells: Mapping[int, Sequence[Cell]],
              scoring: Scoring, tiebreaks: Sequence[Tiebreak],
              unplayed: Unplayed = Unplayed.FIDE_2024) -> list[Standing]:
    """Every entrant ranked (cells by start number, over the rounds to count)."""
    table = Tiebreaks(cells, scoring, {e.start: e.rating for e in entrants}, unplayed)
    values: dict[int, list[Fraction]] = {e.start: [] for e in entrants}
    groups: list[list[int]] = []
    by_points: dict[Fraction, list[int]] = {}
    for entrant in entrants:
        by_points.setdefault(table.score(entrant.start), []).append(entrant.start)
    groups = [by_points[points] for points in sorted(by_points, reverse=True)]
    for tiebreak in tiebreaks:
        split: list[list[int]] = []
        for group in groups:
            found = {p: table.value(tiebreak, p, group) for p in group}
            for p in group:
                values[p].append(found[p])
            for value in sorted(set(found.values()), reverse=True):
                split.append([p for p in group if found[p] == value])
        groups = split
    by_start = {e.start: e for e in entrants}
    rows, place = [], 1
    for group in groups:
        for start in sorted(group):
            rows.append(Standing(place, by_start[start], table.score(start),
                                 tuple(values[start])))
        place += len(group)
    return rows
