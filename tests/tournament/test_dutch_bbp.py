"""Pairings identical to bbpPairings on every round of random tournaments made by its own
generator (forfeits, half-point byes, retirements as it makes them): each round re-paired
here from the file as it was before the round equals bbpPairings's ``-p`` pairing of that
file (pairs, colours, bye and board order), and ``tournament check`` accepts every
untouched file.

The seeds are new on every run (``CHESSARBITER_BBP_SEED`` repeats one); a failure names
the seed, the size and the round."""

from __future__ import annotations

import pytest

from chessarbiter.tournament.swiss.replay import pair_next
from chessarbiter.tournament.trf import parse
from tests.tournament.bbp import Bbp, before_round, compare


def test_every_round_as_bbppairings(bbp: Bbp) -> None:
    """6 tournaments of 8-40 players, 5-9 rounds."""
    tally, problems = compare(bbp, 6, 8, 40, 9)
    assert tally.tournaments == 6 and tally.rounds >= 30
    assert not problems, problems[:3]
    assert tally.rejected == 0


def test_every_round_as_bbppairings_310_scoring(bbp: Bbp) -> None:
    """3 points a win, 1 a draw (the generator writes the ``162`` record)."""
    tally, problems = compare(bbp, 3, 8, 40, 7, "PointsForWin=3\nPointsForDraw=1\n")
    assert tally.tournaments == 3
    assert not problems, problems[:3]
    assert tally.rejected == 0


@pytest.mark.long
def test_every_round_as_bbppairings_large(bbp: Bbp) -> None:
    """At least 100 tournaments of 8-500 players (sizes spread evenly on a log scale),
    5-13 rounds: 0 differences, 0 rejected files."""
    tally, problems = compare(bbp, 100, 8, 500, 13)
    print(f"{tally.tournaments} tournaments, {tally.rounds} rounds: {tally.differences} "
          f"differences, {tally.rejected} rejected")
    assert tally.tournaments == 100
    assert not problems, problems[:3]
    assert tally.rejected == 0


def test_pab_on_the_lowest_score_over_a_perfect_bracket(bbp: Bbp) -> None:
    """Round 5 of 5, 3/1/0 scoring (generator seed 70416989, 35 players): the 9-point
    bracket {30, 35} could pair 30-35 at once, but then 25 and 32 (met already) leave the
    PAB to 32 (1 point) instead of 31 (0 points); C5 ranks above the bracket's own pairs,
    so both float: 30-25, 32-35, the PAB to 31, as bbpPairings pairs it."""
    path = bbp.generate(70416989, 35, 5, extra="PointsForWin=3\nPointsForDraw=1\n")
    assert path is not None
    trf = parse(path.read_bytes().decode("latin-1"))
    text = before_round(trf, 5, 5)
    mine = pair_next(parse(text))
    assert mine == bbp.pair(text)
    assert mine.bye == 31 and {(30, 25), (32, 35)} <= set(mine.boards)
