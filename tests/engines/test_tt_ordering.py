"""The transposition table and move ordering."""

from __future__ import annotations

import pytest

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.position import Position
from chessarbiter.core.squares import QUEEN
from chessarbiter.engines.ordering import captures, is_tactical, loses_material, order_moves
from chessarbiter.engines.tt import (
    EXACT,
    LOWER,
    MATE,
    TranspositionTable,
    entries_for_megabytes,
    from_tt,
    to_tt,
)
from tests.engines.helpers import random_positions

TACTICS = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",  # en passant
    "r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1",  # promotions, with and without capture
]


@pytest.mark.parametrize(
    "pos", [parse_fen(f) for f in TACTICS] + random_positions(20, seed=3), ids=str
)
def test_captures_are_the_tactical_moves_with_queen_promotions(pos: Position) -> None:
    expected = {m for m in pos.legal_moves()
                if is_tactical(pos, m) and (m >> 12 in (0, QUEEN))}
    found = captures(pos)
    assert len(found) == len(set(found))
    assert set(found) == expected


def test_castling_is_not_tactical() -> None:
    pos = parse_fen(TACTICS[0])
    assert not is_tactical(pos, pos.parse_uci("e1g1"))
    assert is_tactical(pos, pos.parse_uci("e5f7"))


def test_order_table_move_then_captures_then_killers_then_history() -> None:
    pos = parse_fen("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1")
    table, capture = pos.parse_uci("e1f1"), pos.parse_uci("d2d5")
    killer, liked = pos.parse_uci("d2a2"), pos.parse_uci("d2h2")
    history = [0] * (16 * 64)
    history[pos.board[liked & 63] << 6 | (liked >> 6) & 63] = 50
    ordered = order_moves(pos, pos.legal_moves(), table, (killer, 0), history)
    assert ordered[:4] == [table, capture, killer, liked]


def test_a_capture_losing_material_comes_after_the_killers_before_history() -> None:
    pos = parse_fen("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1")
    losing, killer, liked = (pos.parse_uci(m) for m in ("d1d5", "d1a4", "d1h5"))
    history = [0] * (16 * 64)
    history[pos.board[liked & 63] << 6 | (liked >> 6) & 63] = 50
    ordered = order_moves(pos, pos.legal_moves(), 0, (killer, 0), history)
    assert ordered[:3] == [killer, losing, liked]


@pytest.mark.parametrize(("fen", "move", "loses"), [
    ("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", True),  # the queen for a pawn
    ("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", False),  # an undefended pawn
    ("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", False),  # the rook behind wins it
    ("3rk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5", True),  # the rook for a pawn
    ("3qk3/8/8/3r4/8/8/3R4/3QK3 w - - 0 1", "d2d5", False),  # rook for rook, queens last
    ("4k3/8/4p3/3n4/8/8/8/3RK2B w - - 0 1", "h1d5", False),  # the bishop for a knight
    ("4k3/8/4p3/3n4/2N5/8/8/4K3 w - - 0 1", "c4e5", False),  # not a capture
])
def test_a_capture_losing_the_exchange_on_its_square_is_recognised(
    fen: str, move: str, loses: bool
) -> None:
    """The static exchange evaluation behind the quiescence search's pruning: the captures
    on the square played out, each side with its least valuable piece, through x-rays."""
    pos = parse_fen(fen)
    assert loses_material(pos, pos.parse_uci(move)) is loses


def test_the_table_keeps_the_deeper_result_unless_the_new_one_is_exact() -> None:
    tt = TranspositionTable()
    tt.put(1, 5, 30, LOWER, 77)
    tt.put(1, 2, 10, LOWER, 0)
    assert tt.get(1) == (5, 30, LOWER, 77)
    tt.put(1, 2, 10, EXACT, 0)
    assert tt.get(1) == (2, 10, EXACT, 77)  # the move is kept when none is given


def test_a_full_table_starts_again() -> None:
    tt = TranspositionTable(max_entries=2)
    for key in range(3):
        tt.put(key, 1, 0, EXACT, 0)
    assert len(tt) == 1
    assert tt.get(2) is not None
    tt.clear()
    assert len(tt) == 0


def test_mate_scores_are_stored_relative_to_the_node() -> None:
    assert from_tt(to_tt(MATE - 7, 4), 4) == MATE - 7
    assert to_tt(MATE - 7, 4) == MATE - 3
    assert from_tt(to_tt(-MATE + 9, 2), 5) == -MATE + 12
    assert to_tt(250, 9) == 250


def test_table_size_is_checked() -> None:
    assert entries_for_megabytes(1) > 1000
    with pytest.raises(ValueError, match="positive"):
        TranspositionTable(0)
