"""``can_checkmate`` and ``is_dead_position`` (Laws Art. 5.2.2, 6.9): decided cases, replayed
helpmates, bad input."""

from __future__ import annotations

import pytest

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.position import Position
from chessarbiter.core.squares import BLACK, WHITE, Side
from chessarbiter.laws.deadpos import (
    IllegalPositionError,
    Verdict,
    Winnability,
    can_checkmate,
    is_dead_position,
)


def replays_to_mate(pos: Position, verdict: Verdict) -> bool:
    """Whether the verdict's line is legal from ``pos`` and ends with the winner mating."""
    work = pos.copy()
    for move in verdict.line:
        if move not in work.legal_moves():
            return False
        work.push(move)
    return work.is_checkmate() and work.turn != verdict.winner


def test_queen_mates_with_a_replayable_line() -> None:
    pos = parse_fen("8/8/4k3/8/8/8/3QK3/8 w - - 0 1")
    verdict = can_checkmate(pos, WHITE)
    assert verdict.winnable and replays_to_mate(pos, verdict)
    assert can_checkmate(pos, BLACK).unwinnable


def test_knight_needs_a_blocker() -> None:
    pos = parse_fen("8/8/8/8/8/8/8/k1K1N3 w - - 0 1")
    assert can_checkmate(pos, WHITE).unwinnable
    blocked = parse_fen("8/8/8/8/8/8/8/kbK1N3 w - - 0 1")
    verdict = can_checkmate(blocked, WHITE)
    assert verdict.winnable and replays_to_mate(blocked, verdict)


def test_checkmate_on_the_board_comes_first() -> None:
    pos = parse_fen("8/8/8/8/8/2b1k1b1/8/3RKR2 w - - 0 1", lenient=True)
    assert can_checkmate(pos, BLACK).winnable
    assert can_checkmate(pos, BLACK).line == ()
    assert can_checkmate(pos, WHITE).unwinnable
    assert can_checkmate(pos, BLACK, "quick").outcome is Winnability.UNDETERMINED


@pytest.mark.parametrize(
    ("fen", "reason"),
    [
        ("8/8/4k3/8/8/8/3BK3/8 w - - 0 1", "material"),  # king steps: no forced move
        ("8/8/8/8/3q4/8/8/k1K1N3 b - - 0 1", "material"),  # the queen moves: no forced move
        ("7k/5K2/6B1/8/8/8/8/8 b - - 0 1", "the game ends without that mate"),  # stalemate
        ("qK6/3k4/8/8/8/8/8/8 w - - 0 1", "material"),  # Kxa8 forced first
    ],
)
def test_material_answers_first_only_when_nothing_is_forced(fen: str, reason: str) -> None:
    pos = parse_fen(fen, lenient=True)
    for mode in ("quick", "full"):
        verdict = can_checkmate(pos, WHITE, mode)
        assert verdict == Verdict(Winnability.UNWINNABLE, WHITE, reason=reason), verdict
    assert pos.fen() == parse_fen(fen, lenient=True).fen()


def test_forced_moves_are_played() -> None:
    # Black's only move is Kxa8; then no mating material is left.
    pos = parse_fen("qK6/3k4/8/8/8/8/8/8 w - - 0 1", lenient=True)
    for mode in ("quick", "full"):
        assert can_checkmate(pos, WHITE, mode).unwinnable
        assert can_checkmate(pos, BLACK, mode).unwinnable


def test_pawn_wall_is_a_dead_position() -> None:
    pos = parse_fen("8/4k3/8/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 1")
    assert is_dead_position(pos) is Winnability.UNWINNABLE
    assert is_dead_position(parse_fen("8/4k3/8/8/8/8/4K3/4R3 w - - 0 1"), "full") is (
        Winnability.WINNABLE
    )


def test_quick_mode_never_claims_winnable() -> None:
    pos = parse_fen("8/8/4k3/8/8/8/3QK3/8 w - - 0 1")
    assert can_checkmate(pos, WHITE, "quick").outcome is Winnability.UNDETERMINED


def test_a_spent_budget_is_undetermined_not_a_guess() -> None:
    pos = Position()
    verdict = can_checkmate(pos, WHITE, budget=5)
    assert verdict.outcome is Winnability.UNDETERMINED
    assert verdict.nodes <= 6


@pytest.mark.parametrize(
    ("fen", "winner"),
    [
        ("k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - - 0 1", WHITE),  # a winner with pieces
        ("8/p1p1p3/8/8/8/6p1/P1P1P1Pp/k6K w - - 0 1", WHITE),  # a winner with pawns only
    ],
)
def test_the_searches_share_the_budget_and_keep_to_it(fen: str, winner: Side) -> None:
    # Neither is decided within 20,000 nodes: every search has its turns and the total stays
    # within the budget (the guided search may take one node over; the very short guided
    # search before the pawn structures, a 400th, and the progress search, a quarter, come
    # on top).
    verdict = can_checkmate(parse_fen(fen), winner, "full", budget=20_000)
    assert verdict.outcome is Winnability.UNDETERMINED and verdict.reason == "budget spent"
    assert 19_000 <= verdict.nodes <= 20_000 + 20_000 // 400 + 20_000 // 4 + 4


def test_the_position_is_not_changed() -> None:
    pos = parse_fen("8/8/4k3/8/8/8/3QK3/8 w - - 0 1")
    before = pos.snapshot()
    can_checkmate(pos, WHITE)
    assert pos.snapshot() == before


@pytest.mark.parametrize(
    ("fen", "winner", "reason"),
    [
        ("2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1", WHITE, "piece mobility"),
        ("Bb1k1b2/bKp1p1p1/1pP1P1P1/pP6/6P1/P7/8/8 w - - 0 1", BLACK, "pawn structures"),
        ("B7/8/8/8/4r3/8/7p/5K1k w - - 0 1", BLACK, "search"),
        ("Bb1k1b2/bKp1p1p1/1pP1P1P1/pP6/6P1/P7/8/8 w - - 0 1", WHITE, "quick mode"),
    ],
)
def test_quick_mode_leaves_the_position_as_it_was(fen: str, winner: Side, reason: str) -> None:
    # with no forced move the quick stages run on the position itself, without a copy
    pos = parse_fen(fen)
    before = pos.snapshot()
    assert can_checkmate(pos, winner, "quick").reason == reason
    assert pos.snapshot() == before and not pos.move_stack


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"winner": 2}, "winner must be 0"),
        ({"winner": 0, "mode": "fast"}, "mode must be"),
        ({"winner": 0, "budget": 0}, "budget must be"),
    ],
)
def test_bad_arguments_are_named(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        can_checkmate(Position(), **kwargs)  # type: ignore[arg-type]


def test_illegal_positions_are_refused() -> None:
    checked = parse_fen("4k3/8/8/8/8/8/8/K3R3 w - - 0 1", lenient=True)
    with pytest.raises(IllegalPositionError, match="black is in check"):
        can_checkmate(checked, WHITE)
    pawn = parse_fen("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", lenient=True)
    with pytest.raises(IllegalPositionError, match="a8"):
        can_checkmate(pawn, WHITE)
