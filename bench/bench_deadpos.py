"""Dead-position analysis speed (issue 6): quick and full mode, per position.

Run: ``.venv/bin/python bench/bench_deadpos.py [--every N] [--budget NODES] [--games N]
[--sets chasolver d3chess games] [--modes quick full]``.
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

``--cha [DIR]`` measures side by side with CHA (D3-Chess), one query at a time, alternating
which tool goes first: CHA's timing driver is built from ``../shared/tools/cha/build.sh``
into a scratch folder (or taken from ``DIR``, a folder that build printed). Both report the
thread's CPU time per query (a loaded machine inflates it less than the wall clock); the
script prints each tool's median and p99 per mode and set, their ratio, and the same for
the queries chessarbiter decides on material alone (its fixed cost per query).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import tempfile
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


def build_cha() -> Path:
    """CHA's timing driver built into a scratch folder by the shared build script."""
    script = CORPUS.parent / "tools" / "cha" / "build.sh"
    scratch = tempfile.mkdtemp(prefix="cha-")
    done = subprocess.run(["bash", str(script), scratch], capture_output=True, text=True,
                          check=True)
    return Path(done.stdout.strip().splitlines()[-1])


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def versus_cha(cases: list[tuple[Position, int]], mode: str, cha: Path) -> str:
    """CPU microseconds per query, chessarbiter and CHA alternating: medians, p99s, ratios,
    and the same on the queries chessarbiter answers on material alone."""
    flags = ["-quick"] if mode == "quick" else []
    driver = subprocess.Popen([str(cha / "cha_bench"), *flags], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert driver.stdin is not None and driver.stdout is not None
    assert driver.stdout.readline().strip() == "ready"
    ours: list[float] = []
    theirs: list[float] = []
    material: list[int] = []
    for index, (pos, side) in enumerate(cases):
        order = ("ours", "theirs") if index % 2 == 0 else ("theirs", "ours")
        for who in order:
            if who == "theirs":
                driver.stdin.write(f"{pos.fen()} {'white' if side == 0 else 'black'}\n")
                driver.stdin.flush()
                words = driver.stdout.readline().split()
                theirs.append(int(words[words.index("cpu") + 1]) / 1000)
            else:
                start = time.thread_time_ns()
                verdict = can_checkmate(pos, side, mode)  # type: ignore[arg-type]
                ours.append((time.thread_time_ns() - start) / 1000)
                if verdict.reason == "material":
                    material.append(index)
    driver.stdin.write("quit\n")
    driver.stdin.close()
    driver.wait()

    def row(label: str, mine: list[float], other: list[float]) -> str:
        if not mine:
            return f"    {label}: none"
        a, b = statistics.median(mine), statistics.median(other)
        return (f"    {label} (n={len(mine)}): median {a:9.1f} / {b:9.1f} us = {a / b:6.2f}x  "
                f"p99 {_p99(mine):11.1f} / {_p99(other):11.1f} us = "
                f"{_p99(mine) / _p99(other):6.2f}x")

    return "\n".join((
        f"  {mode} (chessarbiter / CHA, thread CPU time, {build()}):",
        row("all", ours, theirs),
        row("material alone", [ours[i] for i in material], [theirs[i] for i in material]),
    ))


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
    parser.add_argument("--modes", nargs="+", choices=("quick", "full"), default=["quick", "full"],
                        help="modes to run (default both)")
    parser.add_argument("--sample", action="store_true", help="measure the corpus sample")
    parser.add_argument("--seconds", type=float, default=None, help="time bound per verdict")
    parser.add_argument("--cpu", action="store_true", help="sample: CPU time, not wall clock")
    parser.add_argument("--rows", type=Path, default=None, help="sample verdicts (JSON lines)")
    parser.add_argument("--cha", nargs="?", const="build", default=None, metavar="DIR",
                        help="side by side with CHA (built in a scratch folder, or from DIR)")
    args = parser.parse_args()
    if args.sample:
        sample(args.seconds, args.rows, args.cpu)
        return
    cha = None
    if args.cha:
        cha = build_cha() if args.cha == "build" else Path(args.cha)
    for name in args.sets:
        cases = game_finals(args.games) if name == "games" else corpus_set(SETS[name], args.every)
        print(f"{name} ({SETS[name]})")
        for mode in args.modes:
            if cha is not None:
                print(versus_cha(cases, mode, cha), flush=True)
            else:
                print("  " + measure(cases, mode, args.budget), flush=True)


if __name__ == "__main__":
    main()
