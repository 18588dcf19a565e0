"""Moves and boards in words (the accessible mode)."""

from __future__ import annotations

import pytest

from chessarbiter.core import Position, parse_fen
from chessarbiter.present.spoken import spoken_file, spoken_move, spoken_pieces, spoken_rank


@pytest.mark.parametrize(
    ("fen", "uci", "words"),
    [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3", "knight f3"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4", "pawn e4"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "castles king side"),
        ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "castles queen side"),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6",
         "e-pawn takes pawn en passant on d6"),
        ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", "pawn b8, promotes to queen, check"),
        ("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4",
         "queen h4, checkmate"),
        ("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", "f1f7", "queen f7, stalemate"),
        ("4k3/8/8/8/8/5n2/8/4K1N1 w - - 0 1", "g1f3", "knight takes knight on f3"),
        ("4k3/8/8/3b4/4P3/8/8/4K3 w - - 0 1", "e4d5", "e-pawn takes bishop on d5"),
        ("3rk3/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8n",
         "e-pawn takes rook on d8, promotes to knight"),
    ],
)
def test_spoken_move(fen: str, uci: str, words: str) -> None:
    pos = parse_fen(fen)
    before = pos.fen()
    assert spoken_move(pos, pos.parse_uci(uci)) == words
    assert pos.fen() == before


def test_reading_ranks_files_and_pieces() -> None:
    pos = Position()
    assert spoken_rank(pos, 1).startswith("rank 1: a1 white rook, b1 white knight")
    assert spoken_rank(pos, 4) == "rank 4: a4 to h4 empty"
    assert spoken_file(pos, "e") == (
        "file e: e1 white king, e2 white pawn, e3 to e6 empty, e7 black pawn, e8 black king"
    )
    assert spoken_pieces(pos, 1).startswith("black: king e8, queen d8, rooks a8 and h8")
    with pytest.raises(ValueError, match="ranks are 1 to 8"):
        spoken_rank(pos, 9)
    with pytest.raises(ValueError, match="files are a to h"):
        spoken_file(pos, "z")
