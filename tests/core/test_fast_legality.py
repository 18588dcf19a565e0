"""The single-move legality test and the "any legal move?" test against the move list, on
the positions of random games (python-chess's moves choose the games' lines), with and
without the check state known beforehand; the castling moves alone against the list."""

from __future__ import annotations

import random

from chessarbiter.core import movegen
from chessarbiter.core.fen import parse_fen
from chessarbiter.core.moves import CASTLE_FLAG
from chessarbiter.core.position import Position

GAMES = 60
MAX_PLIES = 160
SPECIAL = (
    "r3k2r/pPp2ppp/8/3pP3/8/8/P1PP1PPP/R3K2R w KQkq d6 0 1",  # en passant, promotions, castling
    "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 1",  # en passant exposing the king along the rank
    "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1",  # in check
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",  # stalemate
    "4k3/4q3/8/8/8/8/3PPP2/3QKB2 w - - 0 1",  # pinned pawn
    "4k3/8/8/8/8/2N5/4r3/N3K1B1 w - - 0 1",  # in check, pieces off the king's lines
)


def _candidates(pos: Position, rng: random.Random) -> list[int]:
    """Every move code of the side to move's pieces, each promotion too, and some noise."""
    own = [sq for sq in range(64) if pos.board[sq] and pos.board[sq] >> 3 == pos.turn]
    out = [fr | to << 6 | promo << 12 for fr in own for to in range(64) for promo in (0, 2, 5, 6)]
    out += [m | CASTLE_FLAG for m in out[:: 97]] + [rng.randrange(1 << 16) for _ in range(50)]
    return out


def _agrees(pos: Position, rng: random.Random) -> None:
    legal = set(pos.legal_moves())
    checked = movegen.in_check(pos)
    assert checked == pos.is_check(), pos.fen()
    assert pos.has_legal_move() == bool(legal), pos.fen()
    assert movegen.has_legal_move(pos, checked) == bool(legal), pos.fen()
    assert sorted(movegen.castling_moves(pos)) == sorted(m for m in legal if m & CASTLE_FLAG)
    for move in list(legal) + _candidates(pos, rng):
        assert pos.is_legal(move) == (move in legal), (pos.fen(), move)
        assert movegen.is_legal(pos, move, checked) == (move in legal), (pos.fen(), move)


def test_fast_legality_matches_the_move_list_in_random_games() -> None:
    rng = random.Random(11)
    for _ in range(GAMES):
        pos = Position()
        for ply in range(MAX_PLIES):
            if ply % 7 == 0:
                _agrees(pos, rng)
            moves = pos.legal_moves()
            if not moves:
                _agrees(pos, rng)
                break
            pos.push(rng.choice(moves))


def test_fast_legality_in_special_positions() -> None:
    rng = random.Random(5)
    for fen in SPECIAL:
        _agrees(parse_fen(fen), rng)
    assert not parse_fen(SPECIAL[3]).has_legal_move()
