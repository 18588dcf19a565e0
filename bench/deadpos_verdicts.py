"""Full-mode verdicts on the whole unwinnability corpus, in parallel (issue 6).

Run: ``.venv/bin/python bench/deadpos_verdicts.py [--jobs N] [--budget NODES] [--every N]
[--files chasolver d3chess] [--undetermined FILE] [--rows FILE] [--seconds S [--cpu]]``.
For every position of each file and both sides: full mode's verdict against the label
(first character ``-`` = white cannot mate, second for black), every helpmate replayed to
checkmate. Prints, per file and side, the correct, undetermined (split by label) and wrong
verdicts, and the median and 99th percentile time per verdict. Budgets count nodes, so the
verdicts do not depend on ``--jobs`` (unless ``--seconds`` bounds each verdict's time, as a
ruling does; ``--cpu`` measures and bounds CPU time, which a loaded machine inflates
less); a position both files hold is analysed once. ``--rows FILE`` analyses only the
verdicts a file written by ``--undetermined`` lists (a before/after check of the hard
ones). Exits 1 on any wrong verdict or bad helpmate.
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.squares import Side
from chessarbiter.laws.deadpos import Winnability, can_checkmate

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "unwinnability"
FILES = {"chasolver": "chasolver-positions.txt", "d3chess": "d3chess-test-vector.txt"}

Case = tuple[str, int, str, str, Side, int | None]
"""File, line index, label, FEN, side, budget."""


def cases(name: str, every: int, budget: int | None) -> list[Case]:
    """Both sides of every ``every``-th labelled line of a corpus file."""
    path = CORPUS / FILES[name]
    if not path.exists():
        sys.exit(f"corpus file missing: {path} (the corpus lies in ../shared/corpus)")
    rows = [r for r in path.read_text().splitlines() if r.strip() and not r.startswith("#")]
    out: list[Case] = []
    for index, row in enumerate(rows):
        if index % every == 0:
            label, fen = row.split(None, 1)
            out += [(name, index, label, fen, side, budget) for side in Side]
    return out


def judge(case: Case, seconds: float | None = None, cpu: bool = False) -> dict[str, object]:
    """One verdict, compared with the label; a helpmate is replayed to checkmate. With
    ``seconds``, the analysis has that time bound; with ``cpu``, times (the bound's too) are
    the process's CPU time, which a loaded machine inflates less than the wall clock."""
    name, index, label, fen, side, budget = case
    fields = fen.split()
    fields += ["-"] * (4 - len(fields))
    pos = parse_fen(" ".join(fields), lenient=True)
    clock = time.process_time if cpu else time.perf_counter
    start = clock()
    verdict = can_checkmate(pos, side, "full", budget, seconds=seconds, clock=clock)
    seconds = clock() - start
    expected = label[side] != "-"
    if verdict.outcome is Winnability.UNDETERMINED:
        result = "undetermined"
    elif verdict.winnable != expected:
        result = "wrong"
    else:
        result = "correct"
        if verdict.winnable:
            board = pos.copy()
            for move in verdict.line:
                if move not in board.legal_moves():
                    result = "bad line"
                    break
                board.push(move)
            if result == "correct" and not (board.is_checkmate() and board.turn != side):
                result = "bad line"
    return {"file": name, "i": index, "label": label, "fen": fen, "side": side,
            "result": result, "reason": verdict.reason, "nodes": verdict.nodes,
            "seconds": round(seconds, 4)}


def _same(case: Case) -> tuple[str, str, int]:
    """What decides a verdict: the label, the position (four FEN fields) and the side; a
    position both files hold is analysed once (the verdict does not depend on the file)."""
    return case[2], " ".join(case[3].split()[:4]), case[4]


def report(rows: list[dict[str, object]]) -> int:
    """Prints the table; returns the number of wrong verdicts and bad lines."""
    bad = 0
    print(f"{'file':10} {'side':5} {'n':>5} {'correct':>8} {'undet.':>7} "
          f"{'(W/-)':>9} {'wrong':>6} {'median ms':>10} {'p99 ms':>9}")
    for name in FILES:
        for side in (0, 1, None):
            part = [r for r in rows if r["file"] == name and side in (None, r["side"])]
            if not part:
                continue
            count = Counter(str(r["result"]) for r in part)
            undecided = [r for r in part if r["result"] == "undetermined"]
            winnable = sum(1 for r in undecided if str(r["label"])[int(str(r["side"]))] != "-")
            times = sorted(float(str(r["seconds"])) * 1000 for r in part)
            p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
            wrong = count["wrong"] + count["bad line"]
            bad += wrong if side is None else 0
            who = {0: "white", 1: "black", None: "both"}[side]
            share = 100 * len(undecided) / len(part)
            print(f"{name:10} {who:5} {len(part):5} {count['correct']:8} "
                  f"{len(undecided):7} {winnable:4}/{len(undecided) - winnable:<4} {wrong:6} "
                  f"{statistics.median(times):10.2f} {p99:9.1f}   ({share:.2f} % undetermined)")
    return bad


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--budget", type=int, default=None,
                        help="full-mode node budget (default: the library's default)")
    parser.add_argument("--every", type=int, default=1, help="corpus line step (default 1)")
    parser.add_argument("--files", nargs="+", choices=sorted(FILES), default=sorted(FILES))
    parser.add_argument("--seconds", type=float, default=None, help="time bound per verdict")
    parser.add_argument("--cpu", action="store_true", help="CPU time, not the wall clock")
    parser.add_argument("--undetermined", type=Path, help="write undetermined cases (JSON lines)")
    parser.add_argument("--rows", type=Path, help="only the cases this --undetermined file lists")
    args = parser.parse_args()
    todo = [c for name in args.files for c in cases(name, args.every, args.budget)]
    if args.rows:
        listed = [json.loads(line) for line in args.rows.read_text().splitlines() if line]
        wanted = {(r["file"], r["i"], r["side"]) for r in listed}
        todo = [c for c in todo if (c[0], c[1], c[4]) in wanted]
    unique = {_same(c): c for c in reversed(todo)}
    start = time.perf_counter()
    with Pool(args.jobs) as pool:
        work = functools.partial(judge, seconds=args.seconds, cpu=args.cpu)
        judged = pool.map(work, list(unique.values()), chunksize=1)
    done = dict(zip(unique, judged, strict=True))
    rows = [{**done[_same(c)], "file": c[0], "i": c[1]} for c in todo]
    print(f"{len(rows)} verdicts, budget {args.budget or 'default'}, "
          f"{time.perf_counter() - start:.0f} s with {args.jobs} processes")
    bad = report(rows)
    if args.undetermined:
        with args.undetermined.open("w") as out:
            for row in rows:
                if row["result"] != "correct":
                    out.write(json.dumps(row) + "\n")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
