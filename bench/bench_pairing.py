"""Swiss pairing and checking, side by side with bbpPairings on the same files in one run:
the next round of a tournament (``pair``) and every round re-paired and compared
(``check``), at 400 and 1,000 players, by the FIDE Dutch and the Burstein systems: pairing
on the corpus's bbpPairings-made (Dutch) files, checking on those for Dutch and, for
Burstein, on a tournament of as many rounds made by bbpPairings's own generator in Burstein
mode (``-g``, fixed seed: the player count; with forfeits, byes and retirements).

Run: ``PYTHONPATH=src .venv/bin/python bench/bench_pairing.py --bbp PATH/bbpPairings.exe
[--repeats 3] [--only 400,1000] [--systems dutch,burstein] [--no-pair] [--no-check]
[--check-rounds N]``
(``--check-rounds``: check the file cut after its first N rounds, so that a loaded machine
gets through the 1,000-player check). bbpPairings is built from ``../shared/tools/
bbpPairings`` with ``make`` in a copy (its Burstein mode needs the mend described in
``tests/tournament/bbp.py``); ``CHESSARBITER_BBPPAIRINGS`` may name it instead of ``--bbp``;
without either, chessarbiter is timed alone. Each repeat runs chessarbiter (in this
process), then bbpPairings (a process) on the same file. A row gives the medians over the
repeats of the CPU and wall-clock seconds with their spread (min-max), the ratio of the
median CPU seconds (bbpPairings / chessarbiter), and whether the two agree. CPU seconds are
the fairer figure on a loaded machine: wall-clock also counts time waiting for a core.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import resource
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import NamedTuple

from chessarbiter.cli.main import main as chessarbiter_main
from chessarbiter.tournament.records import Pairing
from chessarbiter.tournament.swiss import System
from chessarbiter.tournament.swiss.replay import first_unpaired_round, pair_next
from chessarbiter.tournament.trf import PlayerRecord, Trf, dump, parse

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "pairings"

FILES = {400: "next_round/p400_after_r8.trf", 1000: "next_round/p1000_after_r4.trf"}
GENERATOR = ("DrawPercentage=30\nForfeitRate=15\nRetiredRate=40\nHalfPointByeRate=20\n"
             "HighestRating=2700\nLowestRating=1200\n")

Timing = tuple[float, float]
"""CPU and wall-clock seconds."""


def ours(run: Callable[[], object]) -> tuple[Timing, object]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = run()
    return (time.process_time() - cpu, time.perf_counter() - wall), result


def theirs(command: list[str]) -> tuple[Timing, subprocess.CompletedProcess[str]]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return (cpu, wall), done


def read_pairs(path: Path) -> Pairing:
    numbers = [int(word) for word in path.read_text().split()[1:]]
    boards = list(zip(numbers[::2], numbers[1::2], strict=True))
    bye = next((w for w, b in boards if b == 0), None)
    return Pairing(tuple((w, b) for w, b in boards if b), bye)


def first_rounds(trf: Trf, upto: int) -> str:
    """The file cut after round ``upto``, each points column summed again."""
    records = [PlayerRecord(r.entrant, sum((trf.scoring.points(c.code) for c in r.cells[:upto]),
                                           Fraction(0)), 0, r.cells[:upto])
               if isinstance(r, PlayerRecord) else r for r in trf.records]
    return dump(Trf(tuple(records)))


def burstein_file(bbp: str, players: int, rounds: int, folder: Path) -> Trf:
    """A Burstein tournament made by bbpPairings's generator, named as such (``092``)."""
    config = folder / f"burstein{players}.cfg"
    config.write_text(f"PlayersNumber={players}\nRoundsNumber={rounds}\n{GENERATOR}")
    out = folder / f"burstein{players}-made.trf"
    subprocess.run([bbp, "--burstein", "-g", str(config), "-o", str(out), "-s", str(players)],
                   capture_output=True, check=True)
    text = out.read_text("latin-1")
    first, _, rest = text.partition("\n")
    return parse(f"{first}\n092 FIDE_BURSTEIN\n{rest}")


def check_here(path: Path) -> bool:
    """``chessarbiter tournament check FILE --quiet`` in this process: every round as the
    rules give it."""
    with contextlib.redirect_stdout(io.StringIO()) as out:
        code = chessarbiter_main(["tournament", "check", str(path), "--quiet"])
    return code == 0 and " 0 with discrepancies" in out.getvalue()


class Task(NamedTuple):
    """What to time here, the command to time, and whether the two agree."""

    name: str
    run: Callable[[], object]
    command: list[str]
    same: Callable[[object, subprocess.CompletedProcess[str]], bool]


def same_pairs(out: Path, mine: object, done: subprocess.CompletedProcess[str]) -> bool:
    return done.returncode == 0 and mine == read_pairs(out)


def both_accept(mine: object, done: subprocess.CompletedProcess[str]) -> bool:
    """bbpPairings's checker exits 0 even when it prints a ``Checker pairings`` table."""
    return mine is True and done.returncode == 0 and "Checker pairings" not in done.stdout


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):8.2f} ({min(values):.2f}-{max(values):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bbp", default=os.environ.get("CHESSARBITER_BBPPAIRINGS"),
                        help="the bbpPairings executable")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", default="400,1000", help="player counts: 400, 1000")
    parser.add_argument("--systems", default="dutch,burstein")
    parser.add_argument("--no-pair", action="store_true", help="time checking only")
    parser.add_argument("--no-check", action="store_true", help="time pairing only")
    parser.add_argument("--check-rounds", type=int, help="check only the first N rounds")
    args = parser.parse_args()
    if not args.bbp:
        print("bbpPairings not given (--bbp or CHESSARBITER_BBPPAIRINGS): chessarbiter alone")
    systems: list[System] = [s for s in ("dutch", "burstein") if s in args.systems.split(",")]
    print(f"{'task':<28} {'players':>7}  {'chessarbiter CPU s':>21}  {'bbpPairings CPU s':>21}"
          f"  {'ratio':>5}  {'chessarbiter wall s':>21}  {'bbpPairings wall s':>21}  same")
    with tempfile.TemporaryDirectory() as scratch:
        for players in (int(x) for x in args.only.split(",")):
            source = CORPUS / FILES[players]
            text = source.read_text("latin-1")
            trf = parse(text)
            upcoming = first_unpaired_round(trf)
            tasks: list[Task] = []
            for system in [] if args.no_pair else systems:
                path = Path(scratch) / f"{system}{players}.trf"
                path.write_text(text.replace("FIDE_DUTCH", "FIDE_BURSTEIN")
                                if system == "burstein" else text, "latin-1")
                out = Path(scratch) / f"{system}{players}.pairs"
                tasks.append(Task(f"pair round {upcoming} ({system})",
                                  partial(pair_next, trf, system=system),
                                  [args.bbp, f"--{system}", str(path), "-p", str(out)],
                                  partial(same_pairs, out)))
            last = min(upcoming - 1, args.check_rounds or upcoming)
            for system in [] if args.no_check else systems:
                if system == "burstein" and not args.bbp:
                    print("Burstein checking needs bbpPairings's generator: skipped")
                    continue
                made = (burstein_file(args.bbp, players, upcoming - 1, Path(scratch))
                        if system == "burstein" else trf)
                path = Path(scratch) / f"check-{system}{players}.trf"
                whole = text if system == "dutch" else dump(made)
                path.write_text(whole if last == upcoming - 1 else first_rounds(made, last),
                                "latin-1")
                tasks.append(Task(f"check rounds 1-{last} ({system})", partial(check_here, path),
                                  [args.bbp, f"--{system}", str(path), "-c"], both_accept))
            for name, run, command, same in tasks:
                cpu: tuple[list[float], list[float]] = ([], [])
                wall: tuple[list[float], list[float]] = ([], [])
                agree = True
                for _ in range(args.repeats):
                    (c, w), mine = ours(run)
                    cpu[0].append(c)
                    wall[0].append(w)
                    if args.bbp:
                        (c, w), done = theirs(command)
                        cpu[1].append(c)
                        wall[1].append(w)
                        agree = agree and same(mine, done)
                if not args.bbp:
                    print(f"{name:<28} {players:>7}  {spread(cpu[0]):>21}  {'-':>21}  {'-':>5}  "
                          f"{spread(wall[0]):>21}  {'-':>21}  -", flush=True)
                    continue
                ratio = statistics.median(cpu[1]) / statistics.median(cpu[0])
                print(f"{name:<28} {players:>7}  {spread(cpu[0]):>21}  {spread(cpu[1]):>21}  "
                      f"{ratio:5.2f}  {spread(wall[0]):>21}  {spread(wall[1]):>21}  "
                      f"{'yes' if agree else 'NO'}", flush=True)


if __name__ == "__main__":
    main()
