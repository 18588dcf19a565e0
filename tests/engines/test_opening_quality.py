"""The opening-quality script (``bench/opening_quality.py``): its figures (mean, median,
the share of bad games and their intervals), the score of a finished game, and a short run
against Stockfish read as its user reads it."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import cast

import pytest

from chessarbiter.core.position import Position
from chessarbiter.engines.uci_client import UciEngine
from tests.bench_run import run_bench

ROOT = Path(__file__).resolve().parents[2]
STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


quality = load("opening_quality")


def test_the_figures_of_a_run() -> None:
    found = quality.summarise([-300, -100, -20, 0, 10, 40, 50, 60, 100, 200])
    assert found.mean == 4.0
    assert found.median == 25.0
    assert found.median_range == (-100, 200)  # the 2nd and 10th of 10, ranked
    assert found.bad == 2  # -100 counts as bad
    low, high = found.bad_range
    assert 0.05 < low < 0.06 and 0.50 < high < 0.52  # Wilson's interval of 2/10
    assert found.lines()[1].startswith("at -100 cp or worse: 2/10, 20.0%")


def test_the_difference_of_two_means_has_its_margin() -> None:
    gap, margin = quality.difference([0, 10, 20], [-40, -30, -20])
    assert gap == 40.0
    assert margin == pytest.approx(1.96 * (2 * 100 / 3) ** 0.5)


def test_a_finished_game_is_scored_without_asking_stockfish() -> None:
    mated = Position()
    for move in ("f2f3", "e7e5", "g2g4", "d8h4"):
        mated.push_uci(move)
    nobody = cast(UciEngine, None)  # never asked: there is no move to search
    assert quality.judged(nobody, mated, 1000, 0) == -quality.CAP
    assert quality.judged(nobody, mated, 1000, 1) == quality.CAP
    stalemate = Position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert quality.judged(nobody, stalemate, 1000, 0) == 0


@pytest.mark.skipif(STOCKFISH is None, reason="stockfish is not installed")
def test_a_short_run_against_stockfish(tmp_path: Path) -> None:
    games = tmp_path / "games.jsonl"
    out = run_bench("opening_quality.py", "--games", "2", "--moves", "3", "--nodes", "2000",
                    "--sf-nodes", "20000", "--judge-nodes", "20000", "--out", str(games))
    assert re.search(r"^games 2: mean [-+]\d+\.\d \+- \d+\.\d cp, median", out, re.MULTILINE)
    assert re.search(r"^level 10's book moves a game: \d\.\d \(from \d to \d\)$", out,
                     re.MULTILINE)
    played = [json.loads(line) for line in games.read_text().splitlines()]
    assert [g["colour"] for g in played] == ["w", "b"]
    for game in played:
        pos = Position()
        for move in game["moves"].split():
            pos.push_uci(move)  # raises if illegal
        assert len(pos.move_stack) == 6 and abs(game["score"]) <= quality.CAP
        assert game["book"] >= 1  # the initial position and 1. e4 or 1. d4 are in the book
    compared = run_bench("opening_quality.py", "--compare", str(games), str(games))
    assert "mean of A less mean of B: +0.0 +- " in compared
