"""Benchmark: the cost of one move through the arbiter, over the corpus's real games.

Run: ``.venv/bin/python bench/bench_arbiter.py [--limit N] [--repeats R]``. Every readable game
of ``../shared/corpus/pgn`` is replayed under ``fide-2023`` with a 90+30 clock, each move an
``apply(Moved(...))`` (legality, touch-move, clock press, repetition count, automatic endings
with the quick mate oracle). Each apply is timed alone; prints the median, mean, 99th percentile
and maximum per move (the median of R repeats for the median and mean).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from chessarbiter.arbiter import ClocksStarted, Game, Moved
from chessarbiter.clock import parse_human
from chessarbiter.core.moves import uci
from chessarbiter.laws.profiles import FIDE_2023
from chessarbiter.notation.game import RecordedGame
from chessarbiter.notation.pgn_reader import read_pgn_file

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "pgn"


def load(limit: int | None) -> list[RecordedGame]:
    """The readable games with moves, up to ``limit``."""
    out: list[RecordedGame] = []
    for path in sorted(CORPUS.rglob("*.pgn")):
        out += [g for g in read_pgn_file(path) if g.error is None and g.moves]
        if limit is not None and len(out) >= limit:
            return out[:limit]
    return out


def run(games: list[RecordedGame]) -> list[float]:
    """Seconds per move, every move of every game."""
    control = parse_human("90+30")
    times: list[float] = []
    clock = time.perf_counter
    for game in games:
        arbiter = Game(FIDE_2023, control, fen=game.start_fen, chess960=game.chess960)
        arbiter.apply(ClocksStarted(0))
        apply = arbiter.apply
        for ply, record in enumerate(game.moves, 1):
            event = Moved(ply * 1_000, arbiter.to_move, uci(record.move, game.chess960))
            began = clock()
            apply(event)
            times.append(clock() - began)
            if arbiter.is_over:
                break
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="games to replay (all)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    games = load(args.limit)
    runs = [run(games) for _ in range(args.repeats)]
    last = sorted(runs[-1])
    median = statistics.median(statistics.median(r) for r in runs)
    mean = statistics.median(statistics.fmean(r) for r in runs)
    p99 = last[int(0.99 * (len(last) - 1))]
    print(f"{len(games):,} games, {len(last):,} moves, median of {args.repeats} runs")
    print(f"per move: median {median * 1e6:.1f} us, mean {mean * 1e6:.1f} us, "
          f"p99 {p99 * 1e6:.1f} us, max {last[-1] * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
