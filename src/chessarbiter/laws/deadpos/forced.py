"""Forced moves: while the side to move has exactly one legal move, the game can only go
one way, so the analysis plays it (Ambrona's "trivial progress")."""

from __future__ import annotations

from chessarbiter.core.attacks import (
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    attackers,
    bishop_attacks,
    rook_attacks,
)
from chessarbiter.core.movegen import pinned_pieces
from chessarbiter.core.moves import Move
from chessarbiter.core.position import Position
from chessarbiter.core.squares import BISHOP, KNIGHT, PAWN, QUEEN, ROOK
from chessarbiter.laws.deadpos.bitboards import pawn_push


def play_forced_moves(pos: Position) -> tuple[list[Move], bool]:
    """Play every forced move on ``pos`` (in place). Returns the moves played and whether a
    position repeated, in which case the forced sequence loops for ever."""
    played: list[Move] = []
    seen = {pos.key()}
    while True:
        moves = pos.legal_moves()
        if len(moves) != 1:
            return played, False
        pos.push(moves[0])
        played.append(moves[0])
        key = pos.key()
        if key in seen:
            return played, True
        seen.add(key)


def unforced(pos: Position) -> bool:
    """Whether the side to move has at least two legal moves (no forced move, no end of the
    game), read cheaply where it can be: the king's steps to squares no enemy unit attacks
    (the king's own square left empty for the sliders' lines), then, out of check, the moves
    of the other units (:func:`_free_moves`); else counted."""
    us = pos.turn
    king = pos.king(us)
    pieces = pos.pieces
    own = pos.occupied_co[us]
    occupied = own | pos.occupied_co[us ^ 1]
    without_king = occupied ^ (1 << king)
    steps = KING_ATTACKS[king] & ~own
    safe = 0
    while steps:
        low = steps & -steps
        steps ^= low
        if not attackers(pieces, us ^ 1, low.bit_length() - 1, without_king):
            safe += 1
            if safe == 2:
                return True
    if safe + _free_moves(pieces, us, king, own, occupied, 2 - safe) >= 2:
        return True
    return pos.count_legal_moves() > 1


def _free_moves(pieces: list[int], us: int, king: int, own: int, occupied: int, need: int) -> int:
    """Up to ``need`` (or a few more) legal moves of ``us``'s units other than the king, found
    without listing them: out of check, a unit not pinned (Art. 3.9) may make any move of
    its kind that the other units allow (a knight's, bishop's, rook's or queen's move, a
    pawn's step ahead); 0 in check. Castling and en passant are not counted."""
    them = us ^ 1
    if attackers(pieces, them, king, occupied):
        return 0
    ours = us << 3
    queens = pieces[them << 3 | QUEEN]
    free = ~pinned_pieces(
        king, own, occupied, pieces[them << 3 | ROOK] | queens, pieces[them << 3 | BISHOP] | queens
    )
    found = (pawn_push(pieces[ours | PAWN] & free, us) & ~occupied).bit_count()
    knights = pieces[ours | KNIGHT] & free
    while knights and found < need:
        low = knights & -knights
        knights ^= low
        found += (KNIGHT_ATTACKS[low.bit_length() - 1] & ~own).bit_count()
    bishops = pieces[ours | BISHOP]
    rooks = pieces[ours | ROOK]
    diagonal = bishops | pieces[ours | QUEEN]
    sliders = (diagonal | rooks) & free
    while sliders and found < need:
        low = sliders & -sliders
        sliders ^= low
        sq = low.bit_length() - 1
        reach = bishop_attacks(sq, occupied) if low & diagonal else 0
        if not low & bishops:
            reach |= rook_attacks(sq, occupied)
        found += (reach & ~own).bit_count()
    return found
