"""chessarbiter's tie-breaks against two independent implementations on every corpus Swiss
and on Swisses generated with the project's own pairing (forfeits, byes, absences,
withdrawals): PyPI ``tiebreak-core`` 1.2.0 (ruleset ``fide-2024``, the test extra) for the
2024 rules, every tie-break it computes; npm ``tiebreak`` 0.4.0 (installed in a temporary
folder, run by ``node``) for the 2023 reading (``FIDE_2023``) and the virtual opponent
(``FIDE_2009``), Buchholz and its modifiers and SB. 0 differences with ``tiebreak-core``;
with npm only the two explained below, pinned by hand in the last tests:

- a median's most significant value (Art. 14.3-14.4) is the highest value left after the
  least significant ones were cut, a dummy opponent's included; npm cuts the highest played
  value instead (it keeps a voluntary round's dummy whenever one is left after the low cuts);
- a median needs more values than it cuts (four rounds under Median-2): chessarbiter and
  ``tiebreak-core`` keep every value, npm sums the empty rest (0).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from chessarbiter.clock import Side
from chessarbiter.tournament.records import Cell, Code, Entrant
from chessarbiter.tournament.tiebreaks import Unplayed
from chessarbiter.tournament.unplayed import VOLUNTARY
from tests.tournament.tiebreak_oracles import (
    CORE_IDS,
    NPM_DRIVER,
    Event,
    core_values,
    corpus_events,
    differences,
    generated_event,
    npm_values,
    ours,
    places,
    points,
    ranked,
)

CORE_NAMES = list(CORE_IDS)
NPM_NAMES = ["BH", "BH-C1", "BH-C2", "BH-M1", "BH-M2", "SB"]
ORDER = ["BH-C1", "BH", "SB"]
BIG = ("dutch_p1000_r5_s7", "dutch_p400_r9_s9", "p1000_after_r4", "p400_after_r8",
       "dutch_p201_r11_s404", "p201_after_r6")
EVENTS = {e.name: e for e in corpus_events()}
CORPUS = [pytest.param(n, marks=pytest.mark.long) if n in BIG else n for n in EVENTS]
W, B = Side.WHITE, Side.BLACK


@pytest.fixture(scope="session")
def core() -> tuple[Any, Any]:
    fide2024 = pytest.importorskip(
        "tiebreak_core.fide2024",
        reason="the tiebreak-core oracle (tiebreak-core==1.2.0, the test extra) is missing")
    assert importlib.metadata.version("tiebreak-core") == "1.2.0"
    return fide2024, importlib.import_module("tiebreak_core.models")


@pytest.fixture(scope="session")
def npm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """npm ``tiebreak`` 0.4.0 installed in a temporary folder with the driver script."""
    if not (shutil.which("npm") and shutil.which("node")):
        pytest.skip("the npm tiebreak oracle needs node and npm, not installed here")
    folder = tmp_path_factory.mktemp("npm-tiebreak")
    (folder / "package.json").write_text('{"private": true, "type": "module"}\n')
    try:
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "tiebreak@0.4.0"],
                       cwd=folder, capture_output=True, timeout=300, check=True)
    except (OSError, subprocess.SubprocessError) as error:
        pytest.skip(f"npm could not install tiebreak@0.4.0 for the oracle: {error}")
    (folder / "driver.mjs").write_text(NPM_DRIVER)
    return folder


def check_core(core: tuple[Any, Any], event: Event) -> None:
    mine = ours(event, CORE_NAMES, Unplayed.FIDE_2024)
    theirs = core_values(*core, event, CORE_NAMES)
    assert {n: ps for n, ps in differences(mine, theirs, CORE_NAMES).items() if ps} == {}
    by_value = places(points(event), {p: [mine[p][CORE_NAMES.index(n)] for n in ORDER]
                                      for p in mine})
    assert ranked(event, ORDER, Unplayed.FIDE_2024) == by_value
    assert places(points(event), {p: [theirs[p][CORE_NAMES.index(n)] for n in ORDER]
                                  for p in theirs}) == by_value


def unexplained(event: Event, found: dict[str, list[int]]) -> dict[str, list[int]]:
    """The differences with npm the module docstring does not explain: none in BH, its
    cuts and SB; in a Median-k only for players with more than k voluntary unplayed rounds
    (a dummy can be left on top) or fewer than 2k + 1 values."""
    left = {}
    for name, players in found.items():
        k = int(name[-1]) if name.startswith("BH-M") else 0
        rest = [p for p in players if not k or not (
            sum(c.code in VOLUNTARY for c in event.cells[p]) > k
            or sum(c.code is not Code.NONE for c in event.cells[p]) < 2 * k + 1)]
        if rest:
            left[name] = rest
    return left


def check_npm(npm: Path, event: Event) -> None:
    for unplayed, rules in ((Unplayed.FIDE_2023, "FIDE_2023"), (Unplayed.VIRTUAL, "FIDE_2009")):
        found = differences(ours(event, NPM_NAMES, unplayed),
                            npm_values(npm, event, NPM_NAMES, rules), NPM_NAMES)
        assert unexplained(event, found) == {}, rules


@pytest.mark.parametrize("name", CORPUS)
def test_corpus_matches_tiebreak_core(core: tuple[Any, Any], name: str) -> None:
    check_core(core, EVENTS[name])


@pytest.mark.parametrize("name", CORPUS)
def test_corpus_matches_npm_tiebreak(npm: Path, name: str) -> None:
    check_npm(npm, EVENTS[name])


SEEDS = [*range(8), *(pytest.param(s, marks=pytest.mark.long) for s in range(8, 108))]


@pytest.mark.parametrize("seed", SEEDS)
def test_generated_swiss_matches_both(core: tuple[Any, Any], npm: Path, seed: int) -> None:
    event = generated_event(seed)
    check_core(core, event)
    check_npm(npm, event)


def test_generated_set_has_every_unplayed_round() -> None:
    """The default run's eight generated Swisses hold forfeits either way, double
    forfeits, requested H and Z byes, absences to the end and pairing-allocated byes."""
    codes, double, withdrawn = set(), False, False
    for seed in range(8):
        event = generated_event(seed)
        for cells in event.cells.values():
            codes |= {c.code for c in cells}
            double |= any(c.code is Code.FORFEIT_LOSS and c.opponent is not None
                          and event.cells[c.opponent][r].code is Code.FORFEIT_LOSS
                          for r, c in enumerate(cells))
            withdrawn |= cells[-1].code is Code.ZERO_BYE and cells[-2].code is Code.ZERO_BYE
    assert {Code.FORFEIT_WIN, Code.FORFEIT_LOSS, Code.HALF_BYE, Code.ZERO_BYE,
            Code.PAIRING_BYE} <= codes
    assert double and withdrawn


def pinned() -> Event:
    """Six players, five rounds:

    - round 1: 1-6 1-0, 2-5 1-0, 3-4 ½-½;
    - round 2: 3-1 +- (1 does not come), 6-4 1-0, 5 the pairing-allocated bye, 2 a
      requested H bye;
    - round 3: 4-1 +-, 5-3 0-1, 6 the PAB, 2 an H bye;
    - round 4: 5-1 +-, 3-6 ½-½, 4 the PAB, 2 absent (Z);
    - round 5: 2-1 +-, 4-3 1-0, 6-5 1-0.

    Scores: 1: 1, 2: 3, 3: 3, 4: 3½, 5: 2, 6: 3½.
    """
    def game(opponent: int, side: Side, code: Code) -> Cell:
        return Cell(opponent, side, code)
    half, zero, pab = (Cell(None, None, c) for c in (Code.HALF_BYE, Code.ZERO_BYE,
                                                      Code.PAIRING_BYE))
    cells = {
        1: [game(6, W, Code.WIN), game(3, B, Code.FORFEIT_LOSS), game(4, B, Code.FORFEIT_LOSS),
            game(5, B, Code.FORFEIT_LOSS), game(2, B, Code.FORFEIT_LOSS)],
        2: [game(5, W, Code.WIN), half, half, zero, game(1, W, Code.FORFEIT_WIN)],
        3: [game(4, W, Code.DRAW), game(1, W, Code.FORFEIT_WIN), game(5, B, Code.WIN),
            game(6, W, Code.DRAW), game(4, B, Code.LOSS)],
        4: [game(3, B, Code.DRAW), game(6, B, Code.LOSS), game(1, W, Code.FORFEIT_WIN), pab,
            game(3, W, Code.WIN)],
        5: [game(2, B, Code.LOSS), pab, game(3, W, Code.LOSS), game(1, W, Code.FORFEIT_WIN),
            game(6, B, Code.LOSS)],
        6: [game(1, B, Code.LOSS), game(4, W, Code.WIN), pab, game(3, B, Code.DRAW),
            game(5, W, Code.WIN)],
    }
    return Event("pinned", tuple(Entrant(p, f"P{p}", 2000 - 10 * p) for p in cells), cells)


def test_pinned_event_is_consistent() -> None:
    event = pinned()
    assert points(event) == {1: 1, 2: 3, 3: 3, 4: 3.5, 5: 2, 6: 3.5}
    for p, cells in event.cells.items():
        for r, cell in enumerate(cells):
            if cell.opponent is not None:
                assert event.cells[cell.opponent][r].opponent == p


def test_trailing_forfeit_losses_2024_and_2023(core: tuple[Any, Any], npm: Path) -> None:
    """1 won round 1 and lost rounds 2-5 by forfeit. Art. 16.3 as applied from 2024:
    forfeit losses are category 16.2.4 and count their points, so 1's adjusted score is 1;
    only requested byes after the last round taken part in (16.2.5) become draws. The 2023
    reading counts every voluntary unplayed round after the last one available to play as a
    draw, the four forfeit losses included: 3. 6's BH: 1 (1 or 3) + 4 (3½) + the PAB's dummy
    (own 3½, 16.4) + 3 (3) + 5 (2) = 13 under 2024, 15 under 2023; tiebreak-core gives the
    first, npm's ``FIDE_2023`` the second."""
    event = pinned()
    assert ours(event, ["BH"], Unplayed.FIDE_2024)[6] == [13]
    assert ours(event, ["BH"], Unplayed.FIDE_2023)[6] == [15]
    assert core_values(*core, event, ["BH"])[6] == [13]
    assert npm_values(npm, event, ["BH"], "FIDE_2023")[6] == [15]


def test_median_cuts_the_highest_value_a_dummy_included(core: tuple[Any, Any],
                                                        npm: Path) -> None:
    """2 (3 points) has BH values 5's 2, three voluntary rounds' dummies (H, H, Z: own 3
    each, 16.4) and the forfeit win's dummy (3). Median-2 (Art. 14.4 with 16.5.1-16.5.2):
    the two least significant values cut are two voluntary rounds' 3s; the two most
    significant of {2, 3, 3} are the 3s: 2 is left. tiebreak-core agrees; npm keeps a
    voluntary round's dummy and cuts the two played-or-won values instead: 3."""
    event = pinned()
    assert ours(event, ["BH", "BH-M2"], Unplayed.FIDE_2024)[2] == [14, 2]
    assert core_values(*core, event, ["BH", "BH-M2"])[2] == [14, 2]
    assert npm_values(npm, event, ["BH", "BH-M2"], "FIDE_2023")[2] == [14, 3]


def test_median_needs_more_values_than_it_cuts(core: tuple[Any, Any], npm: Path) -> None:
    """Four rounds under Median-2 would cut every value: chessarbiter and tiebreak-core keep
    them all (Buchholz whole), npm gives 0."""
    event = pinned()
    four = Event("four", event.entrants, {p: cs[:4] for p, cs in event.cells.items()})
    mine = ours(four, ["BH", "BH-M2"], Unplayed.FIDE_2024)
    assert all(values[0] == values[1] > 0 for p, values in mine.items() if p != 1)
    assert core_values(*core, four, ["BH", "BH-M2"]) == mine
    assert all(v[1] == 0 for v in npm_values(npm, four, ["BH-M2"] * 2, "FIDE_2023").values())
