"""The level ladder script (``bench/ladder.py``): its rating arithmetic (a level placed
through anchors and through a chain of levels, the margins adding up), and short ladders
against Stockfish's ``UCI_Elo`` and along a chain, read as their user reads them."""

from __future__ import annotations

import argparse
import importlib.util
import math
import re
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

from chessarbiter.notation.pgn_reader import read_pgn_text
from chessarbiter.tournament.elo import Tally, elo_difference
from tests.bench_run import run_bench

ROOT = Path(__file__).resolve().parents[2]
STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")


def load_ladder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ladder", ROOT / "bench" / "ladder.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


ladder = load_ladder()


def test_a_match_places_the_level_at_its_opponent_plus_the_difference() -> None:
    tally = Tally(wins=24, losses=12, draws=4)  # 65%
    anchor = ladder.through(ladder.Placed(1600), tally)
    assert anchor.elo == pytest.approx(1600 + elo_difference(0.65))
    assert anchor.margin == pytest.approx(tally.margin())
    level = ladder.through(ladder.Placed(1600, 50), tally)
    assert level.elo == pytest.approx(anchor.elo)
    assert level.margin == pytest.approx(math.sqrt(50**2 + tally.margin() ** 2))
    assert ladder.through(ladder.Placed(1600), Tally(losses=10)) is None


def test_matches_are_weighed_by_their_margins() -> None:
    narrow, wide = Tally(wins=60, losses=40, draws=0), Tally(wins=5, losses=15, draws=0)
    found = ladder.rating([(ladder.Placed(1350), narrow), (ladder.Placed(1600), wide),
                           (ladder.Placed(1800), Tally(losses=20))])
    a, b = 1350 + narrow.elo(), 1600 + wide.elo()
    wa, wb = 1 / narrow.margin() ** 2, 1 / wide.margin() ** 2
    assert found.elo == pytest.approx((a * wa + b * wb) / (wa + wb))
    assert found.margin == pytest.approx(1 / math.sqrt(wa + wb))
    assert narrow.margin() > found.margin
    assert abs(found.elo - a) < abs(found.elo - b)  # the narrower match counts more


def test_a_chain_of_levels_adds_up_the_differences_and_the_errors() -> None:
    top = ladder.Placed(1400, 60)
    even, lost = Tally(wins=20, losses=20, draws=10), Tally(wins=10, losses=30, draws=10)
    middle = ladder.rating([(top, even)])
    bottom = ladder.rating([(middle, lost)])
    assert middle.elo == pytest.approx(1400)
    assert bottom.elo == pytest.approx(1400 + elo_difference(0.3))
    assert bottom.margin == pytest.approx(math.sqrt(60**2 + even.margin() ** 2
                                                    + lost.margin() ** 2))
    assert bottom.margin > middle.margin > top.margin


def test_a_level_that_wins_or_loses_every_game_is_only_bounded() -> None:
    assert ladder.estimate([(ladder.Placed(1350), Tally(losses=40)),
                            (ladder.Placed(1600), Tally(losses=40))]) == "below 1350"
    assert ladder.estimate([(ladder.Placed(1350), Tally(wins=40))]) == "above 1350"
    assert ladder.estimate([(ladder.Placed(1350), Tally(wins=30, losses=10))]) == (
        f"{1350 + elo_difference(0.75):.0f} +- {Tally(wins=30, losses=10).margin():.0f}")
    assert ladder.estimate([]) == "unknown"


def test_a_level_placed_earlier_is_read_as_level_elo_and_margin() -> None:
    assert ladder.placed("7=1450+-60") == (7, ladder.Placed(1450, 60))
    assert ladder.placed("10=1807.5+-47.9") == (10, ladder.Placed(1807.5, 47.9))
    with pytest.raises(argparse.ArgumentTypeError, match="LEVEL=ELO"):
        ladder.placed("7=1450")


@pytest.mark.long
@pytest.mark.skipif(STOCKFISH is None, reason="stockfish is not installed")
def test_a_short_ladder_prints_each_match_and_each_level(tmp_path: Path) -> None:
    out = run_bench("ladder.py", "--levels", "1,10", "--anchors", "1350", "--games", "2",
                    "--tc", "5s+0.05s", "--concurrency", "2", "--floor", "0", "--pgn",
                    str(tmp_path / "ladder.pgn"), timeout=900)
    print(out)
    matches = re.findall(r"^level (\d+) v UCI_Elo 1350: \+(\d+) -(\d+) =(\d+), score .*, "
                         r"Elo .* \+- .*, (\d+) lost on time$", out, re.MULTILINE)
    assert [m[0] for m in matches] == ["10", "1"]  # the strongest first
    assert all(sum(int(n) for n in m[1:4]) == 2 for m in matches)
    assert re.findall(r"^level (\d+): about .+ on Stockfish's UCI_Elo scale$", out,
                      re.MULTILINE) == ["10", "1"]
    entries = out.partition("LADDER_ELO entries for src/chessarbiter/engines/levels.py")[2]
    assert re.findall(r"^    (\d+): (?:\d+|None),(?:  # measured .*)?$", entries,
                      re.MULTILINE) == ["1", "10"]
    games = read_pgn_text((tmp_path / "ladder.pgn").read_text())
    assert len(games) == 4 and all(g.result != "*" and not g.error for g in games)


@pytest.mark.skipif(STOCKFISH is None, reason="stockfish is not installed")
def test_a_chain_places_a_level_through_the_level_above(tmp_path: Path) -> None:
    out = run_bench("ladder.py", "--levels", "1", "--anchors", "", "--chain", "--chain-games",
                    "2", "--placed", "2=900+-50", "--tc", "5s+0.05s", "--pgn",
                    str(tmp_path / "chain.pgn"), timeout=300)
    print(out)
    match = re.search(r"^level 1 v level 2: \+(\d+) -(\d+) =(\d+), score .*, Elo (\S+) \+- "
                      r"(\S+), (\d+) lost on time(.*)$", out, re.MULTILINE)
    assert match is not None
    assert sum(int(n) for n in match.groups()[:3]) == 2
    level = re.search(r"^level 1: about (.+) on Stockfish's UCI_Elo scale$", out,
                      re.MULTILINE)
    assert level is not None
    if match[4] in ("+inf", "-inf"):
        assert match[7] == "" and level[1] == ("above 900" if match[4] == "+inf"
                                               else "below 900")
    else:
        elo, margin = float(match[4]), float(match[5])
        placed = re.fullmatch(r" \(level 2 at 900 \+- 50: (\d+) \+- (\d+)\)", match[7])
        assert placed is not None  # from the unrounded figures: within 1 of the printed ones
        assert abs(int(placed[1]) - (900 + elo)) <= 1
        assert abs(int(placed[2]) - math.hypot(50, margin)) <= 1
    games = read_pgn_text((tmp_path / "chain.pgn").read_text())
    assert len(games) == 2 and all(g.result != "*" for g in games)
    assert {g.tags["Event"] for g in games} == {"ladder: level 1 v level 2"}


def test_the_table_is_fitted_to_rise_with_the_level() -> None:
    """Pool adjacent violators, weighed by 1 / margin^2: levels measured out of order share
    their weighted mean; levels in order keep their own figure."""
    placed = ladder.Placed
    measured = {6: placed(1477, 121), 7: placed(1841, 153), 8: placed(1730, 115),
                9: placed(1869, 156), 10: placed(1801, 46)}
    fitted = ladder.monotone(measured)
    w7, w8, w9, w10 = (1 / measured[k].margin ** 2 for k in (7, 8, 9, 10))
    assert fitted[6] == 1477
    assert fitted[7] == fitted[8] == pytest.approx((1841 * w7 + 1730 * w8) / (w7 + w8))
    assert fitted[9] == fitted[10] == pytest.approx((1869 * w9 + 1801 * w10) / (w9 + w10))
    values = [fitted[k] for k in sorted(fitted)]
    assert values == sorted(values)
    assert ladder.monotone({1: placed(100, 50), 2: placed(300, 50)}) == {1: 100, 2: 300}
    chain = ladder.monotone({1: placed(500, 10), 2: placed(400, 10), 3: placed(300, 10)})
    assert chain == {1: pytest.approx(400), 2: pytest.approx(400), 3: pytest.approx(400)}


def test_fit_only_prints_the_entries_of_the_placed_levels() -> None:
    out = run_bench("ladder.py", "--fit-only", "--placed", "1=100+-50", "--placed",
                    "2=300+-40", "--placed", "3=250+-40", timeout=60)
    lines = [line.split("#")[0].strip() for line in out.splitlines()[1:]]
    assert lines == ["1: 100,", "2: 275,", "3: 275,"]
