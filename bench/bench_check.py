"""``chessarbiter check`` against python-chess merely reading the same file (issue 11).

Run: ``.venv/bin/python bench/bench_check.py [--repeats N] [--big-mb M]``. For each of the
corpus's real-game files (``pgn/large/*.pgn``) it times, in alternation in this process, the
command's audit of the file (output discarded) with ``--jobs 1`` and with the default jobs,
against a ``chess.pgn.read_game`` loop over the file, and prints games/s and the ratios. Then
it builds a file of about M MB (default 100) by concatenating corpus files in a temporary
directory and runs the command on it in a subprocess, printing the peak resident memory
(``ru_maxrss`` of the command and, separately, of its worker processes) for a tenth of the
file and for the whole: streaming keeps them alike.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import resource
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

import chess.pgn
from rates import compare

from chessarbiter.cli.main import main as chessarbiter_main

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "pgn"
SOURCE = Path(__file__).resolve().parents[1] / "src"


def audit(path: Path, jobs: int) -> int:
    """Games audited by ``chessarbiter check --json`` (JSON to count them; output dropped)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        chessarbiter_main(["check", "--json", "--jobs", str(jobs), str(path)])
    text = out.getvalue()
    return int(text[text.rindex('"games": ') + 9 : text.index(",", text.rindex('"games": '))])


def read(path: Path) -> int:
    """Games python-chess reads (every move parsed and played) from the file."""
    games = 0
    with path.open(encoding="utf-8") as stream:
        while chess.pgn.read_game(stream) is not None:
            games += 1
    return games


def speed_rows(repeats: int) -> None:
    jobs = os.cpu_count() or 1
    print(f"{'file':34} {'check --jobs 1':>15} {f'--jobs {jobs}':>10} {'python-chess':>13} "
          f"{'ratio 1':>8} {f'ratio {jobs}':>8}   (games/s)")
    for path in sorted((CORPUS / "large").glob("*.pgn")):
        one, theirs = compare(partial(audit, path, 1), partial(read, path), repeats)
        many, theirs_again = compare(partial(audit, path, jobs), partial(read, path), repeats)
        print(f"{path.name:34} {one:15,.0f} {many:10,.0f} {theirs:13,.0f} "
              f"{one / theirs:7.2f}x {many / theirs_again:7.2f}x")


def build(directory: Path, megabytes: float) -> Path:
    """A PGN file of about ``megabytes`` made of the corpus's large files, repeated."""
    parts = [p.read_text(encoding="utf-8") for p in sorted((CORPUS / "large").glob("*.pgn"))]
    path = directory / f"db-{megabytes:g}mb.pgn"
    size = 0
    with path.open("w", encoding="utf-8") as stream:
        while size < megabytes * 1e6:
            for text in parts:
                stream.write(text.rstrip("\n") + "\n\n")
                size += len(text) + 2
    return path


def peak_memory(path: Path, jobs: int) -> tuple[float, float, float]:
    """Seconds, and peak RSS (MB) of the command and of its largest worker, auditing a file."""
    code = ("import resource, sys; from chessarbiter.cli.main import main; "
            f"main(['check', '--jobs', '{jobs}', sys.argv[1]]); "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "
            "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(SOURCE), os.environ.get("PYTHONPATH", "")]))
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, str(path)], env=env, check=False,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - t0
    own, workers = done.stderr.split()[-2:]
    return seconds, int(own) / 1024, int(workers) / 1024


def memory_rows(megabytes: float) -> None:
    jobs = os.cpu_count() or 1
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss > 0
    with tempfile.TemporaryDirectory() as directory:
        for size in (megabytes / 10, megabytes):
            path = build(Path(directory), size)
            mb = path.stat().st_size / 1e6
            for j in (1, jobs):
                seconds, own, workers = peak_memory(path, j)
                print(f"{mb:6.1f} MB file, --jobs {j}: {seconds:6.1f} s, peak RSS "
                      f"{own:6.1f} MB (workers {workers:6.1f} MB each at most)")
            path.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--big-mb", type=float, default=100.0,
                        help="size of the built file for the memory rows (0: skip them)")
    args = parser.parse_args()
    print(f"python-chess {chess.__version__}; medians of {args.repeats} repeats, "
          "each pair timed in alternation")
    speed_rows(args.repeats)
    if args.big_mb > 0:
        memory_rows(args.big_mb)


if __name__ == "__main__":
    main()
