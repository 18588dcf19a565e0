"""Standings on the corpus tournaments (bbpPairings' generated Swiss files): every player
ranked once, points as the file says, the order the tie-breaks give, the same whatever the
order the players are read in."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from chessarbiter.tournament.standings import standings
from chessarbiter.tournament.tiebreaks import Unplayed, parse_tiebreak
from chessarbiter.tournament.trf import parse
from tests.corpus import corpus_path

FILES = sorted(p.name for p in corpus_path("pairings", "generated").glob("*.trf"))
TIEBREAKS = [parse_tiebreak(n) for n in
             ("BH-C1", "BH", "SB", "DE", "WIN", "BPG", "BWG", "PS", "ARO", "TPR", "BH-M1")]


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("unplayed", list(Unplayed))
def test_corpus_standings_stable_and_complete(name: str, unplayed: Unplayed) -> None:
    trf = parse(corpus_path("pairings", "generated", name).read_bytes().decode())
    entrants = [p.entrant for p in trf.players]
    cells = {p.entrant.start: list(p.cells) for p in trf.players}
    scoring = trf.scoring
    rows = standings(entrants, cells, scoring, TIEBREAKS, unplayed)
    assert sorted(r.entrant.start for r in rows) == sorted(cells)
    assert {r.entrant.start: r.points for r in rows} == {p.entrant.start: p.points
                                                         for p in trf.players}
    keys = [(r.points, *r.values[:3]) for r in rows]  # points, BH-C1, BH, SB: group-free
    assert keys == sorted(keys, reverse=True)
    places = [r.place for r in rows]
    assert places[0] == 1 and places == sorted(places)
    for row, before in zip(rows[1:], rows, strict=False):
        if row.place == before.place:  # a shared place: tied on points and every value
            assert (row.points, row.values) == (before.points, before.values)
    shuffled = entrants[:]
    random.Random(7).shuffle(shuffled)
    again = standings(shuffled, dict(reversed(list(cells.items()))), scoring, TIEBREAKS,
                      unplayed)
    assert again == rows
    assert all(isinstance(v, Fraction) for r in rows for v in r.values)
