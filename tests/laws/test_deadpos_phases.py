"""The exploration of pawn structures with pieces abstracted to regions (``deadpos.phases``)."""

from __future__ import annotations

import pytest

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.position import Position
from chessarbiter.core.squares import KING, PAWN, Side, parse_square
from chessarbiter.laws.deadpos import can_checkmate, phases
from chessarbiter.laws.deadpos.phases import _castles, _en_passant, phases_unwinnable
from chessarbiter.laws.deadpos.static import statically_unwinnable
from tests.laws.corpus_lines import labelled_positions, winnable_label

SHUFFLES = (
    # bishops shuffle behind locked pawns; the black pawn on a2 is held by the king on a1
    "k1b5/Pp1b4/1P6/8/8/1p6/pP1B4/K1B5 w - - 0 1",
    "k1b1b1b1/Pp1b1b1b/1P6/8/8/1p6/pP1B1B1B/K1B1B1B1 w - - 0 1",
)


@pytest.mark.parametrize("fen", SHUFFLES)
def test_proves_what_the_static_analysis_misses(fen: str) -> None:
    pos = parse_fen(fen)
    for side in Side:
        assert not statically_unwinnable(pos, side)
        assert phases_unwinnable(pos, side, 100)[0]
        verdict = can_checkmate(pos, side, "full", 2_000)
        assert verdict.unwinnable and verdict.reason == "pawn structures"
        assert can_checkmate(pos, side, "quick", 1).unwinnable


def test_a_capture_opens_the_wall() -> None:
    # white can win only after the knight or a pawn capture changes the structure
    pos = parse_fen("8/1k5B/7b/8/1p1p1p1p/1PpP1P1P/2P3K1/N3b3 b - - 0 1")
    assert phases_unwinnable(pos, 0, 100) == (True, 8)
    assert phases_unwinnable(pos, 0, 3) == (False, 3)


@pytest.mark.parametrize(
    ("fen", "side"),
    [
        # the caged white king on h3/h4 is mated on h4 only with the black king on h2; it
        # cannot have come from h3 then, and every capture that opens the cage stalemates
        ("8/8/3b3p/5p1P/3b1p1K/5Pp1/6P1/5kb1 w - - 0 1", 1),
        ("1k6/b1b5/7p/5p1P/5p2/5PpK/6P1/8 w - - 0 1", 1),
        # the black king shuttles a5-a6 and can only be mated on a5 with a6 covered by the
        # white king from a7, which it could not have left a6 next to
        ("8/1p6/1Pp5/k1P5/p1P5/P1K1B3/3B4/8 w - - 0 1", 0),
    ],
)
def test_tempo_and_stalemate(fen: str, side: int) -> None:
    pos = parse_fen(fen)
    assert not statically_unwinnable(pos, side)
    assert phases_unwinnable(pos, side, 100)[0]


@pytest.mark.parametrize(
    "fen",
    [
        "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/2B1KN2 w - - 0 1",
        "7k/5K2/8/8/8/8/8/6N1 b - - 0 1",
        "6k1/8/6K1/8/8/8/8/R7 w - - 0 1",
        "6k1/8/5K2/8/8/8/8/R7 b - - 0 1",
    ],
)
def test_never_claims_a_mating_side(fen: str) -> None:
    assert not phases_unwinnable(parse_fen(fen), 0, 5_000)[0]


def test_castling_is_a_move_inside_a_phase() -> None:
    # the king could castle only once its stuck bishop and knight had moved
    pos = parse_fen("2k5/8/8/3B4/2Bp1p1p/1BpP1P1P/2P1BPBP/3BKBNR w K - 0 1")
    assert phases_unwinnable(pos, 0, 50)[0]
    assert not phases_unwinnable(Position(), 0, 50)[0]
    assert _castles(Position(), 0) == 1 << parse_square("g1") | 1 << parse_square("c1")
    assert _castles(Position(), 1) == 1 << parse_square("g8") | 1 << parse_square("c8")


@pytest.mark.parametrize(
    ("fen", "proved"),
    [
        # seven bishops shuffle along eight squares: whichever is empty, a6 stays defended
        ("B1B1B1B1/pBpBpBp1/P1P1P1P1/4b3/5b2/8/8/k1K5 w - - 0 1", True),
        # with two holes, b7 and c8 may both be empty and the king takes a6
        ("2B1B1B1/pBpBpBp1/P1P1P1P1/4b3/5b2/8/8/k1K5 w - - 0 1", False),
    ],
)
def test_a_group_with_one_hole_defends_its_pawns(fen: str, proved: bool) -> None:
    pos = parse_fen(fen)
    for side in Side:
        assert phases_unwinnable(pos, side, 100)[0] is proved


def test_a_king_keeps_off_squares_next_to_all_of_the_other_kings_region() -> None:
    # the black king never leaves c8-e8, so the white king can never pass by d7 or d8
    pos = parse_fen("BbK1kb2/b1p1p1p1/1pP1P1P1/1P6/8/8/8/1B2b2B b - - 0 1")
    assert phases_unwinnable(pos, 1, 100)[0]


def test_chess960_castling_rights_are_not_analysed() -> None:
    pos = parse_fen("2k5/8/8/8/8/8/8/1R2K1R1 w GB - 0 1", chess960=True)
    assert phases_unwinnable(pos, 1, 50) == (False, 0)


@pytest.mark.parametrize("name", ["chasolver-positions.txt", "d3chess-test-vector.txt"])
def test_corpus_sample_is_never_wrong(name: str) -> None:
    proved = 0
    for label, pos in labelled_positions(name, 7):
        for side in Side:
            if phases_unwinnable(pos, side, 500)[0]:
                assert not winnable_label(label, side), (pos.fen(), side)
                proved += 1
    assert proved > 0


@pytest.mark.parametrize(
    ("fen", "side"),
    [
        # e5 could be taken en passant only right after a double step, which it never makes
        ("7b/8/1k1p1p2/3PpP2/3pKp2/3P1P2/8/3B1B2 w - - 0 1", 0),
        # both knight moves (f1, g4) mate the caged white king, so the knight never moves
        ("6b1/8/1k6/3p1p2/3PpP2/3pKp2/3P1P1n/B7 w - - 0 1", 0),
        # Ra1 mates the white king, so the rook stays on a2 and the a-pawn never moves
        ("6B1/b7/2k5/p1p1p1pB/P1P1P1P1/pp6/rp6/1K2b3 b - - 0 1", 0),
        # d2-d1 mates the white king: that promotion ends the game
        ("7B/1b6/3k4/Bp1p4/1P1Pp1p1/1pppP1P1/2p5/2K5 b - - 0 1", 0),
    ],
)
def test_en_passant_and_moves_that_mate_the_winner(fen: str, side: int) -> None:
    pos = parse_fen(fen)
    assert not statically_unwinnable(pos, side)
    assert phases_unwinnable(pos, side, 500)[0]


def test_en_passant_only_from_the_double_step() -> None:
    # black has just played d7-d5: exd6 is the one en-passant transition
    pos = parse_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
    white, black = pos.pieces[PAWN], pos.pieces[8 | PAWN]
    kings = ((0, KING, 1 << parse_square("e1")), (1, KING, 1 << parse_square("e8")))
    d5, d6 = 1 << parse_square("d5"), 1 << parse_square("d6")
    (entry,) = _en_passant(white, black, kings, d5)
    assert (entry.mover, entry.white, entry.black, entry.dst) == (0, d6, 0, d6)
    assert not _en_passant(white, black, kings, 0)


def test_explorations_are_shared_by_shuffled_pieces() -> None:
    # the king and bishops stepping within their regions give the same root phase: one
    # exploration serves both, with the answer a fresh exploration gives
    before = parse_fen("8/1k5B/7b/8/1p1p1p1p/1PpP1P1P/2P3K1/N3b3 b - - 0 1")
    after = parse_fen("k7/7B/7b/8/1p1p1p1p/1PpP1P1P/2P3K1/N3b3 w - - 0 1")
    phases._explored.clear()
    assert phases_unwinnable(before, 0, 100) == (True, 8)
    assert len(phases._explored) == 1
    assert phases_unwinnable(after, 0, 100) == (True, 8)
    assert len(phases._explored) == 1
    phases._explored.clear()
    assert phases_unwinnable(after, 0, 100) == (True, 8)
    # a different cap is another exploration
    assert phases_unwinnable(after, 0, 3) == (False, 3)
    assert len(phases._explored) == 2
