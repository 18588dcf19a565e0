"""Material that can never mate (Laws Art. 5.2.2, 6.9), against python-chess's rule."""

from __future__ import annotations

import chess
import pytest

from chessarbiter.core.fen import parse_fen
from chessarbiter.laws.deadpos.material import cannot_mate_by_material


@pytest.mark.parametrize(
    ("fen", "white", "black"),
    [
        ("8/8/4k3/8/8/8/4K3/8 w - - 0 1", True, True),
        ("8/8/4k3/8/8/8/3NK3/8 w - - 0 1", True, True),
        ("8/8/4k3/4r3/8/8/3NK3/8 w - - 0 1", False, False),
        ("8/8/4k3/4q3/8/8/3NK3/8 w - - 0 1", True, False),
        ("8/8/4k3/4p3/8/8/3NK3/8 w - - 0 1", False, False),
        ("8/8/4k3/2b5/8/8/3BK3/8 w - - 0 1", True, True),
        ("8/8/2b1k3/8/8/8/3BK3/8 w - - 0 1", False, False),
        ("8/8/4k3/8/8/8/2BBK3/8 w - - 0 1", False, True),
        ("8/8/3nk3/8/8/8/3BK3/8 w - - 0 1", False, False),
        ("8/8/4k3/8/8/8/3PK3/8 w - - 0 1", False, True),
    ],
)
def test_known_cases(fen: str, white: bool, black: bool) -> None:
    pos = parse_fen(fen)
    assert cannot_mate_by_material(pos.pieces, 0) is white
    assert cannot_mate_by_material(pos.pieces, 1) is black


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/4k3/8/8/8/3NK3/8 w - - 0 1",
        "8/8/2b1k3/8/8/8/3BK3/8 w - - 0 1",
        "8/8/1b2k3/8/8/8/2B1K1B1/8 w - - 0 1",
        "8/8/4k3/8/8/8/4K3/8 w - - 0 1",
    ],
)
def test_never_claims_less_than_python_chess(fen: str) -> None:
    board = chess.Board(fen)
    pos = parse_fen(fen)
    for colour, pc in ((0, chess.WHITE), (1, chess.BLACK)):
        if board.has_insufficient_material(pc):
            assert cannot_mate_by_material(pos.pieces, colour)
