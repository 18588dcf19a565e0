"""The cheap proofs after each legal move (``deadpos.plies``)."""

from __future__ import annotations

import pytest

from chessarbiter.core.fen import parse_fen
from chessarbiter.laws.deadpos.phases import phases_unwinnable
from chessarbiter.laws.deadpos.plies import every_move_proved


@pytest.mark.parametrize(
    ("fen", "side"),
    [
        # after any black move white must play Bxb7 (its only move): black's last light
        # piece goes, and the wall stays shut
        ("B2b4/1b6/2k5/8/1p1p1p1p/1PpP1P1P/K1P4b/NB6 b - - 0 1", 0),
        ("B7/1b6/2k5/8/1p1p1p1p/1PpP1P1P/K1Pb4/NB6 b - - 0 1", 1),
    ],
)
def test_a_forced_reply_decides(fen: str, side: int) -> None:
    pos = parse_fen(fen)
    assert not phases_unwinnable(pos, side, 500)[0]
    assert every_move_proved(pos, side, 500)
    assert pos == parse_fen(fen)


@pytest.mark.parametrize(
    ("fen", "side"),
    [
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", 0),
        ("7k/8/6K1/8/8/8/8/R7 w - - 0 1", 0),
        ("6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1", 0),
    ],
)
def test_never_claims_a_mating_side(fen: str, side: int) -> None:
    assert not every_move_proved(parse_fen(fen), side, 5_000)
