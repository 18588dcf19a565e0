"""The level ladder script (``bench/ladder.py``) against Stockfish's ``UCI_Elo``: a short
ladder of two levels, two games each, read as its user reads it (a long test)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from chessarbiter.notation.pgn_reader import read_pgn_text

ROOT = Path(__file__).resolve().parents[2]
STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")


@pytest.mark.long
@pytest.mark.skipif(STOCKFISH is None, reason="stockfish is not installed")
def test_a_short_ladder_prints_each_match_and_each_level(tmp_path: Path) -> None:
    env = os.environ | {"PYTHONPATH": str(ROOT / "src") + os.pathsep + str(ROOT)}
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "ladder.py"), "--levels", "1,10", "--anchors",
         "1350", "--games", "2", "--tc", "5s+0.05s", "--concurrency", "2",
         "--pgn", str(tmp_path / "ladder.pgn")],
        capture_output=True, text=True, timeout=900, env=env, stdin=subprocess.DEVNULL)
    print(out.stdout)
    assert out.returncode == 0, out.stderr[-2000:]
    matches = re.findall(r"^level (\d+) v UCI_Elo 1350: \+(\d+) -(\d+) =(\d+), score .*, "
                         r"Elo .* \+- .*, (\d+) lost on time$", out.stdout, re.MULTILINE)
    assert [m[0] for m in matches] == ["1", "10"]
    assert all(sum(int(n) for n in m[1:4]) == 2 for m in matches)
    assert re.findall(r"^level (\d+): about .+ on Stockfish's UCI_Elo scale$", out.stdout,
                      re.MULTILINE) == ["1", "10"]
    entries = out.stdout.partition("LADDER_ELO entries for src/chessarbiter/engines/levels.py:")[2]
    assert re.findall(r"^    (\d+): (?:\d+|None),$", entries, re.MULTILINE) == ["1", "10"]
    games = read_pgn_text((tmp_path / "ladder.pgn").read_text())
    assert len(games) == 4 and all(g.result != "*" and not g.error for g in games)
