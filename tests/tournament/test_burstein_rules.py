"""The Burstein system's rules (C.04.4.2) on small rounds worked out by hand from the
articles (and the same as bbpPairings ``--burstein`` gives)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from chessarbiter.clock import Side
from chessarbiter.tournament.records import Cell, Code, Entrant, Scoring
from chessarbiter.tournament.swiss import PairingError, burstein, pair_round

W, B = Side.WHITE, Side.BLACK
HALF = Fraction(1, 2)


def _entrants(n: int) -> list[Entrant]:
    return [Entrant(p, f"Player {p}") for p in range(1, n + 1)]


def test_seeding_points_go_to_the_upper_half() -> None:
    win = Fraction(1)
    assert sorted(burstein.seeding_points({p: () for p in range(1, 11)}, 1, set(), win)) \
        == [1, 2, 3, 4, 5]
    assert sorted(burstein.seeding_points({p: () for p in range(1, 12)}, 1, set(), win)) \
        == [1, 2, 3, 4, 5]
    # number 2 misses round 1: half of the 10 paired is 5, and 2 is ranked among them
    assert sorted(burstein.seeding_points({p: () for p in range(1, 12)}, 1, {2}, win)) \
        == [1, 2, 3, 4, 5, 6]
    assert burstein.seeding_points({p: () for p in range(1, 12)}, 3, set(), win) == {}


def test_round_one_highest_meets_lowest_in_each_half() -> None:
    """Seeding: 1-4 score as winners; in each group the highest meets the lowest (6.4);
    with no colour history the higher ranked takes the initial colour at an odd pairing
    number (1, 5), the other at an even one (2, 6)."""
    pairing = pair_round(_entrants(8), {}, 1, total_rounds=5, system="burstein")
    assert pairing.boards == ((1, 4), (3, 2), (5, 8), (7, 6)) and pairing.bye is None
    black = pair_round(_entrants(8), {}, 1, total_rounds=5, system="burstein",
                       initial_side=B)
    assert black.boards == ((4, 1), (2, 3), (8, 5), (6, 7))


CELLS = {1: [Cell(2, W, Code.WIN), Cell(3, B, Code.DRAW)],
         2: [Cell(1, B, Code.LOSS), Cell(None, None, Code.HALF_BYE)],
         3: [Cell(4, W, Code.DRAW), Cell(1, W, Code.DRAW)],
         4: [Cell(3, B, Code.DRAW), Cell(None, None, Code.ZERO_BYE)]}


def test_index_counts_unplayed_rounds_as_games_against_a_virtual_opponent() -> None:
    """3.2 and 2: opponents' scores count their unplayed rounds as draws (1: 1½, 2: ½,
    3: 1, 4: 1); a player's own unplayed round is a game against a virtual opponent who had
    his score then and the opposite result (2's half-point bye: ½; 4's zero bye: 1½)."""
    field = burstein.field_of(CELLS, 3, Scoring(), set(), None, W)
    index = burstein.indices(field)

    def sb_bh(p: int) -> tuple[Fraction, Fraction]:
        scale = index[p].scale
        return Fraction(index[p].sb, scale * scale), Fraction(index[p].bh, scale)

    assert sb_bh(1) == (Fraction(1), Fraction(3, 2))
    assert sb_bh(2) == (Fraction(1, 4), Fraction(2))
    assert sb_bh(3) == (Fraction(5, 4), Fraction(5, 2))
    assert sb_bh(4) == (HALF, Fraction(5, 2))


def test_a_group_that_cannot_pair_is_merged_and_ordered_by_index() -> None:
    """1 (1½) has met 2 and 3 over the board: 3's group takes in the ½ group (6.6) and 1
    floats into it; ordered by Sonneborn-Berger (3, 1, 4, 2) 3 takes the lowest, 2, and 1
    meets 4. Colours: 3 has had White twice (absolute Black), 4 one Black (strong White)
    against 1's alternation (mild White)."""
    pairing = pair_round(_entrants(4), CELLS, 3, total_rounds=5, system="burstein")
    assert pairing.boards == ((4, 1), (2, 3)) and pairing.bye is None


def test_the_bye_skips_who_had_one_or_a_forfeit_win() -> None:
    """3 and 2 have had the pairing-allocated bye (3 also a forfeit win): it goes to 1,
    though 2 is ranked lower (C.04.1 d); a requested full-point bye is no obstacle."""
    cells = {1: [Cell(2, W, Code.WIN), Cell(3, B, Code.FORFEIT_LOSS)],
             2: [Cell(1, B, Code.LOSS), Cell(None, None, Code.PAIRING_BYE)],
             3: [Cell(None, None, Code.PAIRING_BYE), Cell(1, W, Code.FORFEIT_WIN)]}
    pairing = pair_round(_entrants(3), cells, 3, total_rounds=4, system="burstein")
    assert pairing.bye == 1 and sorted(pairing.boards[0]) == [2, 3]
    cells[1] = [Cell(None, None, Code.FULL_BYE), Cell(None, None, Code.FULL_BYE)]
    cells[2] = [Cell(None, None, Code.PAIRING_BYE), Cell(None, None, Code.HALF_BYE)]
    cells[3] = [Cell(None, None, Code.FULL_BYE), Cell(None, None, Code.PAIRING_BYE)]
    assert pair_round(_entrants(3), cells, 3, total_rounds=4, system="burstein").bye == 1
    cells[1] = [Cell(None, None, Code.PAIRING_BYE), Cell(None, None, Code.FULL_BYE)]
    with pytest.raises(PairingError):
        pair_round(_entrants(3), cells, 3, total_rounds=4, system="burstein")


def test_unknown_system_is_refused() -> None:
    with pytest.raises(ValueError, match="pairing system"):
        pair_round(_entrants(4), {}, 1, total_rounds=3, system="monrad")  # type: ignore[arg-type]
