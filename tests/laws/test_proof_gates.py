"""The gates of the per-move dead-position proof (Art. 5.2.2, S9.6): composed dead positions
whose proof needs forced lines or a search, with pieces on both sides and no pawn wall the
static proofs can use, pass the gates and are proved; the mobility bound counts shut-in
pieces for nothing; the memo of turned-away positions never answers for a position whose
pawns all stand blocked."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import chess
import pytest

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.position import Position
from chessarbiter.laws.deadpos import proof
from chessarbiter.laws.deadpos.proof import proved_dead


@pytest.mark.parametrize(
    ("fen", "reason"),
    [
        # In check with a single reply; the pawns stand blocked by pieces (none stuck).
        ("N1n3Q1/1bP2k2/1P6/3N4/8/3q4/6K1/5rbB b - - 0 1", "the forced moves end in stalemate"),
        ("RBQ2n1N/P1P2Pp1/kn4P1/p7/P7/7r/8/4qbK1 b - - 0 1", "the forced moves end in stalemate"),
        # A single legal move: a bishop, a rook and a bishop shut in beside the kings.
        ("K1k5/P1Pp4/3P4/8/1P6/1p1p4/pPpP4/rbB5 w - - 0 1", "the forced moves end in stalemate"),
        # In check with two replies, no pawn can step: the search exhausts every line.
        ("1Q6/8/p7/P1p5/K1p5/P1P5/PnQ5/k2n4 w - - 0 1", "every line of play is exhausted"),
        # Black, not to move, has no move at all (its bishop is shut in): searched.
        ("k1b5/1pPp4/1P1P4/1P5p/5P1P/5PNR/3NPBBQ/4K2R w - - 0 1",
         "every line of play is exhausted"),
        # Black, not to move, has a single pawn step left.
        ("Bk6/1P6/1P6/8/5p2/7p/2PP1P1P/R3K3 w - - 0 1", "every line of play is exhausted"),
        # Two moves, kings and pawns only, and White nearly immobile.
        ("K7/8/k1p1p1p1/p1P1PPP1/P4P2/8/8/8 b - - 0 1", "every line of play is exhausted"),
    ],
)
def test_composed_dead_positions_pass_the_gates(fen: str, reason: str) -> None:
    pos = parse_fen(fen)
    proof._turned_away = (-1, 0, False)
    assert proved_dead(pos) == reason
    assert pos.fen() == fen


@pytest.mark.parametrize(
    "fen",
    [
        # A check with one reply in a real game (lichess): the game goes on.
        "8/8/1R6/P5kp/1P2KP2/8/r7/8 b - - 0 46",
        # Both sides with free heavy pieces behind a few rams.
        "r1bq1r2/5pk1/2n1p2p/3pP1pN/p1pP2P1/2P4Q/P1B2P1P/R3R1K1 b - - 1 23",
        chess.STARTING_FEN,
    ],
)
def test_live_positions_are_not_claimed(fen: str) -> None:
    proof._turned_away = (-1, 0, False)
    assert proved_dead(parse_fen(fen)) is None


def test_the_mobility_bound_counts_shut_in_pieces_for_nothing() -> None:
    boxed = parse_fen("k1b5/1pPp4/1P1P4/1P5p/5P1P/5PNR/3NPBBQ/4K2R w - - 0 1")
    assert proof._few_moves(boxed, 1, 0)  # Black: king, bishop and pawns, all stuck
    assert not proof._few_moves(boxed, 0, 2)
    start = Position()
    # 8 single pawn steps (the double steps are left out: a bound) and 4 knight jumps
    assert not proof._few_moves(start, 0, 11)
    assert proof._few_moves(start, 0, 12)


def test_the_king_steps_avoid_attacked_squares() -> None:
    pos = parse_fen("7k/5Q2/8/8/8/8/8/K7 b - - 0 1")
    assert proof._few_king_steps(pos, 1, 0)  # g8, g7, h7 all covered by the queen
    pos = parse_fen("7k/8/8/8/8/8/8/K7 b - - 0 1")
    assert not proof._few_king_steps(pos, 1, 2)


def test_the_memo_does_not_answer_once_every_pawn_is_blocked() -> None:
    """Turned away with no stuck pawn and one free, a quiet knight move that blocks that pawn
    leads to a position the gates must look at: the memo is not used for it."""
    pos = parse_fen("r3k2r/8/8/8/8/4P3/3N4/RN2K2R w - - 0 1")
    assert proved_dead(pos) is None
    assert proof._turned_away[:2] == (pos.key(), proof.QUIET_FOREVER)
    pos.push_uci("d2e4")  # the e3 pawn can no longer step
    assert proved_dead(pos) is None
    assert proof._turned_away[0] != pos.key()
    pos.push_uci("a8a7")  # a quiet move from a position not remembered
    assert proved_dead(pos) is None


def _reaching_the_proofs(*positions: Position) -> list[Position]:
    """The positions that the first gate of ``proved_dead`` lets through (none remembered
    before each), seen on the module run from its source: the installed one may be compiled
    (setup.py), and a compiled module's calls to its own functions cannot be intercepted."""
    spec = importlib.util.spec_from_file_location(
        "proof_from_source", Path(str(proof.__file__)).with_name("proof.py")
    )
    assert spec is not None and spec.loader is not None
    source: Any = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(source)
    calls: list[Position] = []
    inner = source._proved

    def counted(pos: Position, branch: bool, *, walls: bool = True) -> str | None:
        calls.append(pos)
        result: str | None = inner(pos, branch, walls=walls)
        return result

    source._proved = counted
    for pos in positions:
        source._turned_away = (-1, 0, False)
        source.proved_dead(pos)
    return calls


def test_the_first_gate_literals_match_the_constants() -> None:
    """``proved_dead`` spells MIN_STUCK, FEW_UNITS + 2 and the pawn and king indices as
    literals; a position with four stuck pawns and one free goes on to the proofs, one with
    three stuck and two free does not."""
    assert proof.MIN_STUCK == 4 and proof.FEW_UNITS + 2 == 8
    four = parse_fen("r3k2r/1n6/p1p5/P1P5/8/7P/1N6/R3K2R w - - 0 1")
    three = parse_fen("r3k2r/1n6/p7/P7/8/2P4P/1NP5/R3K2R w - - 0 1")
    assert _reaching_the_proofs(four, three) == [four]


def test_a_side_of_king_and_pawns_with_three_steps_is_turned_away_first() -> None:
    three = parse_fen("4k3/ppp5/8/8/8/8/PPP5/RN2K1NR w - - 0 1")
    two = parse_fen("4k3/pp6/8/8/8/8/PPP5/RN2K1NR w - - 0 1")
    assert _reaching_the_proofs(three, two) == [two]
    proof._turned_away = (-1, 0, False)
    assert proved_dead(three) is None
    assert proof._turned_away == (-1, 0, False)  # not remembered
