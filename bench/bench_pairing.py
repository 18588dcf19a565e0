"""FIDE Dutch pairing speed: one round for 30, 100, 400 and 1,000 players from the corpus
(issue 15; reference, bbpPairings in C++ on this machine: about 3 s for 400 players and
81 s for 1,000).

Run: ``PYTHONPATH=src .venv/bin/python bench/bench_pairing.py [--repeats N] [--only 30,100]``.
Prints, per row, the round paired, the median wall-clock and CPU seconds over N repeats, and
whether the pairing equals bbpPairings'. The corpus sits at ../shared/corpus.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from chessarbiter.tournament.records import Pairing
from chessarbiter.tournament.swiss.replay import format_pairs, pair_next, replay
from chessarbiter.tournament.trf import parse

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "pairings"

CASES = {  # players: (description, how to pair, how to check)
    30: ("next_round/p30A_after_r5 -> round 6", "next_round/p30A_after_r5.trf",
         "next_round/p30A_r6.pairs"),
    100: ("generated/dutch_p100_r9_s303 round 9", "generated/dutch_p100_r9_s303.trf", "9"),
    400: ("next_round/p400_after_r8 -> round 9", "next_round/p400_after_r8.trf",
          "next_round/p400_r9.pairs"),
    1000: ("next_round/p1000_after_r4 -> round 5", "next_round/p1000_after_r4.trf",
           "next_round/p1000_r5.pairs"),
}


def job(trf_path: str, check: str) -> tuple[Callable[[], Pairing], Callable[[Pairing], bool]]:
    """The pairing to time and the test of its result."""
    trf = parse((CORPUS / trf_path).read_text("latin-1"))
    if check.isdigit():
        round_no = int(check)
        expected = replay(trf, round_no).recorded
        return (lambda: replay(trf, round_no).computed,
                lambda got: set(got.boards) == set(expected.boards) and got.bye == expected.bye)
    text = (CORPUS / check).read_text()
    return lambda: pair_next(trf), lambda got: format_pairs(got) == text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--only", default="30,100,400,1000", help="player counts, comma-separated")
    args = parser.parse_args()
    print(f"{'players':>7}  {'wall s':>8}  {'cpu s':>8}  same as bbp  round")
    for players in (int(x) for x in args.only.split(",")):
        name, trf_path, check = CASES[players]
        run, same = job(trf_path, check)
        walls, cpus, ok = [], [], True
        for _ in range(args.repeats):
            wall, cpu = time.perf_counter(), time.process_time()
            got = run()
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
            ok = ok and same(got)
        print(f"{players:>7}  {statistics.median(walls):8.2f}  {statistics.median(cpus):8.2f}"
              f"  {'yes' if ok else 'NO':>11}  {name}", flush=True)


if __name__ == "__main__":
    main()
