"""Pairings identical to bbpPairings on every round of random tournaments made by its own
generator (forfeits, half-point byes, retirements as it makes them): each round re-paired
here from the file as it was before the round equals bbpPairings's ``-p`` pairing of that
file (pairs, colours, bye and board order), and ``tournament check`` accepts every
untouched file.

The seeds are new on every run (``CHESSARBITER_BBP_SEED`` repeats one); a failure names
the seed, the size and the round."""

from __future__ import annotations

import math
import os
import random
from dataclasses import dataclass

import pytest

from chessarbiter.tournament.swiss.replay import replay, rounds_of
from chessarbiter.tournament.trf import parse, validate
from tests.tournament.bbp import Bbp, before_round


@dataclass
class Tally:
    tournaments: int = 0
    rounds: int = 0
    differences: int = 0
    rejected: int = 0


def _seed_base() -> int:
    given = os.environ.get("CHESSARBITER_BBP_SEED")
    return int(given) if given else random.SystemRandom().randrange(1, 10**8)


def _run(bbp: Bbp, count: int, low: int, high: int, max_rounds: int,
         extra: str = "") -> tuple[Tally, list[str]]:
    base = _seed_base()
    rng = random.Random(base)
    tally = Tally()
    problems: list[str] = []
    seed = base
    while tally.tournaments < count:
        seed += 1
        players = round(math.exp(rng.uniform(math.log(low), math.log(high))))
        rounds = rng.randint(5, max(5, min(max_rounds, players // 2)))
        path = bbp.generate(seed, players, rounds, extra=extra)
        if path is None:  # the generator found no legal pairing for a late round
            continue
        tally.tournaments += 1
        trf = parse(path.read_bytes().decode("latin-1"))
        validate(trf)
        total = rounds_of(trf)
        rejected = False
        for round_no in range(1, total + 1):
            tally.rounds += 1
            mine = replay(trf, round_no)
            theirs = bbp.pair(before_round(trf, round_no, total))
            where = f"seed {seed} ({players} players, {rounds} rounds) round {round_no}"
            if not mine.matches:
                rejected = True
            if mine.computed != theirs:
                tally.differences += 1
                problems.append(f"{where}: bbpPairings {theirs}, here {mine.computed}")
        tally.rejected += rejected
        print(f"seed {seed}: {players} players, {total} rounds, {len(problems)} differences "
              "so far")
    return tally, problems


def test_every_round_as_bbppairings(bbp: Bbp) -> None:
    """6 tournaments of 8-40 players, 5-9 rounds."""
    tally, problems = _run(bbp, 6, 8, 40, 9)
    assert tally.tournaments == 6 and tally.rounds >= 30
    assert not problems, problems[:3]
    assert tally.rejected == 0


def test_every_round_as_bbppairings_310_scoring(bbp: Bbp) -> None:
    """3 points a win, 1 a draw (the generator writes the ``162`` record)."""
    tally, problems = _run(bbp, 3, 8, 40, 7, "PointsForWin=3\nPointsForDraw=1\n")
    assert tally.tournaments == 3
    assert not problems, problems[:3]
    assert tally.rejected == 0


@pytest.mark.long
def test_every_round_as_bbppairings_large(bbp: Bbp) -> None:
    """At least 100 tournaments of 8-500 players (sizes spread evenly on a log scale),
    5-13 rounds: 0 differences, 0 rejected files."""
    tally, problems = _run(bbp, 100, 8, 500, 13)
    print(f"{tally.tournaments} tournaments, {tally.rounds} rounds: {tally.differences} "
          f"differences, {tally.rejected} rejected")
    assert not problems, problems[:3]
    assert tally.rejected == 0
