"""Tie-breaks (FIDE C.07 as applied from 1 April 2024) on small tournaments computed by hand
from the regulation's text, unplayed rounds included (Art. 16), and the pre-2023 virtual
opponent."""

from __future__ import annotations

from fractions import Fraction

import pytest

from chessarbiter.clock import Side
from chessarbiter.tournament.records import Cell, Code, Entrant, Scoring
from chessarbiter.tournament.standings import standings
from chessarbiter.tournament.tiebreaks import (
    TiebreakError,
    Tiebreaks,
    Unplayed,
    dp,
    parse_tiebreak,
)
from chessarbiter.tournament.unplayed import opponent_for

W, B = Side.WHITE, Side.BLACK
F = Fraction


def swiss() -> dict[int, list[Cell]]:
    """Six players, three rounds (ratings 2000, 1900, ... 1500 for 1-6):

    - round 1: 1-4 1-0, 2-5 ½-½, 3-6 +- (6 does not come: 3 wins by forfeit);
    - round 2: 1-2 1-0, 3-4 ½-½, 5 the pairing-allocated bye, 6 absent (Z);
    - round 3: 3-1 ½-½, 4-5 0-1, 2 a requested half-point bye, 6 withdrawn (Z).

    Scores: 1: 2½, 2: 1, 3: 2, 4: ½, 5: 2½, 6: 0.
    """
    return {
        1: [Cell(4, W, Code.WIN), Cell(2, W, Code.WIN), Cell(3, B, Code.DRAW)],
        2: [Cell(5, W, Code.DRAW), Cell(1, B, Code.LOSS), Cell(None, None, Code.HALF_BYE)],
        3: [Cell(6, W, Code.FORFEIT_WIN), Cell(4, W, Code.DRAW), Cell(1, W, Code.DRAW)],
        4: [Cell(1, B, Code.LOSS), Cell(3, B, Code.DRAW), Cell(5, W, Code.LOSS)],
        5: [Cell(2, B, Code.DRAW), Cell(None, None, Code.PAIRING_BYE), Cell(4, B, Code.WIN)],
        6: [Cell(3, B, Code.FORFEIT_LOSS), Cell(None, None, Code.ZERO_BYE),
            Cell(None, None, Code.ZERO_BYE)],
    }


RATINGS = {p: 2100 - 100 * p for p in range(1, 7)}


def table(unplayed: Unplayed = Unplayed.FIDE_2024) -> Tiebreaks:
    return Tiebreaks(swiss(), Scoring(), RATINGS, unplayed)


def value(name: str, player: int, unplayed: Unplayed = Unplayed.FIDE_2024) -> Fraction:
    return table(unplayed).value(parse_tiebreak(name), player)


def test_scores_and_adjusted_scores() -> None:
    """Scores as in the docstring of :func:`swiss`. Adjusted scores (Art. 16.3: only requested
    byes after the player's last round taken part in, 16.2.5, count as draws): 2's H in the
    last round counts ½ as scored: 1; 3's forfeit win (16.2.2) and 5's PAB (16.2.1) count
    their points: 2 and 2½; 6 took part in no round: its forfeit loss (16.2.4) counts 0, its
    two Z byes ½ each: 1. The 2023 reading also counts 6's forfeit loss as a draw: 1½.
    Before 2023, every unplayed round was a draw: 3 = 1½, 5 = 2, 6 = 1½."""
    t = table()
    assert [t.score(p) for p in range(1, 7)] == [F(5, 2), 1, 2, F(1, 2), F(5, 2), 0]
    assert [t.adjusted[p] for p in range(1, 7)] == [F(5, 2), 1, 2, F(1, 2), F(5, 2), 1]
    assert table(Unplayed.FIDE_2023).adjusted[6] == F(3, 2)
    assert [table(Unplayed.VIRTUAL).adjusted[p] for p in (3, 5, 6)] == [F(3, 2), 2, F(3, 2)]


def test_stored_dummy_setting_reads_as_the_current_rules() -> None:
    """``dummy``, the setting's name before the editions were told apart, is 2024's."""
    assert Unplayed("dummy") is Unplayed.FIDE_2024
    assert Unplayed("2023") is Unplayed.FIDE_2023


def test_buchholz_with_dummy_opponents() -> None:
    """BH (Art. 8.1) = the opponents' adjusted scores; an own unplayed round counts a dummy
    opponent with the player's own score (Art. 16.4):

    - 1: 4 (½) + 2 (1) + 3 (2) = 3½
    - 2: 5 (2½) + 1 (2½) + dummy for the H bye (own 1) = 6
    - 3: dummy for the forfeit win (own 2) + 4 (½) + 1 (2½) = 5
    - 4: 1 (2½) + 3 (2) + 5 (2½) = 7
    - 5: 2 (1) + dummy for the PAB (own 2½) + 4 (½) = 4
    - 6: three dummies with 0 = 0
    """
    assert [value("BH", p) for p in range(1, 7)] == [F(7, 2), 6, 5, 7, 4, 0]


def test_buchholz_cuts_remove_voluntary_unplayed_rounds_first() -> None:
    """Cut-1 (Art. 14.1, 16.5.1): 1: {½, 1, 2} less ½ = 3. 2: its requested H bye is a
    voluntary unplayed round: its dummy (1) goes, not the lowest value: 2½ + 2½ = 5. 3: a
    forfeit win is not voluntary (16.1), so the lowest value goes: {2, ½, 2½} less ½ =
    4½. 5: the pairing-allocated bye neither: {1, 2½, ½} less ½ = 3½. Median-1 of 4:
    {2½, 2, 2½} less 2 and 2½ = 2½. Cut-2 of 1: 2."""
    assert value("BH-C1", 1) == 3
    assert value("BH-C1", 2) == 5
    assert value("BH-C1", 3) == F(9, 2)
    assert value("BH-C1", 5) == F(7, 2)
    assert value("BH-M1", 4) == F(5, 2)
    assert value("BH-C2", 1) == 2


def test_cuts_keep_a_value_and_medians_need_enough() -> None:
    """A cut never removes the last value, and a median applies only when a value is left
    after it: 6's three dummies (0 each) cut twice leave 0; 1's three values under Median-2
    stay whole (3½); ARO-C1 of a player with one rated opponent is that rating."""
    assert value("BH-C2", 6) == 0
    assert value("BH-M2", 1) == F(7, 2)
    one = {1: [Cell(2, W, Code.WIN)], 2: [Cell(1, B, Code.LOSS)]}
    assert Tiebreaks(one, Scoring(), {1: 1800, 2: 1700}).value(parse_tiebreak("AROC"), 1) \
        == 1700


def test_sonneborn_berger() -> None:
    """SB (Art. 9.1): the opponents' (adjusted) scores times the game points scored against
    them, an own unplayed round counting the dummy's score times its points:

    - 1: 4 (½ x 1) + 2 (1 x 1) + 3 (2 x ½) = 2½
    - 2: 5 (2½ x ½) + 1 (2½ x 0) + dummy (1 x ½) = 1¾
    - 3: dummy (2 x 1) + 4 (½ x ½) + 1 (2½ x ½) = 3½
    - 5: 2 (1 x ½) + dummy (2½ x 1) + 4 (½ x 1) = 3½

    SB-C1 (Art. 14.1.1): the least significant value is the contribution of the opponent
    with the lowest score, the lowest product on equal scores: 1 loses 4's ½ x 1: 2. For 2,
    the H bye's dummy has the lowest score (1), so its ½ goes rather than the 0 against 1
    (a voluntary round's, cut first anyway, 16.5.1): 1¼.
    """
    assert [value("SB", p) for p in (1, 2, 3, 5)] == [F(5, 2), F(7, 4), F(7, 2), F(7, 2)]
    assert value("SB-C1", 1) == 2
    assert value("SB-C1", 2) == F(5, 4)


def test_virtual_opponent_before_2023() -> None:
    """The virtual opponent (rules before 2023): the player's score before the round, the
    opposite of the player's result in it, a draw in each later round:

    - 3, forfeit win in round 1 of 3: 0 + 0 + ½ x 2 = 1; BH = 1 + ½ + 2½ = 4
    - 5, PAB in round 2: ½ + 0 + ½ x 1 = 1; BH = 1 + 1 + ½ = 2½
    - 2, H bye in round 3: ½ + ½ + 0 = 1; BH = 2 + 2½ + 1 = 5½
    - 6: forfeit loss in round 1: 0 + 1 + 1 = 2; Z in round 2: 0 + 1 + ½ = 1½; Z in
      round 3: 0 + 1 = 1; BH = 4½

    And the published example of the rule: a default win in round 3 of 9 after 2 points
    contributes 2 + 0 + 6 x ½ = 5.
    """
    virtual = Unplayed.VIRTUAL
    assert [value("BH", p, virtual) for p in (3, 5, 2, 6)] == [4, F(5, 2), F(11, 2), F(9, 2)]
    nine = {1: [Cell(2, W, Code.WIN)] * 2 + [Cell(None, None, Code.PAIRING_BYE)]
            + [Cell(2, W, Code.WIN)] * 3 + [Cell(2, W, Code.LOSS)] * 3,
            2: [Cell(1, B, Code.LOSS)] * 9}
    assert opponent_for(nine[1], 3, Scoring(), virtual, 9) == 5


def test_counts() -> None:
    """WIN (Art. 7.1, with or without playing): 1: 2, 3: 1 (forfeit), 5: 2 (PAB + game).
    WON (over the board): 3: 0, 5: 1. BPG (played with Black): 1: 1, 4: 2, 5: 2, 3: 0.
    BWG: 5: 1 (round 3), 4: 0."""
    assert [value("WIN", p) for p in (1, 3, 5)] == [2, 1, 2]
    assert [value("WON", p) for p in (3, 5)] == [0, 1]
    assert [value("BPG", p) for p in (1, 4, 5, 3)] == [1, 2, 2, 0]
    assert [value("BWG", p) for p in (5, 4)] == [1, 0]


def test_progressive_score() -> None:
    """PS (Art. 7.5): 1: 1 + 2 + 2½ = 5½, cut-1 drops the first round's 1: 4½;
    5: ½ + 1½ + 2½ = 4½; 6: 0."""
    assert value("PS", 1) == F(11, 2)
    assert value("PS-C1", 1) == F(9, 2)
    assert value("PS", 5) == F(9, 2)
    assert value("PS", 6) == 0


def test_rating_tiebreaks() -> None:
    """ARO (Art. 10.1), forfeits left out: 1: (1700 + 1900 + 1800) / 3 = 1800; AROC drops
    the lowest, 1700: 1850; 3: 4 and 1 (the forfeit left out): (1700 + 2000) / 2 = 1850.
    TPR (Art. 10.2): 1: 2½ of 3 = 0.83 → dp 273: 1800 + 273 = 2073; 3: 1 of 2 = 0.50 →
    1850; 6 played no game: 0."""
    assert value("ARO", 1) == 1800
    assert value("AROC", 1) == 1850
    assert value("ARO", 3) == 1850
    assert value("TPR", 1) == 2073
    assert value("TPR", 3) == 1850
    assert value("TPR", 6) == 0


def test_dp_table() -> None:
    """B.02's table: 0.50 → 0, 0.83 → 273, 1.00 → 800, 0.17 → -273, 0.005 rounds to 0.01."""
    assert dp(F(1, 2)) == 0
    assert dp(F(83, 100)) == 273
    assert dp(F(1)) == 800
    assert dp(F(17, 100)) == -273
    assert dp(F(1, 200)) == -677


def round_robin() -> dict[int, list[Cell]]:
    """Four players, a single round robin (Berger rounds): 1 beats 2 and 3, draws 4;
    2 beats 3 and 4; 3 beats 4. Scores 1: 2½, 2: 2, 3: 1, 4: ½."""
    return {
        1: [Cell(4, W, Code.DRAW), Cell(2, W, Code.WIN), Cell(3, B, Code.WIN)],
        2: [Cell(3, W, Code.WIN), Cell(1, B, Code.LOSS), Cell(4, W, Code.WIN)],
        3: [Cell(2, B, Code.LOSS), Cell(4, B, Code.WIN), Cell(1, W, Code.LOSS)],
        4: [Cell(1, B, Code.DRAW), Cell(3, W, Code.LOSS), Cell(2, B, Code.LOSS)],
    }


def test_koya() -> None:
    """KS (Art. 9.2): points against those with at least half the maximum, 3 x 1 / 2 = 1½:
    players 1 (2½) and 2 (2). 1 scored 1 against 2 (its ½ against 4 does not count);
    2 scored 0 against 1; 3 scored 0 against 1 and 2; 4 scored ½ against 1."""
    t = Tiebreaks(round_robin(), Scoring(), {}, Unplayed.FIDE_2024)
    ks = parse_tiebreak("KS")
    assert [t.value(ks, p) for p in range(1, 5)] == [1, 0, 0, F(1, 2)]


def test_koya_with_an_odd_number() -> None:
    """Three players, a round robin of three rounds with a bye each: at most 2 points, so
    the bar is 1. 1 beats 2 and draws 3 (1½), 2 beats 3 (1), 3 has ½: 1's Koya is its
    point against 2 (3 is below the bar); 2 scored 0 against 1; 3 scored ½ against 1."""
    none = Cell(None, None, Code.NONE)
    cells = {1: [none, Cell(2, W, Code.WIN), Cell(3, B, Code.DRAW)],
             2: [Cell(3, W, Code.WIN), Cell(1, B, Code.LOSS), none],
             3: [Cell(2, B, Code.LOSS), none, Cell(1, W, Code.DRAW)]}
    t = Tiebreaks(cells, Scoring(), {}, Unplayed.FIDE_2024)
    ks = parse_tiebreak("KS")
    assert [t.value(ks, p) for p in (1, 2, 3)] == [1, 0, F(1, 2)]


def test_direct_encounter_breaks_a_tie_only_when_all_met() -> None:
    """DE (Art. 6) among {1, 2} of the round robin: 1 beat 2, so 1 scores 1 and 2 scores 0.
    In the Swiss, 1 and 5 (both 2½) never met: DE is 0 for both and the tie stands."""
    t = Tiebreaks(round_robin(), Scoring(), {}, Unplayed.FIDE_2024)
    de = parse_tiebreak("DE")
    assert (t.value(de, 1, {1, 2}), t.value(de, 2, {1, 2})) == (F(1), F(0))
    assert table().value(de, 1, {1, 5}) == table().value(de, 5, {1, 5}) == 0


def test_standings_order_ties_and_shared_places() -> None:
    """Points first: 1 and 5 (2½), 3 (2), 2 (1), 4 (½), 6 (0). BH splits 1 (3) and 5 (4):
    5 is first. With DE only, 1 and 5 stay tied and share first place, listed by start
    number; 3 is third."""
    entrants = [Entrant(p, f"P{p}", RATINGS[p]) for p in range(1, 7)]
    rows = standings(entrants, swiss(), Scoring(), [parse_tiebreak("BH")])
    assert [(r.place, r.entrant.start) for r in rows] == [(1, 5), (2, 1), (3, 3), (4, 2),
                                                          (5, 4), (6, 6)]
    assert rows[0].values == (F(4),)
    rows = standings(entrants, swiss(), Scoring(), [parse_tiebreak("DE")])
    assert [(r.place, r.entrant.start) for r in rows][:3] == [(1, 1), (1, 5), (3, 3)]


@pytest.mark.parametrize("name", ["XX", "BH-C3", "WIN-C1", "BH-Q1", ""])
def test_bad_names(name: str) -> None:
    with pytest.raises(TiebreakError, match="tie-break"):
        parse_tiebreak(name)


def test_names() -> None:
    assert parse_tiebreak("bh/c1").name == "BH-C1"
    assert parse_tiebreak("AROC").name == "ARO-C1"
    assert parse_tiebreak("BH-M2") == parse_tiebreak("BH-M2")
    assert parse_tiebreak("BH-M2").low == parse_tiebreak("BH-M2").high == 2
