"""The built-in engine against itself through the real ``match`` command at seconds-long
controls, on whatever load the machine has: no game may be lost on time. The 50 games at
2 s + 0.1 s are a long test; the default run plays two of them (one pair at once).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from chessarbiter.notation.pgn_reader import read_pgn_text

SRC = Path(__file__).resolve().parents[2] / "src"


def match_flags(tmp_path: Path, games: int, tc: str) -> int:
    """Play the match (two games at a time) and return how many were lost on time, after
    checking that every game was played to a result with its clock times."""
    env = os.environ | {"PYTHONPATH": str(SRC)}
    out = subprocess.run(
        [sys.executable, "-m", "chessarbiter.cli.main", "match", "--games", str(games),
         "--tc", tc, "--concurrency", "2", "--seed", "1", "--pgn", "m.pgn"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=7200,
        stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr[-2000:]
    played = read_pgn_text((tmp_path / "m.pgn").read_text())
    assert len(played) == games
    assert all(g.result != "*" and not g.error for g in played)
    lowest = min(m.clock_ms for g in played for m in g.moves if m.clock_ms is not None)
    flags = [g.tags.get("Termination") == "time forfeit" for g in played]
    print(f"{games} games at {tc}: {out.stdout.strip().splitlines()[-1]}; "
          f"lowest clock {lowest} ms; {sum(flags)} lost on time")
    return sum(flags)


def test_two_games_at_two_seconds_and_a_tenth(tmp_path: Path) -> None:
    assert match_flags(tmp_path, 2, "2s+0.1s") == 0


@pytest.mark.long
def test_fifty_games_at_two_seconds_and_a_tenth(tmp_path: Path) -> None:
    assert match_flags(tmp_path, 50, "2s+0.1s") == 0
