"""Benchmark: the per-move dead-position proof (``laws/deadpos/proof.py``) on real games.

Run: ``PYTHONPATH=src .venv/bin/python bench/bench_proof.py [--games N] [--repeats R]``.
Replays the lichess games of ``../shared/corpus/pgn/large`` and the master games of
``../shared/corpus/pgn`` (Fischer, Petrosian, Kasparov-Deep Blue, chess.js benchmark; read with
python-chess) and, after every move, times ``proved_dead`` on the new position and, in
alternation on the same move, python-chess ``push`` + ``outcome()`` for reference (each the
least of R timings). Prints the median, mean, 99th percentile and maximum of each in
microseconds, their ratios, the positions proved dead, and how many positions the gates let
through to the proof search (the costly last stage).
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any

import chess
import chess.pgn

from chessarbiter.core.position import Position
from chessarbiter.laws.deadpos import proof
from chessarbiter.laws.deadpos.proof import proved_dead

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "pgn"
MASTERS = (
    "pgn-extract/fischer.pgn",
    "pgn-extract/petrosian.pgn",
    "chessops/kasparov-deep-blue-1997.pgn",
    "chess.js/benchmark.pgn",
)


def games(limit: int | None) -> list[list[chess.Move]]:
    """The main lines of up to ``limit`` standard games without errors."""
    paths = sorted((CORPUS / "large").glob("*.pgn")) + [CORPUS / name for name in MASTERS]
    out: list[list[chess.Move]] = []
    for path in paths:
        with path.open(encoding="utf-8", errors="replace") as stream:
            while limit is None or len(out) < limit:
                game = chess.pgn.read_game(stream)
                if game is None:
                    break
                board = game.board()
                if game.errors or board.fen() != chess.STARTING_FEN:
                    continue
                moves = list(game.mainline_moves())
                if moves:
                    out.append(moves)
    return out


def run(
    lines: list[list[chess.Move]], repeats: int
) -> tuple[list[float], list[float], Counter[str]]:
    """Seconds per position for ``proved_dead`` and for python-chess push + outcome, each the
    least of ``repeats`` timings taken in alternation (so that a moment of load elsewhere on
    the machine does not count as the cost of one position)."""
    ours: list[float] = []
    theirs: list[float] = []
    proved: Counter[str] = Counter()
    clock = time.perf_counter
    for moves in lines:
        board = chess.Board()
        pos = Position()
        for move in moves:
            pos.push(pos.parse_uci(move.uci()))
            mine = other = float("inf")
            reason = None
            for _ in range(repeats):
                t0 = clock()
                board.push(move)
                board.outcome()
                t1 = clock()
                reason = proved_dead(pos)
                t2 = clock()
                board.pop()
                other = min(other, t1 - t0)
                mine = min(mine, t2 - t1)
            board.push(move)
            theirs.append(other)
            ours.append(mine)
            if reason is not None:
                proved[reason] += 1
    return ours, theirs, proved


def searched(lines: list[list[chess.Move]]) -> int:
    """How many positions reach the proof search, counted untimed on ``proof.py`` run from
    its source (the installed module may be compiled, whose calls to its own functions
    cannot be intercepted)."""
    spec = importlib.util.spec_from_file_location(
        "proof_from_source", Path(str(proof.__file__)).with_name("proof.py")
    )
    assert spec is not None and spec.loader is not None
    source: Any = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(source)
    search = source._searched
    count = 0

    def counted(pos: Position, static: dict[int, bool]) -> bool:
        nonlocal count
        count += 1
        result: bool = search(pos, static)
        return result

    source._searched = counted
    for moves in lines:
        pos = Position()
        for move in moves:
            pos.push(pos.parse_uci(move.uci()))
            source.proved_dead(pos)
    return count


def summary(times: list[float]) -> tuple[float, float, float, float]:
    """Median, mean, 99th percentile and maximum in microseconds."""
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (statistics.median(ordered) * 1e6, statistics.fmean(ordered) * 1e6, p99 * 1e6,
            ordered[-1] * 1e6)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None, help="at most this many games")
    parser.add_argument("--repeats", type=int, default=3, help="timings per position (least kept)")
    args = parser.parse_args()
    lines = games(args.games)
    ours, theirs, proved = run(lines, args.repeats)
    mine = summary(ours)
    other = summary(theirs)
    print(f"{len(lines)} games, {len(ours)} positions")
    print("per position (us)          median    mean     p99      max")
    print("proved_dead              " + "".join(f"{v:8.2f}" for v in mine))
    print("python-chess push+outcome" + "".join(f"{v:8.2f}" for v in other))
    ratios = (a / b for a, b in zip(mine, other, strict=True))
    print("ratio                    " + "".join(f"{v:8.2f}" for v in ratios))
    print("proved dead:", dict(proved) or "none")
    print(f"reached the proof search: {searched(lines)} positions")


if __name__ == "__main__":
    main()
