"""Berger tables (FIDE C.05 Annex 1): the published tables for 4, 6, 8 and 12 players typed
from the regulation, and the construction rule checked for every size from 3 to 16."""

from __future__ import annotations

from itertools import combinations

import pytest

from chessarbiter.tournament.roundrobin import RoundRobinError, berger_round, schedule

PUBLISHED = {
    4: """1-4 2-3 / 4-3 1-2 / 2-4 3-1""",
    6: """1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 / 6-5 1-4 2-3 / 3-6 4-2 5-1""",
    8: """1-8 2-7 3-6 4-5 / 8-5 6-4 7-3 1-2 / 2-8 3-1 4-7 5-6 / 8-6 7-5 1-4 2-3 /
          3-8 4-2 5-1 6-7 / 8-7 1-6 2-5 3-4 / 4-8 5-3 6-2 7-1""",
    12: """1-12 2-11 3-10 4-9 5-8 6-7 / 12-7 8-6 9-5 10-4 11-3 1-2 /
           2-12 3-1 4-11 5-10 6-9 7-8 / 12-8 9-7 10-6 11-5 1-4 2-3 /
           3-12 4-2 5-1 6-11 7-10 8-9 / 12-9 10-8 11-7 1-6 2-5 3-4 /
           4-12 5-3 6-2 7-1 8-11 9-10 / 12-10 11-9 1-8 2-7 3-6 4-5 /
           5-12 6-4 7-3 8-2 9-1 10-11 / 12-11 1-10 2-9 3-8 4-7 5-6 /
           6-12 7-5 8-4 9-3 10-2 11-1""",
}
"""C.05 Annex 1's tables (White first), rounds separated by ``/``."""


def published(players: int) -> list[list[tuple[int, int]]]:
    return [[(int(w), int(b)) for w, b in (game.split("-") for game in text.split())]
            for text in PUBLISHED[players].split("/")]


@pytest.mark.parametrize("players", sorted(PUBLISHED))
def test_published_tables(players: int) -> None:
    rounds = schedule(players)
    assert [list(r.boards) for r in rounds] == published(players)
    assert all(r.bye is None for r in rounds)


@pytest.mark.parametrize("players", [3, 5, 7, 11])
def test_odd_number_plays_the_next_table_with_a_bye(players: int) -> None:
    """An odd number uses the table of one more player, the highest number being the bye:
    whoever meets it sits out."""
    table = published(players + 1)
    for game_round, listed in zip(schedule(players), table, strict=True):
        out = next(w if b == players + 1 else b for w, b in listed if players + 1 in (w, b))
        assert game_round.bye == out
        assert list(game_round.boards) == [g for g in listed if players + 1 not in g]


@pytest.mark.parametrize("players", range(3, 17))
def test_construction_rule(players: int) -> None:
    """Every pair meets once; nobody plays twice in a round; the highest (even) number has
    Black in odd rounds and White in even ones; of two others the lower number has White
    exactly when their difference is odd; board 1 is the highest number's game; each player's
    whites and blacks differ by at most one."""
    n = players + players % 2
    rounds = schedule(players)
    assert len(rounds) == n - 1
    met: list[frozenset[int]] = []
    whites = dict.fromkeys(range(1, players + 1), 0)
    for round_no, game_round in enumerate(rounds, 1):
        seated = [p for game in game_round.boards for p in game]
        seated += [] if game_round.bye is None else [game_round.bye]
        assert sorted(seated) == list(range(1, players + 1))
        for white, black in game_round.boards:
            met.append(frozenset((white, black)))
            whites[white] += 1
            if n in (white, black):
                assert (white == n) == (round_no % 2 == 0)
            else:
                low = min(white, black)
                assert (white == low) == ((white - black) % 2 == 1)
        if players == n:
            assert n in game_round.boards[0]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in combinations(range(1, players + 1), 2)), key=sorted)
    games = players - 1
    assert all(abs(2 * w - games) <= 1 for w in whites.values())


@pytest.mark.parametrize("players", range(3, 17))
def test_double_round_robin(players: int) -> None:
    """The second cycle reverses the colours of the first, whose last two rounds are
    exchanged (C.05's recommendation); from 5 players up nobody then has the same colour
    three times running (byes apart)."""
    first = list(schedule(players))
    first[-2], first[-1] = first[-1], first[-2]
    rounds = schedule(players, cycles=2)
    assert rounds[:len(first)] == tuple(first)
    for one, two in zip(first, rounds[len(first):], strict=True):
        assert two.boards == tuple((b, w) for w, b in one.boards) and two.bye == one.bye
    if players >= 5:
        for player in range(1, players + 1):
            colours = "".join("W" if g[0] == player else "B" for r in rounds
                              for g in r.boards if player in g)
            assert "WWW" not in colours and "BBB" not in colours, (player, colours)


@pytest.mark.parametrize(("players", "round_no"), [(1, 1), (4, 0), (4, 4), (5, 6)])
def test_bad_rounds(players: int, round_no: int) -> None:
    with pytest.raises(RoundRobinError, match=r"round|players"):
        berger_round(players, round_no)
