"""The check test without making the move (``movegen.gives_check``) against python-chess's
``gives_check`` (a test-only oracle) for every legal move of the positions of random walks
from every position of the corpus' perft suites (Chess960 included) and of a few special
positions; the kinds of check met are counted, so that the sample cannot lose one unnoticed.
"""

from __future__ import annotations

import random
from collections import Counter

import chess

from chessarbiter.core import movegen
from chessarbiter.core.fen import parse_fen
from chessarbiter.core.position import Position
from tests.core.test_perft import FILES, read_suite
from tests.corpus import corpus_path

WALKS = 1
PLIES = 8
SPECIAL = (
    "8/8/8/RPp4k/8/8/8/K7 w - c6 0 1",  # en passant opening the rank: a discovered check
    "7k/8/8/3pP3/8/8/8/B3K3 w - d6 0 1",  # en passant opening the long diagonal
    "8/8/8/8/1k1pP3/8/5K2/8 b - e3 0 1",  # the pawn taking en passant checks
    "5k2/8/8/8/8/8/8/4K2R w K - 0 1",  # castling short, the rook checks on f1
    "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",  # castling long, the rook checks on d1
    "1k6/4P3/8/8/8/8/8/4K3 w - - 0 1",  # promotions: the queen and the rook check on e8
    "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1",  # the promotion to a knight checks from e8
    "k7/8/2N5/8/8/8/6B1/4K3 w - - 0 1",  # the knight uncovers the bishop's diagonal
    "4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1",  # the knight uncovers the rook's file
    "6k1/8/8/8/8/8/1Q6/KR6 w - - 0 1",  # the queen checks along a diagonal from far
)


def _kind(board: chess.Board, move: chess.Move) -> str:
    """How the move checks: castling, en passant, promotion, direct or discovered."""
    if board.is_castling(move):
        return "castling"
    if board.is_en_passant(move):
        return "en passant"
    if move.promotion:
        return "promotion"
    board.push(move)
    checkers = board.checkers()
    board.pop()
    return "discovered" if checkers != chess.SquareSet(chess.BB_SQUARES[move.to_square]) else (
        "direct")


def _agrees(pos: Position, board: chess.Board, seen: Counter[str]) -> None:
    for m in pos.legal_moves():
        theirs = board.parse_uci(pos.uci(m))
        expected = board.gives_check(theirs)
        assert movegen.gives_check(pos, m) == expected, (board.fen(), pos.uci(m))
        if expected:
            seen[_kind(board, theirs)] += 1


def _walk(fen: str, chess960: bool, rng: random.Random, seen: Counter[str]) -> None:
    pos = parse_fen(fen, chess960=chess960, lenient=True)
    board = chess.Board(fen, chess960=chess960)
    for _ in range(PLIES):
        _agrees(pos, board, seen)
        moves = pos.legal_moves()
        if not moves:
            return
        move = rng.choice(moves)
        board.push(board.parse_uci(pos.uci(move)))
        pos.push(move)


def test_gives_check_agrees_with_python_chess_on_the_perft_suites() -> None:
    rng = random.Random(29)
    seen: Counter[str] = Counter()
    positions = 0
    for name in FILES:
        for fen, chess960, _ in read_suite(corpus_path("perft", name)):
            positions += 1
            for _ in range(WALKS):
                _walk(fen, chess960, rng, seen)
    assert positions > 1100
    assert all(seen[kind] >= 20 for kind in ("direct", "discovered", "promotion")), seen
    assert seen["castling"] > 0 and seen["en passant"] > 0, seen


def test_gives_check_in_special_positions() -> None:
    seen: Counter[str] = Counter()
    for fen in SPECIAL:
        _agrees(parse_fen(fen), chess.Board(fen), seen)
    assert seen["castling"] == 2 and seen["en passant"] == 3, seen
    assert seen["promotion"] == 3 and seen["discovered"] >= 10, seen
