"""Position.make/unmake: the same position as push/pop, without history."""

from __future__ import annotations

import random

import pytest

from chessarbiter.core.fen import parse_fen


@pytest.mark.parametrize(
    "fen",
    [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/pPp2ppp/8/3pP3/8/8/P1P2PpP/R3K2R w KQkq d6 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ],
)
def test_make_is_push_without_history(fen: str) -> None:
    """On random walks: after each legal move, make gives push's placement, rights, en
    passant square, side and key, and keeps the counters and the move stack; unmake
    restores the position."""
    rng = random.Random(fen)
    pos = parse_fen(fen)
    made = 0
    for _ in range(8):
        for _ply in range(30):
            moves = pos.legal_moves()
            if not moves:
                break
            before = pos.fen()
            for move in moves:
                undo = pos.make(move)
                after = (pos.fen(), pos.key(), pos.turn, list(pos.pieces), list(pos.occupied_co))
                pos.unmake(undo)
                assert pos.fen() == before
                pos.push(move)
                pushed = (pos.fen(), pos.key(), pos.turn, list(pos.pieces), list(pos.occupied_co))
                pos.pop()
                # the counters (the FEN's last two fields) are left as they were
                assert after[0].split()[:4] == pushed[0].split()[:4]
                assert after[0].split()[4:] == before.split()[4:]
                assert after[1:] == pushed[1:]
                made += 1
            pos.push(rng.choice(moves))
        while pos.move_stack:
            pos.pop()
    assert pos.fen() == fen and made > 1000


def test_a_null_move_hands_the_move_over_and_is_taken_back() -> None:
    pos = parse_fen("r3k2r/pPp2ppp/8/3pP3/8/8/P1P2PpP/R3K2R w KQkq d6 0 1")
    before = (pos.fen(), pos.key())
    undo = pos.make_null()
    passed = parse_fen("r3k2r/pPp2ppp/8/3pP3/8/8/P1P2PpP/R3K2R b KQkq - 0 1")
    assert pos.key() == passed.key() and pos.legal_moves() == passed.legal_moves()
    pos.unmake_null(undo)
    assert (pos.fen(), pos.key()) == before
