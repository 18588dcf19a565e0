"""Burstein pairings (C.04.4.2) identical to bbpPairings ``--burstein`` on every round of
random tournaments made by its own generator in Burstein mode (forfeits, half-point byes,
retirements as it makes them): each round re-paired here from the file as it was before
the round equals bbpPairings's ``-p`` pairing of that file (pairs, colours, bye and board
order), and ``tournament check`` accepts every untouched file.

bbpPairings is built with the mend described in ``tests/tournament/bbp.py`` (its Burstein
mode otherwise crashes whenever the bye goes to the last player). The seeds are new on
every run (``CHESSARBITER_BBP_SEED`` repeats one); a failure names the seed, the size and
the round."""

from __future__ import annotations

import pytest

from tests.tournament.bbp import Bbp, compare


def test_every_round_as_bbppairings(bbp: Bbp) -> None:
    """4 tournaments of 8-40 players, 5-9 rounds."""
    tally, problems = compare(bbp, 4, 8, 40, 9, system="burstein")
    assert tally.tournaments == 4 and tally.rounds >= 20
    assert not problems, problems[:3]
    assert tally.rejected == 0


def test_every_round_as_bbppairings_310_scoring(bbp: Bbp) -> None:
    """3 points a win, 1 a draw (the index then weighs scores of 3/1/0)."""
    tally, problems = compare(bbp, 2, 8, 30, 7, "PointsForWin=3\nPointsForDraw=1\n",
                              system="burstein")
    assert tally.tournaments == 2
    assert not problems, problems[:3]
    assert tally.rejected == 0


@pytest.mark.long
def test_every_round_as_bbppairings_large(bbp: Bbp) -> None:
    """At least 100 tournaments of 8-500 players (sizes spread evenly on a log scale),
    5-13 rounds: 0 differences, 0 rejected files."""
    tally, problems = compare(bbp, 100, 8, 500, 13, system="burstein")
    print(f"{tally.tournaments} tournaments, {tally.rounds} rounds: {tally.differences} "
          f"differences, {tally.rejected} rejected")
    assert tally.tournaments == 100
    assert not problems, problems[:3]
    assert tally.rejected == 0
