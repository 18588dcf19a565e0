"""Tie-break oracles for the tests (never used by the package): the tournaments to compare
(the corpus's Swiss files and Swisses generated with the project's own Dutch pairing, with
forfeits, byes, absences and withdrawals) and the two independent implementations fed from
the same cells: PyPI ``tiebreak-core`` 1.2.0 (ruleset ``fide-2024``) and npm ``tiebreak``
0.4.0 (driven through ``node``)."""

from __future__ import annotations

import functools
import json
import random
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chessarbiter.clock import Side
from chessarbiter.tournament.records import Cell, Code, Entrant, Scoring
from chessarbiter.tournament.standings import standings
from chessarbiter.tournament.swiss import PairingError, pair_round
from chessarbiter.tournament.tiebreaks import Tiebreaks, Unplayed, parse_tiebreak
from chessarbiter.tournament.trf import parse
from tests.corpus import corpus_path

Cells = dict[int, list[Cell]]
GAME_POINTS = {Code.WIN: 1.0, Code.DRAW: 0.5, Code.FORFEIT_WIN: 1.0, Code.PAIRING_BYE: 1.0,
               Code.FULL_BYE: 1.0, Code.HALF_BYE: 0.5}


@dataclass(frozen=True)
class Event:
    """A tournament to compare: its players (ratings), cells and name."""

    name: str
    entrants: tuple[Entrant, ...]
    cells: Cells


def corpus_events() -> list[Event]:
    """The corpus's complete Swiss files, and its cut-off files up to their last round with
    every player's cell (the next round's pre-set byes left out). Scored 1/½/0: both
    oracles know only game points (the 3/1/0 file is compared on the same cells)."""
    folder = corpus_path("pairings")
    files = sorted((folder / "generated").glob("*.trf"))
    files += sorted((folder / "next_round").glob("*_after_r*.trf"))
    events = []
    for path in files:
        trf = parse(path.read_bytes().decode())
        rounds = min(len(p.cells) for p in trf.players)
        events.append(Event(path.stem, tuple(p.entrant for p in trf.players),
                            {p.entrant.start: list(p.cells[:rounds]) for p in trf.players}))
    return events


@functools.cache
def generated_event(seed: int) -> Event:
    """A Swiss of 8-40 players and up to 5-9 rounds (fewer when the rest cannot be paired)
    paired round by round by ``pair_round``: requested half- and zero-point byes, late
    entries (zero-point rounds first), withdrawals (absent to the end), forfeits either way
    and double forfeits."""
    rng = random.Random(seed)
    n, rounds = rng.randint(8, 40), rng.randint(5, 9)
    entrants = tuple(Entrant(p, f"P{p}", 2400 - 15 * p + rng.randint(-40, 40))
                     for p in range(1, n + 1))
    late = {p: rng.randint(2, 3) for p in rng.sample(range(1, n + 1), rng.randint(0, 2))}
    gone = {p: rng.randint(2, rounds) for p in rng.sample(range(1, n + 1), rng.randint(0, 3))}
    cells: Cells = {p: [] for p in range(1, n + 1)}
    for round_no in range(1, rounds + 1):
        absent = {p for p, r in late.items() if round_no < r}
        absent |= {p for p, r in gone.items() if round_no >= r}
        requested = {p: rng.choice((Code.HALF_BYE, Code.HALF_BYE, Code.ZERO_BYE))
                     for p in range(1, n + 1) if p not in absent and rng.random() < 0.06}
        try:
            pairing = pair_round(entrants, cells, round_no, total_rounds=rounds,
                                 absent=absent, requested=requested)
        except PairingError:  # too few players left to pair: the event ends there
            break
        for white, black in pairing.boards:
            ours, theirs = rng.choices(
                [(Code.WIN, Code.LOSS), (Code.DRAW, Code.DRAW), (Code.LOSS, Code.WIN),
                 (Code.FORFEIT_WIN, Code.FORFEIT_LOSS), (Code.FORFEIT_LOSS, Code.FORFEIT_WIN),
                 (Code.FORFEIT_LOSS, Code.FORFEIT_LOSS)],
                weights=[36, 25, 29, 4, 4, 2])[0]
            cells[white].append(Cell(black, Side.WHITE, ours))
            cells[black].append(Cell(white, Side.BLACK, theirs))
        if pairing.bye is not None:
            cells[pairing.bye].append(Cell(None, None, Code.PAIRING_BYE))
        for p in absent:
            cells[p].append(Cell(None, None, Code.ZERO_BYE))
        for p, code in requested.items():
            cells[p].append(Cell(None, None, code))
    return Event(f"generated-{seed}", entrants, cells)


def ours(event: Event, names: Sequence[str], unplayed: Unplayed) -> dict[int, list[float]]:
    """chessarbiter's values, by start number, scored 1/½/0."""
    table = Tiebreaks(event.cells, Scoring(), {e.start: e.rating for e in event.entrants},
                      unplayed)
    return {p: [float(table.value(parse_tiebreak(n), p)) for n in names] for p in event.cells}


def places(points: Mapping[int, float], values: Mapping[int, Sequence[float]]) -> dict[int, int]:
    """Each player's place by points then the values in order (ties share a place)."""
    key = {p: (round(points[p], 6), *(round(v, 6) for v in values[p])) for p in points}
    return {p: 1 + sum(k > key[p] for k in key.values()) for p in key}


def ranked(event: Event, names: Sequence[str], unplayed: Unplayed) -> dict[int, int]:
    """The places chessarbiter's standings give."""
    rows = standings(event.entrants, event.cells, Scoring(),
                     [parse_tiebreak(n) for n in names], unplayed)
    return {r.entrant.start: r.place for r in rows}


def points(event: Event) -> dict[int, float]:
    return {p: sum(GAME_POINTS.get(c.code, 0.0) for c in cs) for p, cs in event.cells.items()}


CORE_IDS = {"BH": "buchholz", "BH-C1": "buchholz_cut1", "BH-C2": "buchholz_cut2",
            "BH-M1": "median_buchholz", "BH-M2": "median_buchholz_2", "SB": "sonneborn_berger",
            "SB-C1": "sonneborn_berger_cut1", "PS": "progressive", "PS-C1": "progressive_cut1",
            "WIN": "wins", "WON": "won", "BPG": "games_black", "BWG": "wins_black",
            "ARO": "aro", "ARO-C1": "aro_cut1", "TPR": "tpr"}
"""chessarbiter's names of the tie-breaks ``tiebreak-core`` computes, and its ids."""


def core_values(fide2024: Any, models: Any, event: Event,
                names: Sequence[str]) -> dict[int, list[float]]:
    """``tiebreak-core``'s ``fide-2024`` values: byes as its kinds (``Z`` and ``H`` are
    requested byes, ``F`` a full-point one, ``U`` the pairing-allocated bye)."""
    ratings = {e.start: e.rating for e in event.entrants}
    kinds = {Code.FORFEIT_WIN: models.FORFEIT_WIN, Code.FORFEIT_LOSS: models.FORFEIT_LOSS,
             Code.PAIRING_BYE: models.PAIRING_BYE, Code.FULL_BYE: models.REQUESTED_BYE,
             Code.HALF_BYE: models.REQUESTED_BYE, Code.ZERO_BYE: models.REQUESTED_BYE}
    players = {}
    for p, cells in event.cells.items():
        games = []
        for round_no, cell in enumerate(cells, 1):
            if cell.code is Code.NONE:
                continue
            kind = models.PLAYED if cell.code.played else kinds[cell.code]
            opponent = cell.opponent if cell.opponent is not None else -1
            colour = {Side.WHITE: "white", Side.BLACK: "black", None: ""}[cell.side]
            games.append(models.GameRecord(opponent, ratings.get(opponent, 0),
                                           GAME_POINTS.get(cell.code, 0.0), colour, round_no,
                                           kind=kind))
        players[p] = models.PlayerTiebreakData(p, ratings[p], sum(g.score for g in games),
                                               games)
    rounds = max(len(cs) for cs in event.cells.values())
    result = fide2024.rank_standings(players, [CORE_IDS[n] for n in names], rounds)
    return {r.player_id: [r.values[CORE_IDS[n]] for n in names] for r in result.players}


NPM_DRIVER = """
import { Results, Tiebreaker, TournamentType } from "tiebreak"
let text = ""
process.stdin.on("data", (chunk) => { text += chunk })
process.stdin.on("end", () => {
  const job = JSON.parse(text)
  const tiebreaker = new Tiebreaker(new Results(TournamentType.SWISS, job.rounds), job.rules)
  const out = {}
  const round = job.rounds.length
  // The published 0.4.0 build leaves SB out of tiebreak(): its source's sum, from the same
  // adjusted games.
  const sb = (p) => tiebreaker.adjustedGames(p, round)
    .reduce((sum, g) => sum + g.opponentScore * g.gameScore, 0)
  for (const p of job.players) {
    out[p] = job.tiebreaks.map((t) => t === "SB" ? sb(p) : tiebreaker.tiebreak(t, p, round))
  }
  process.stdout.write(JSON.stringify(out))
})
"""
"""Reads one tournament as JSON on stdin, writes each player's values."""


def npm_rounds(event: Event) -> list[dict[str, Any]]:
    """The cells as npm ``tiebreak``'s rounds: games (forfeits flagged), ``U``/``F`` as
    allocated byes, ``H`` as half-point byes, ``Z`` left unpaired."""
    rounds = max(len(cs) for cs in event.cells.values())
    out = []
    for r in range(rounds):
        pairings, allocated, half = [], [], []
        for p, cells in sorted(event.cells.items()):
            cell = cells[r]
            if cell.side is Side.WHITE:
                assert cell.opponent is not None
                other = event.cells[cell.opponent][r]
                pairings.append({"white": p, "black": cell.opponent,
                                 "scoreWhite": GAME_POINTS.get(cell.code, 0.0),
                                 "scoreBlack": GAME_POINTS.get(other.code, 0.0),
                                 "forfeited": not cell.code.played})
            elif cell.code in (Code.PAIRING_BYE, Code.FULL_BYE):
                allocated.append(p)
            elif cell.code is Code.HALF_BYE:
                half.append(p)
        out.append({"pairings": pairings, "pairingAllocatedByes": allocated,
                    "halfPointByes": half})
    return out


def npm_values(folder: Path, event: Event, names: Sequence[str],
               rules: str) -> dict[int, list[float]]:
    """npm ``tiebreak``'s values under ``rules`` (``FIDE_2023`` or ``FIDE_2009``)."""
    job = {"rounds": npm_rounds(event), "players": sorted(event.cells), "rules": rules,
           "tiebreaks": list(names)}
    done = subprocess.run(["node", str(folder / "driver.mjs")], input=json.dumps(job),
                          capture_output=True, text=True, timeout=120, check=True)
    return {int(p): v for p, v in json.loads(done.stdout).items()}


def differences(mine: Mapping[int, Sequence[float]], theirs: Mapping[int, Sequence[float]],
                names: Sequence[str]) -> dict[str, list[int]]:
    """The players whose value differs, by tie-break."""
    return {n: [p for p in sorted(mine) if abs(mine[p][i] - theirs[p][i]) > 1e-9]
            for i, n in enumerate(names)}

