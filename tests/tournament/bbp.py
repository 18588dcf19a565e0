"""bbpPairings v6.0.0 (``../shared/tools/bbpPairings``) as a test oracle: built once per
session into a temporary folder, then used to generate random tournaments (``-g``), pair a
round (``-p``) and check a file (``-c``). Test-only, like python-chess: never imported by
``src``.

Set ``CHESSARBITER_BBPPAIRINGS`` to a built ``bbpPairings.exe`` to skip the build (about a
minute; for the Burstein tests it must carry the mend below).

The build mends one memory error of bbpPairings v6.0.0's Burstein mode: ``burstein.cpp``
takes the bye's player out of its sorted list and puts it back through an iterator that
the removal invalidated, so whenever the bye goes to the last player of the list (the usual
case) the program aborts on a corrupted heap or a segmentation fault, in ``-p`` and ``-g``
alike. The mend keeps the position as an index instead; that list only feeds the
checklist output, so no pairing changes."""

from __future__ import annotations

import math
import os
import random
import shutil
import subprocess
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest

from chessarbiter.clock import Side
from chessarbiter.tournament.records import Code, Pairing
from chessarbiter.tournament.swiss import System
from chessarbiter.tournament.swiss.replay import initial_side, replay, rounds_of
from chessarbiter.tournament.trf import PlayerRecord, Record, Trf, dump, parse, validate
from tests.corpus import CORPUS

SOURCE = CORPUS.parent / "tools" / "bbpPairings"


def build(scratch: Path, started: list[subprocess.Popen[str]] | None = None) -> Path:
    """The bbpPairings executable: ``CHESSARBITER_BBPPAIRINGS``, or built from the shared
    source into ``scratch`` (``started`` collects the ``make`` it runs); skips the test
    (saying why) where it cannot be built."""
    given = os.environ.get("CHESSARBITER_BBPPAIRINGS")
    if given:
        return Path(given)
    if not SOURCE.is_dir():
        pytest.skip(f"bbpPairings source not found at {SOURCE}")
    if shutil.which("make") is None or shutil.which("g++") is None:
        pytest.skip("bbpPairings needs make and a C++20 compiler (g++), not found here")
    folder = scratch / "bbpPairings"
    binary = folder / "bbpPairings.exe"
    if binary.exists():  # built by another worker of this run
        return binary
    shutil.copytree(SOURCE, folder, dirs_exist_ok=True)
    _mend(folder / "src" / "swisssystems" / "burstein.cpp")
    make = subprocess.Popen(["make", "-C", str(folder), f"-j{os.cpu_count() or 1}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if started is not None:
        started.append(make)
    _, errors = make.communicate()
    if make.returncode or not binary.exists():
        pytest.skip(f"bbpPairings did not build here: {errors.strip()[-300:]}")
    return binary


_MENDS = (
    ("std::vector<const tournament::Player *>::iterator byeIterator;",
     "std::ptrdiff_t byeIndex{ };"),
    ("byeIterator = playerIterator;\n        ++byeIterator;\n",
     "byeIndex = playerIterator - sortedPlayers.begin();\n"),
    ("sortedPlayers.insert(byeIterator, bye);\n        --byeIterator;\n",
     "sortedPlayers.insert(sortedPlayers.begin() + byeIndex, bye);\n"),
)


def _mend(path: Path) -> None:
    """The bye's place in the Burstein checklist list kept as an index (see above); a
    source that differs is left as it is."""
    text = path.read_text()
    if all(text.count(old) == 1 for old, _ in _MENDS):
        for old, new in _MENDS:
            text = text.replace(old, new)
        path.write_text(text)


@dataclass(frozen=True)
class Bbp:
    """The built program and a folder for its files."""

    binary: Path
    folder: Path

    def generate(self, seed: int, players: int, rounds: int, *, system: str = "dutch",
                 extra: str = "") -> Path | None:
        """A random tournament (``-g``) with forfeits, half-point byes and retirements as
        the generator makes them; ``None`` when it finds no legal pairing for a round."""
        config = self.folder / f"g{seed}.cfg"
        config.write_text(f"PlayersNumber={players}\nRoundsNumber={rounds}\nDrawPercentage=30\n"
                          "ForfeitRate=15\nRetiredRate=40\nHalfPointByeRate=20\n"
                          f"HighestRating=2700\nLowestRating=1200\n{extra}")
        out = self.folder / f"g{seed}.trf"
        done = subprocess.run([str(self.binary), f"--{system}", "-g", str(config), "-o",
                               str(out), "-s", str(seed)], capture_output=True, check=False)
        return out if done.returncode == 0 else None

    def pair(self, text: str, *, system: str = "dutch") -> Pairing:
        """bbpPairings's pairing (``-p``) of the next round of a TRF text, in board order."""
        path = self.folder / "next.trf"
        path.write_bytes(text.encode("latin-1"))
        out = self.folder / "next.pairs"
        done = subprocess.run([str(self.binary), f"--{system}", str(path), "-p", str(out)],
                              capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        numbers = [int(word) for word in out.read_text().split()[1:]]
        boards = tuple(zip(numbers[::2], numbers[1::2], strict=True))
        bye = next((w for w, b in boards if b == 0), None)
        return Pairing(tuple((w, b) for w, b in boards if b), bye)

    def check(self, path: Path, *, system: str = "dutch") -> subprocess.CompletedProcess[str]:
        """bbpPairings's checker (``-c``) on a file."""
        return subprocess.run([str(self.binary), f"--{system}", str(path), "-c"],
                              capture_output=True, text=True, check=False)

    def accepts(self, path: Path, *, system: str = "dutch") -> tuple[bool, str]:
        """Whether bbpPairings's checker finds every round as it pairs it, and what it said:
        it exits 0 even when it prints a round's ``Checker pairings`` beside the file's."""
        done = self.check(path, system=system)
        said = done.stdout + done.stderr
        return done.returncode == 0 and "Checker pairings" not in said, said


def before_round(trf: Trf, round_no: int, total: int) -> str:
    """The file as it was before ``round_no`` was paired: the earlier rounds, the byes
    already entered for that round, points over the earlier rounds, ``XXR`` and ``XXC``."""
    scoring = trf.scoring
    records: list[PlayerRecord | Record] = []
    for record in trf.records:
        if isinstance(record, PlayerRecord):
            cells = list(record.cells[:round_no - 1])
            if len(record.cells) >= round_no:
                cell = record.cells[round_no - 1]
                if cell.opponent is None and cell.code not in (Code.PAIRING_BYE, Code.NONE):
                    cells.append(cell)
            points = sum((scoring.points(c.code) for c in record.cells[:round_no - 1]),
                         Fraction(0))
            records.append(PlayerRecord(record.entrant, points, 0, tuple(cells)))
        elif record.tag not in ("XXR", "XXC", "142", "152"):
            records.append(record)
    colour = "white1" if initial_side(trf) is Side.WHITE else "black1"
    records[1:1] = [Record("XXR", f" {total}"), Record("XXC", f" {colour}")]
    return dump(Trf(tuple(records)))


@dataclass
class Tally:
    """What a comparison went through and found."""

    tournaments: int = 0
    rounds: int = 0
    differences: int = 0
    rejected: int = 0


def _seed_base() -> int:
    given = os.environ.get("CHESSARBITER_BBP_SEED")
    return int(given) if given else random.SystemRandom().randrange(1, 10**8)


def compare(bbp: Bbp, count: int, low: int, high: int, max_rounds: int, extra: str = "",
            system: System = "dutch") -> tuple[Tally, list[str]]:
    """``count`` tournaments generated by bbpPairings (sizes spread evenly on a log scale
    between ``low`` and ``high``, 5 to ``max_rounds`` rounds), each round re-paired here
    from the file as it was before it and compared with bbpPairings's pairing of that
    file; the tally and the differences, each naming the seed, the size and the round."""
    base = _seed_base()
    rng = random.Random(base)
    tally = Tally()
    problems: list[str] = []
    seed = base
    while tally.tournaments < count:
        seed += 1
        players = round(math.exp(rng.uniform(math.log(low), math.log(high))))
        rounds = rng.randint(5, max(5, min(max_rounds, players // 2)))
        path = bbp.generate(seed, players, rounds, system=system, extra=extra)
        if path is None:  # the generator found no legal pairing for a late round
            continue
        tally.tournaments += 1
        trf = parse(path.read_bytes().decode("latin-1"))
        validate(trf)
        total = rounds_of(trf)
        rejected = False
        for round_no in range(1, total + 1):
            tally.rounds += 1
            mine = replay(trf, round_no, system=system)
            theirs = bbp.pair(before_round(trf, round_no, total), system=system)
            where = f"seed {seed} ({players} players, {rounds} rounds) round {round_no}"
            if not mine.matches:
                rejected = True
            if mine.computed != theirs:
                tally.differences += 1
                problems.append(f"{where}: bbpPairings {theirs}, here {mine.computed}")
        tally.rejected += rejected
        print(f"seed {seed}: {players} players, {total} rounds; so far {tally.tournaments} "
              f"tournaments, {tally.rounds} rounds, {len(problems)} differences, "
              f"{tally.rejected} rejected", flush=True)
    return tally, problems
