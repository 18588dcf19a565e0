"""The log and the director end to end on corpus tournaments (bbpPairings' Swiss files):
the players registered, each round paired by ``pair_next`` from the log, compared with the
file's round (pairs, colours, the bye), then the file's results entered as events, byes and
absences as requests."""

from __future__ import annotations

from pathlib import Path

import pytest

from chessarbiter.clock import Side
from chessarbiter.store.tournaments import TournamentStore
from chessarbiter.tournament.director import pair_next, ranking
from chessarbiter.tournament.events import (
    RESULTS,
    ByeRequested,
    Paired,
    Registered,
    ResultEntered,
    Settings,
    System,
)
from chessarbiter.tournament.log import Tournament
from chessarbiter.tournament.records import Code
from chessarbiter.tournament.trf import parse
from tests.corpus import corpus_path

FILES = ["dutch_p15_r5_s101.trf", "dutch_p24_r7_s77_310scoring.trf",
         "dutch_p30_r7_s12345.trf", "dutch_p30_r7_s12345_A.trf",
         *(pytest.param(f, marks=pytest.mark.long)  # 15 s to minutes each
           for f in ("dutch_p51_r9_s202.trf", "dutch_p100_r9_s303.trf",
                     "dutch_p201_r11_s404.trf", "dutch_p400_r9_s9.trf"))]
CODES = {codes[0]: text for text, codes in RESULTS.items() if text != "--"}


@pytest.mark.parametrize("name", FILES)
def test_corpus_tournament_replayed_through_the_log(tmp_path: Path, name: str) -> None:
    trf = parse(corpus_path("pairings", "generated", name).read_bytes().decode())
    rounds = max(len(p.cells) for p in trf.players)
    first = min(trf.players, key=lambda p: p.entrant.start).cells[0].side  # no XXC record:
    settings = Settings(name, System.SWISS, trf.total_rounds or rounds, trf.scoring,
                        ("BH-C1", "BH", "SB"), trf.initial_side or first or Side.WHITE)
    t = Tournament.create(TournamentStore(tmp_path / "t.sqlite"), settings)
    for record in sorted(trf.players, key=lambda p: p.entrant.start):
        e = record.entrant
        t.apply(Registered(e.name, e.rating, e.title, e.federation, e.fide_id))
    assert [e.start for e in t.state.entrants()] == sorted(p.entrant.start for p in trf.players)
    cells = {p.entrant.start: p.cells for p in trf.players}
    for round_no in range(1, rounds + 1):
        here = {s: cs[round_no - 1] for s, cs in cells.items() if len(cs) >= round_no}
        for start, cell in here.items():
            if cell.code in (Code.HALF_BYE, Code.ZERO_BYE, Code.FULL_BYE):
                t.apply(ByeRequested(start, round_no, cell.code))
        events = pair_next(t.state)
        assert len(events) == 1 and isinstance(events[0], Paired)
        paired = events[0]
        expected = {(s, c.opponent) for s, c in here.items() if c.side is Side.WHITE}
        bye = next((s for s, c in here.items() if c.code is Code.PAIRING_BYE), None)
        assert (set(paired.boards), paired.bye) == (expected, bye), f"round {round_no}"
        t.apply(paired)
        for white, _black in paired.boards:
            code = here[white].code
            result = "--" if code is Code.FORFEIT_LOSS and here[_black].code is code \
                else CODES[code]
            t.apply(ResultEntered(round_no, white, result))
    rows = ranking(t.state)
    assert {r.entrant.start: r.points for r in rows} == {p.entrant.start: p.points
                                                         for p in trf.players}
