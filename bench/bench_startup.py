"""Whole-process start-up of the ``chessarbiter`` command against a python-chess script
(issue 13).

Run: ``.venv/bin/python bench/bench_startup.py [--repeats N]``. Times, in alternation, the wall
time of fresh processes: ``python -m chessarbiter.cli.main --help``, ``... perft 3``, a script
doing ``import chess, chess.pgn`` and one doing the same plus a perft at depth 3 with
python-chess; prints the median of N runs of each and the ratios (ours / python-chess).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "src"

_PERFT = """
def perft(board, depth):
    if depth == 0:
        return 1
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total
print(perft(chess.Board(), 3))
"""

RUNS = {
    "chessarbiter --help": ["-m", "chessarbiter.cli.main", "--help"],
    "python-chess import": ["-c", "import chess, chess.pgn"],
    "chessarbiter perft 3": ["-m", "chessarbiter.cli.main", "perft", "3"],
    "python-chess perft 3": ["-c", "import chess, chess.pgn\n" + _PERFT],
}
PAIRS = (("chessarbiter --help", "python-chess import"),
         ("chessarbiter perft 3", "python-chess perft 3"))


def wall(args: list[str]) -> float:
    """Seconds a fresh Python process running ``args`` takes, start to exit."""
    env = os.environ | {"PYTHONPATH": str(SOURCE)}
    t0 = time.perf_counter()
    subprocess.run([sys.executable, *args], env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=15, help="runs of each (default 15)")
    args = parser.parse_args()
    times: dict[str, list[float]] = {name: [] for name in RUNS}
    for _ in range(args.repeats):
        for name, run in RUNS.items():  # in alternation: a change of load falls on all alike
            times[name].append(wall(run))
    median = {name: statistics.median(values) for name, values in times.items()}
    for name, seconds in median.items():
        print(f"{name:22} {seconds * 1000:7.0f} ms (median of {args.repeats})")
    for ours, theirs in PAIRS:
        print(f"{ours} / {theirs}: {median[ours] / median[theirs]:.2f}")


if __name__ == "__main__":
    main()
