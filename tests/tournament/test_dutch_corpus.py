"""Every round of the corpus tournaments (paired by bbpPairings, FIDE Dutch 2025 rules)
re-paired from the tournament as it was before that round: the same pairs, the same colours
and the same bye; and the next-round cases give their ``.pairs`` files exactly."""

from __future__ import annotations

import pytest

from chessarbiter.tournament.swiss.replay import format_pairs, pair_next, replay, rounds_of
from chessarbiter.tournament.trf import parse
from tests.corpus import corpus_path

QUICK = ["dutch_p15_r5_s101", "dutch_p24_r7_s77_310scoring", "dutch_p30_r7_s12345",
         "dutch_p30_r7_s12345_A", "dutch_p51_r9_s202"]
SLOW = ["dutch_p100_r9_s303", "dutch_p201_r11_s404", "dutch_p400_r9_s9", "dutch_p1000_r5_s7"]
"""Every round of these takes 25 s to minutes of CPU in pure Python; the default run keeps
one round of a 201- and a 400-player file (below)."""
QUICK_NEXT = [("p11_round1_trf2026", "p11_round1"), ("p11_round1_trf2026_baku", "p11_round1_baku"),
              ("p30A_after_r5", "p30A_r6"), ("p201_after_r6", "p201_r7"),
              ("p400_after_r8", "p400_r9")]
SLOW_NEXT = [("p1000_after_r4", "p1000_r5")]


def _every_round_matches(name: str) -> None:
    trf = parse(corpus_path("pairings", "generated", f"{name}.trf").read_text("latin-1"))
    rounds = rounds_of(trf)
    assert rounds >= 5
    bad = []
    for round_no in range(1, rounds + 1):
        result = replay(trf, round_no)
        assert result.recorded.boards, "the file records the round"
        if not result.matches:
            bad.append((round_no, sorted(set(result.recorded.boards) - set(result.computed.boards)),
                        sorted(set(result.computed.boards) - set(result.recorded.boards)),
                        result.recorded.bye, result.computed.bye))
    assert not bad, bad


def _next_round_matches(trf_name: str, pairs_name: str) -> None:
    trf = parse(corpus_path("pairings", "next_round", f"{trf_name}.trf").read_text("latin-1"))
    expected = corpus_path("pairings", "next_round", f"{pairs_name}.pairs").read_text()
    assert format_pairs(pair_next(trf)) == expected


@pytest.mark.parametrize("name", QUICK)
def test_every_round_as_bbppairings(name: str) -> None:
    _every_round_matches(name)


@pytest.mark.long
@pytest.mark.parametrize("name", SLOW)
def test_every_round_as_bbppairings_large(name: str) -> None:
    _every_round_matches(name)


@pytest.mark.parametrize(("trf_name", "pairs_name"), QUICK_NEXT)
def test_next_round_as_bbppairings(trf_name: str, pairs_name: str) -> None:
    _next_round_matches(trf_name, pairs_name)


@pytest.mark.long
@pytest.mark.parametrize(("trf_name", "pairs_name"), SLOW_NEXT)
def test_next_round_as_bbppairings_large(trf_name: str, pairs_name: str) -> None:
    _next_round_matches(trf_name, pairs_name)


def test_a_swapped_colour_is_found() -> None:
    """The checker's negative case: round 3's colours of 1-6 swapped by hand; the rounds
    after it then differ too (as bbpPairings' checker reports)."""
    trf = parse(corpus_path("pairings", "checker", "p30A_colour_swapped_r3.trf")
                .read_text("latin-1"))
    wrong = [r for r in range(1, rounds_of(trf) + 1) if not replay(trf, r).matches]
    assert wrong == [3, 4, 5]
    assert set(replay(trf, 3).computed.boards) - set(replay(trf, 3).recorded.boards) == {(6, 1)}
