"""The staged helpmate search: a winner with only pawns mates after the loser promotes a
piece for a winner's pawn to capture on its way to an open file; the budget; the position
left as it was; its place in the full mode."""

from __future__ import annotations

import pytest

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.squares import BLACK
from chessarbiter.laws.deadpos import can_checkmate
from chessarbiter.laws.deadpos.promote import StagedSearch, promotion_cost
from chessarbiter.laws.deadpos.strategy import Found, Spent
from chessarbiter.laws.deadpos.verdict import Winnability
from tests.laws.lines import mates

SHUT = "6kB/p3p1P1/2p3P1/p7/5K2/4P3/P1P5/8 w - - 0 1"
"""Black's king is shut in, every file is blocked: White's king clears the c-file, the
c-pawn promotes, a black pawn captures the new piece and promotes on the next file."""


@pytest.mark.parametrize("fen", [SHUT, "6kB/p3p1P1/2p3P1/p7/8/K3P3/P1P5/8 w - - 0 1"])
def test_staged_search_mates_through_the_losers_promotion(fen: str) -> None:
    pos = parse_fen(fen)
    found = StagedSearch(pos, 1).run(20_000)
    assert isinstance(found, Found) and mates(fen, found.line, 1)
    assert len(found.line) > 20
    assert found.nodes <= 20_000
    assert pos.fen() == parse_fen(fen).fen()


def test_staged_search_keeps_to_its_budget() -> None:
    spent = StagedSearch(parse_fen(SHUT), 1).run(3_000)
    assert isinstance(spent, Spent) and spent.nodes <= 3_000


def test_promotion_cost_counts_the_kings_walk_to_clear_a_file() -> None:
    pos = parse_fen(SHUT)
    assert promotion_cost(pos, 0, 8) == 8  # e3-e8, the king capturing e7 from f4 on the way
    assert promotion_cost(pos, 1, 8) == 10  # a5-a1, the king capturing a2 from g8


def test_full_mode_uses_the_staged_search_for_a_winner_with_pawns_only() -> None:
    verdict = can_checkmate(parse_fen(SHUT), BLACK, "full", budget=60_000)
    assert verdict.outcome is Winnability.WINNABLE
    assert verdict.reason == "staged search"
    assert mates(SHUT, verdict.line, 1)
