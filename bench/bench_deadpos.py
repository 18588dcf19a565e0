"""Dead-position analysis speed (issue 6): quick and full mode, per position.

Run: ``.venv/bin/python bench/bench_deadpos.py [--every N] [--budget NODES] [--games N]
[--sets chasolver d3chess games]``.
Sets: the two unwinnability corpus files (every N-th line, both sides) and the final
positions of the games in ``../shared/corpus/pgn/large/*.pgn`` (read with python-chess; the
side that did not move last is the intended winner, as for a flag). Prints, per set and
mode, the median and 99th percentile time per verdict and the verdict counts.

``--sample [--seconds S] [--rows FILE]`` instead measures the *corpus sample*, the fixed
1,046 full-mode verdicts behind the figures of ``docs/deadpos.md``: every 10th labelled line
of both unwinnability files (from the first), both sides, each verdict judged against its
label and every helpmate replayed (as ``deadpos_verdicts.py`` does). It prints the median,
99th percentile and largest time and node count, and the correct, undetermined and wrong
verdicts; ``--seconds`` is the time bound of a ruling, ``--cpu`` measures (and bounds) the
process's CPU time instead of the wall clock (for a loaded machine), ``--rows`` writes every
verdict as a JSON line.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from pathlib import Path

import chess
import chess.pgn
from deadpos_verdicts import FILES, cases, judge
from rates import build

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.position import Position
from chessarbiter.laws.deadpos import can_checkmate

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
SAMPLE_EVERY = 10
"""The corpus sample's line step."""
SETS = {
    "chasolver": "chasolver-positions.txt",
    "d3chess": "d3chess-test-vector.txt",
    "games": "final positions of ../shared/corpus/pgn/large games",
}


def corpus_set(name: str, every: int) -> list[tuple[Position, int]]:
    """Both sides of every ``every``-th position of an unwinnability file."""
    rows = [r for r in (CORPUS / "unwinnability" / name).read_text().splitlines()
            if r.strip() and not r.startswith("#")]
    out = []
    for row in rows[::every]:
        fields = row.split(None, 1)[1].split()
        fields += ["-"] * (4 - len(fields))
        pos = parse_fen(" ".join(fields), lenient=True)
        out += [(pos, 0), (pos, 1)]
    return out


def game_finals(limit: int) -> list[tuple[Position, int]]:
    """The final positions of up to ``limit`` games, with the side not to move as winner."""
    out: list[tuple[Position, int]] = []
    for path in sorted((CORPUS / "pgn" / "large").glob("*.pgn")):
        with path.open(encoding="utf-8", errors="replace") as stream:
            while len(out) < limit:
                game = chess.pgn.read_game(stream)
                if game is None:
                    break
                board = game.end().board()
                out.append((parse_fen(board.fen()), 0 if board.turn == chess.BLACK else 1))
    return out


def measure(cases: list[tuple[Position, int]], mode: str, budget: int | None) -> str:
    """Median and p99 milliseconds per verdict, and the verdict counts."""
    times = []
    verdicts: Counter[str] = Counter()
    for pos, side in cases:
        start = time.perf_counter()
        verdict = can_checkmate(pos, side, mode, budget if mode == "full" else None)  # type: ignore[arg-type]
        times.append((time.perf_counter() - start) * 1000)
        verdicts[verdict.outcome.value] += 1
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    return (f"{mode:5} n={len(times):5} median {statistics.median(times):8.3f} ms  "
            f"p99 {p99:9.3f} ms  {dict(verdicts)}")


def sample(seconds: float | None, rows_out: Path | None, cpu: bool) -> None:
    """The corpus sample: every 10th line of both files, both sides, judged."""
    todo = [c for name in FILES for c in cases(name, SAMPLE_EVERY, None)]
    rows = []
    for case in todo:
        rows.append(judge(case, seconds, cpu))
        if rows_out:
            with rows_out.open("a") as out:
                out.write(json.dumps(rows[-1]) + "\n")
    times = sorted(float(str(r["seconds"])) * 1000 for r in rows)
    nodes = sorted(int(str(r["nodes"])) for r in rows)
    results = Counter(str(r["result"]) for r in rows)
    reasons = Counter(str(r["reason"]) for r in rows if r["result"] == "undetermined")

    def spread(values: list[float] | list[int]) -> str:
        p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
        return f"median {statistics.median(values):,.1f}  p99 {p99:,.1f}  max {values[-1]:,.1f}"

    clock = "CPU" if cpu else "wall-clock"
    print(f"corpus sample: {len(rows)} verdicts, time bound {seconds} s, {clock} times ({build()})")
    print(f"  ms     {spread(times)}")
    print(f"  nodes  {spread(nodes)}")
    print(f"  {dict(results)}  undetermined by reason {dict(reasons)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--every", type=int, default=10, help="corpus line step (default 10)")
    parser.add_argument("--budget", type=int, default=None,
                        help="full-mode node budget (default: the library's, 200,000)")
    parser.add_argument("--games", type=int, default=1_000, help="games to take (default 1000)")
    parser.add_argument("--sets", nargs="+", choices=SETS, default=list(SETS), help="sets to run")
    parser.add_argument("--sample", action="store_true", help="measure the corpus sample")
    parser.add_argument("--seconds", type=float, default=None, help="time bound per verdict")
    parser.add_argument("--cpu", action="store_true", help="sample: CPU time, not wall clock")
    parser.add_argument("--rows", type=Path, default=None, help="sample verdicts (JSON lines)")
    args = parser.parse_args()
    if args.sample:
        sample(args.seconds, args.rows, args.cpu)
        return
    for name in args.sets:
        cases = game_finals(args.games) if name == "games" else corpus_set(SETS[name], args.every)
        print(f"{name} ({SETS[name]})")
        for mode in ("quick", "full"):
            print("  " + measure(cases, mode, args.budget), flush=True)


if __name__ == "__main__":
    main()
