"""The Dutch system's rules on small hand-made tournaments (C.04.3, C.04.1, C.04.2,
C.04.5.1)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from chessarbiter.clock import Side
from chessarbiter.tournament.records import Cell, Code, Entrant, Scoring
from chessarbiter.tournament.swiss import PairingError, baku_points, pair_round
from chessarbiter.tournament.swiss.colours import allocate
from chessarbiter.tournament.swiss.state import Float, PlayerState, Strength, build_states

W, B = Side.WHITE, Side.BLACK


def _entrants(n: int) -> list[Entrant]:
    return [Entrant(i, f"P{i}", 2500 - 10 * i) for i in range(1, n + 1)]


def _state(start: int, colours: str, score: Fraction = Fraction(0)) -> PlayerState:
    return PlayerState(start=start, score=score, points=score,
                       colours=tuple(W if c == "W" else B for c in colours),
                       opponents=frozenset(), floats=(Float.NONE, Float.NONE),
                       bye_eligible=True, unplayed=0)


def test_round_one_top_half_meets_bottom_half_colours_alternate() -> None:
    pairing = pair_round(_entrants(6), {}, 1, total_rounds=5)
    assert pairing.boards == ((1, 4), (5, 2), (3, 6)) and pairing.bye is None
    black = pair_round(_entrants(6), {}, 1, total_rounds=5, initial_side=B)
    assert black.boards == ((4, 1), (2, 5), (6, 3))


def test_odd_round_gives_the_lowest_the_pab_and_requested_byes_are_not_paired() -> None:
    assert pair_round(_entrants(5), {}, 1, total_rounds=5).bye == 5
    pairing = pair_round(_entrants(5), {}, 1, total_rounds=5, requested={5: Code.HALF_BYE})
    assert pairing.bye is None and sorted(p for b in pairing.boards for p in b) == [1, 2, 3, 4]
    absent = pair_round(_entrants(5), {}, 1, total_rounds=5, absent={1})
    assert absent.boards == ((2, 4), (5, 3)) and absent.bye is None


def test_no_second_pab_and_no_second_meeting() -> None:
    cells = {1: [Cell(3, W, Code.WIN)], 2: [Cell(None, None, Code.PAIRING_BYE)],
             3: [Cell(1, B, Code.LOSS)]}
    pairing = pair_round(_entrants(3), cells, 2, total_rounds=3)
    assert pairing.bye != 2 and pairing.bye == 3  # C2; 1-3 already met (C1)
    assert pairing.boards == ((2, 1),)


def test_forfeits_are_not_meetings_and_carry_no_colour() -> None:
    cells = {1: [Cell(2, W, Code.FORFEIT_WIN)], 2: [Cell(1, B, Code.FORFEIT_LOSS)]}
    states = build_states(cells, 2, Scoring(), {})
    assert states[1].opponents == frozenset() and states[1].colours == ()
    assert states[1].floats[0] is Float.DOWN  # scored without playing (2025 rules 1.4.3)
    assert not states[1].bye_eligible and states[2].bye_eligible
    assert pair_round(_entrants(2), cells, 2, total_rounds=3).boards in (((1, 2),), ((2, 1),))


def test_colour_preferences() -> None:
    assert _state(1, "").preference == (None, Strength.NONE)
    assert _state(1, "W").preference == (B, Strength.STRONG)
    assert _state(1, "WB").preference == (W, Strength.MILD)
    assert _state(1, "BWW").preference == (B, Strength.ABSOLUTE)  # same colour twice
    assert _state(1, "WBWW").preference == (B, Strength.ABSOLUTE)
    assert _state(1, "BBWBB").preference == (W, Strength.ABSOLUTE)  # difference -3


def test_colour_allocation_rules() -> None:
    # E.1 both preferences granted
    assert allocate(_state(1, "B"), _state(2, "W"), 1, W) is W
    # E.2 the stronger preference (absolute over mild)
    assert allocate(_state(1, "WB"), _state(2, "BB"), 1, W) is B
    # E.3 alternate from the last round the two had different colours
    assert allocate(_state(1, "WBBW"), _state(2, "BWBW"), 1, B) is W
    # E.4 the higher ranked player's preference
    assert allocate(_state(1, "WB"), _state(2, "WB"), 1, B) is W
    # E.5 no preferences: initial colour for an odd place, the other for an even one
    assert allocate(_state(1, ""), _state(2, ""), 1, B) is B
    assert allocate(_state(1, ""), _state(2, ""), 2, B) is W


def test_baku_acceleration_points() -> None:
    points = baku_points(list(range(1, 12)), 9, Scoring())
    assert sorted(points) == [1, 2, 3, 4, 5, 6]  # 2 x ceil(11 / 4)
    one, half = Fraction(1), Fraction(1, 2)
    assert points[1][:5] == (one, one, one, half, half) and points[1][5] == 0
    pairing = pair_round(_entrants(8), {}, 1, total_rounds=9, acceleration="baku")
    assert {frozenset(b) for b in pairing.boards} == {frozenset(x) for x in
                                                       ((1, 3), (2, 4), (5, 7), (6, 8))}


def test_unpairable_round_and_bad_arguments() -> None:
    cells = {1: [Cell(2, W, Code.WIN)], 2: [Cell(1, B, Code.LOSS)]}
    with pytest.raises(PairingError):
        pair_round(_entrants(2), cells, 2, total_rounds=3)
    with pytest.raises(ValueError, match="round_no"):
        pair_round(_entrants(2), {}, 4, total_rounds=3)
    with pytest.raises(ValueError, match="rules"):
        pair_round(_entrants(2), {}, 1, total_rounds=3, rules="1992")  # type: ignore[arg-type]


def test_2017_rules_float_every_unplayed_round() -> None:
    cells = {1: [Cell(None, None, Code.ZERO_BYE)], 2: [Cell(None, None, Code.HALF_BYE)]}
    new = build_states(cells, 2, Scoring(), {})
    old = build_states(cells, 2, Scoring(), {}, rules="2017")
    assert new[1].floats[0] is Float.NONE and new[2].floats[0] is Float.DOWN  # 1.4.3
    assert old[1].floats[0] is Float.DOWN and old[2].floats[0] is Float.DOWN  # A.4.b
    assert pair_round(_entrants(2), cells, 2, total_rounds=3, rules="2017").boards == ((1, 2),)


def test_virtual_points_form_the_brackets() -> None:
    """XXA-style acceleration: virtual points per player and round raise a player's pairing
    score, not their real points."""
    one = (Fraction(1),)
    pairing = pair_round(_entrants(4), {}, 1, total_rounds=3, acceleration={3: one, 4: one})
    assert pairing.boards == ((3, 4), (1, 2))
    states = build_states({p: [] for p in range(1, 5)}, 1, Scoring(), {3: one})
    assert states[3].score == 1 and states[3].points == 0


def test_initial_colour_when_number_1_misses_round_1() -> None:
    """Player 1 has a half-point bye in round 1: player 2, the first paired, had the initial
    colour (white) and player 3, the second, black; the whole of round 1 is then as the
    rules give it (reading the initial colour from player 2 being even would reverse it)."""
    from chessarbiter.tournament.swiss.replay import initial_side, replay
    from chessarbiter.tournament.trf import parse, validate

    head = "001 {:4d}      Player {:<26} {:4d}                            {:>4}"
    rows = [(1, 2400, "0.5", "0000 - H"), (2, 2300, "1.0", "   4 w 1"),
            (3, 2200, "0.0", "   5 b 0"), (4, 2100, "0.0", "   2 b 0"),
            (5, 2000, "1.0", "   3 w 1")]
    text = "012 Small\rXXR 3\r" + "".join(
        head.format(n, str(n), rating, points).ljust(91) + cell + "\r"
        for n, rating, points, cell in rows)
    trf = parse(text)
    validate(trf)
    assert trf.players[1].cells[0].opponent == 4
    assert initial_side(trf) is Side.WHITE
    result = replay(trf, 1)
    assert result.computed.boards == ((2, 4), (5, 3)) and result.matches
