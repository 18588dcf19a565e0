"""A caged king against a lone piece (``deadpos.cage``), python-chess as the oracle."""

from __future__ import annotations

import random

import chess
import pytest

from chessarbiter.arbiter.oracles import FLAG_BUDGET, RULING_SECONDS
from chessarbiter.core.fen import parse_fen
from chessarbiter.core.squares import BLACK, WHITE
from chessarbiter.laws.deadpos import can_checkmate
from chessarbiter.laws.deadpos.cage import caged_unwinnable
from tests.laws.corpus_lines import labelled_positions, winnable_label

CAGED_QUEENS = (
    # the corpus's caged queens, White to mate: undetermined at a ruling's bound before
    "8/5ppp/8/8/ppp5/bkp4Q/qnp5/n1K5 b - - 0 1",
    "8/6pp/8/8/ppp5/bkp4Q/qnp2p2/n1K5 b - - 0 1",
    "8/6pp/8/4q3/ppp5/bkp4Q/qnp2p2/n1K5 b - - 0 1",
    "8/4b3/6r1/4q3/ppp5/bkp4Q/qnp5/n1K5 b - - 0 1",
    "8/6pp/8/8/ppp5/bkp4Q/qnp5/n1K5 b - - 0 1",
)
OTHER_CAGES = (
    "6Q1/8/8/8/ppp5/qkp3b1/rnp5/n1K5 b - - 0 1",
    "6Q1/8/4b3/8/ppp5/qkp3r1/rnp5/n1K5 b - - 0 1",
)


@pytest.mark.parametrize("fen", CAGED_QUEENS)
def test_the_caged_queens_are_decided_at_once(fen: str) -> None:
    pos = parse_fen(fen)
    verdict = can_checkmate(pos, WHITE, "full", FLAG_BUDGET, seconds=RULING_SECONDS)
    assert verdict.unwinnable and verdict.reason == "caged king" and verdict.nodes == 0
    assert can_checkmate(pos, WHITE, "quick").reason == "caged king"


@pytest.mark.parametrize("fen", CAGED_QUEENS + OTHER_CAGES)
def test_the_rule_is_the_same_for_black(fen: str) -> None:
    mirrored = chess.Board(fen).mirror()
    assert caged_unwinnable(parse_fen(fen), WHITE)
    assert caged_unwinnable(parse_fen(mirrored.fen()), BLACK)
    assert not caged_unwinnable(parse_fen(mirrored.fen()), WHITE)


def test_the_corpus_agrees() -> None:
    proved = 0
    for name in ("chasolver-positions.txt", "d3chess-test-vector.txt"):
        for label, pos in labelled_positions(name):
            for side in (0, 1):
                if caged_unwinnable(pos, side):
                    proved += 1
                    assert not winnable_label(label, side), (label, pos.fen(), side)
    assert proved == 10


def test_a_cage_without_the_knight_on_a1_opens() -> None:
    # nothing takes back on c2: Qh2 and Qxc2 mate
    fen = "8/6pp/8/8/ppp5/bkp4Q/qnp5/2K5 b - - 0 1"
    assert not caged_unwinnable(parse_fen(fen), WHITE)
    board = chess.Board(fen)
    for san in ("g6", "Qh2", "g5", "Qxc2#"):
        board.push_san(san)
    assert board.is_checkmate()
    verdict = can_checkmate(parse_fen(fen), WHITE, "full")
    assert verdict.winnable


def _proved(board: chess.Board, winner: int) -> bool:
    return caged_unwinnable(parse_fen(board.fen(), lenient=True), winner)


def _bare(board: chess.Board, colour: chess.Color) -> bool:
    return board.occupied_co[colour] == board.kings & board.occupied_co[colour]


def _one_move_on(board: chess.Board, winner: int) -> None:
    """The rule's induction, one move deep: after any legal move the loser is not mated,
    and the game has ended, or the winner has a bare king, or the rule proves the position
    again, or the lone piece took a caged unit with check and every reply takes it."""
    colour = winner == 0
    for move in list(board.legal_moves):
        board.push(move)
        if board.is_checkmate():
            assert board.turn == colour, (board.fen(), move)
        elif not board.is_stalemate() and not _bare(board, colour) and not _proved(board, winner):
            replies = list(board.legal_moves)
            assert replies and board.is_check() and board.turn != colour, (board.fen(), move)
            for reply in replies:
                board.push(reply)
                assert _bare(board, colour), (board.fen(), move, reply)
                board.pop()
        board.pop()


def _mutant(rng: random.Random, fen: str) -> chess.Board | None:
    """A cage with one or two units moved, added or taken off, or the winner's king or lone
    piece moved (the piece maybe of another kind)."""
    board = chess.Board(fen)
    for _ in range(rng.randint(1, 2)):
        empty = [sq for sq in chess.SQUARES if board.piece_at(sq) is None]
        change = rng.randrange(5)
        if change == 4:  # the winner's king elsewhere
            board.remove_piece_at(board.king(chess.WHITE) or 0)
            board.set_piece_at(rng.choice(empty), chess.Piece(chess.KING, chess.WHITE))
        elif change == 0:  # the winner's lone piece elsewhere, maybe of another kind
            queens = list(board.pieces(chess.QUEEN, chess.WHITE))
            if not queens:
                continue
            sq = queens[0]
            kind = rng.choice((chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN))
            board.remove_piece_at(sq)
            board.set_piece_at(rng.choice(empty), chess.Piece(kind, chess.WHITE))
        elif change == 1:  # another black unit
            kind = rng.choice((chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN))
            board.set_piece_at(rng.choice(empty), chess.Piece(kind, chess.BLACK))
        elif change == 2:  # a black unit taken off
            units = [sq for sq, p in board.piece_map().items() if p.color == chess.BLACK
                     and p.piece_type != chess.KING]
            board.remove_piece_at(rng.choice(units))
        else:  # a black unit moved
            units = [sq for sq, p in board.piece_map().items() if p.color == chess.BLACK
                     and p.piece_type != chess.KING]
            sq = rng.choice(units)
            piece = board.remove_piece_at(sq)
            assert piece is not None
            board.set_piece_at(rng.choice(empty), piece)
    board.turn = rng.choice((chess.WHITE, chess.BLACK))
    return board if board.is_valid() else None


def test_the_rule_holds_one_move_on_along_random_games() -> None:
    rng = random.Random(28)
    checked = proved_mutants = 0
    starts = [chess.Board(fen) for fen in CAGED_QUEENS + OTHER_CAGES]
    while len(starts) < 160:
        board = _mutant(rng, rng.choice(CAGED_QUEENS + OTHER_CAGES))
        if board is not None:
            proved_mutants += _proved(board, 0)
            starts.append(board)
    games = [(board, 0) for board in starts] + [(board.mirror(), 1) for board in starts[::4]]
    for board, winner in games:
        for _ in range(12):
            if _proved(board, winner):
                _one_move_on(board, winner)
                checked += 1
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
    assert proved_mutants >= 20 and checked >= 300
