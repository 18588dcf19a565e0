"""Move ordering for the helpmate search: a cheap score per move (lower is more promising),
computed from the move alone without playing it, after the heuristics Ambrona describes
(FUN 2022).

The plan it steers towards: the loser's king walks to a mating corner (of the winner's
bishops' colour when those are all on one colour); the winner's king and pieces come
close to it (a winner with nothing but pawns sends its king to take the unit blocking its
most advanced pawn instead); the winner's pawns advance and promote to queens; the
winner captures the loser's pieces (unless it mates only with minor pieces, which need
the loser's pieces as blockers); the loser offers its pieces for capture, promotes to a
knight or bishop when the winner needs a blocker, and avoids capturing the winner's
material.
"""

from __future__ import annotations

from typing import Final

from chessarbiter.core.attacks import (
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    PAWN_ATTACKS,
    bishop_attacks,
    rook_attacks,
)
from chessarbiter.core.moves import CASTLE_FLAG, Move
from chessarbiter.core.position import Position
from chessarbiter.core.squares import BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK, squares_of
from chessarbiter.laws.deadpos.material import DARK_SQUARES, LIGHT_SQUARES

CORNERS: Final = (0, 7, 56, 63)
DISTANCE: Final = tuple(
    tuple(max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3))) for b in range(64))
    for a in range(64)
)
"""``DISTANCE[a][b]``: king steps between two squares."""


def attacked_by(pos: Position, colour: int) -> int:
    """Every square ``colour`` attacks (pins ignored)."""
    pieces = pos.pieces
    occupied = pos.occupied_co[0] | pos.occupied_co[1]
    base = colour << 3
    out = 0
    steppers = ((PAWN, PAWN_ATTACKS[colour]), (KNIGHT, KNIGHT_ATTACKS), (KING, KING_ATTACKS))
    for kind, table in steppers:
        bb = pieces[base | kind]
        while bb:
            low = bb & -bb
            bb ^= low
            out |= table[low.bit_length() - 1]
    for kind in (BISHOP, ROOK, QUEEN):
        bb = pieces[base | kind]
        while bb:
            low = bb & -bb
            bb ^= low
            sq = low.bit_length() - 1
            if kind != ROOK:
                out |= bishop_attacks(sq, occupied)
            if kind != BISHOP:
                out |= rook_attacks(sq, occupied)
    return out


def gives_check(pos: Position, move: int, king: int) -> bool:
    """Whether the moved piece itself attacks ``king`` from its new square (discovered
    checks and castling are not seen)."""
    fr = move & 63
    to = (move >> 6) & 63
    kind = (move >> 12) & 7 or pos.board[fr] & 7
    target = 1 << king
    if kind == KNIGHT:
        return bool(KNIGHT_ATTACKS[to] & target)
    if kind == PAWN:
        return bool(PAWN_ATTACKS[pos.turn][to] & target)
    if kind == KING:
        return False
    occupied = (pos.occupied_co[0] | pos.occupied_co[1]) & ~(1 << fr)
    if kind != ROOK and bishop_attacks(to, occupied) & target:
        return True
    return kind != BISHOP and bool(rook_attacks(to, occupied) & target)


def _blocker(pos: Position, winner: int, default: int) -> int:
    """The square of the loser's unit (not the king) in front of the winner's most
    advanced pawn that has one, which the winner's king then goes to take; else
    ``default``."""
    pawns = squares_of(pos.pieces[winner << 3 | PAWN])
    step = 8 if winner == 0 else -8
    for pawn in sorted(pawns, key=lambda sq: -sq * step):
        sq = pawn + step
        while 0 <= sq < 64:
            if pos.board[sq]:
                if pos.occupied_co[winner ^ 1] >> sq & 1 and pos.board[sq] & 7 != KING:
                    return sq
                break
            sq += step
    return default


class Guide:
    """Scores moves for one intended winner; the mating corner is chosen once."""

    def __init__(self, pos: Position, winner: int) -> None:
        self.winner = winner
        self.loser = winner ^ 1
        pieces = pos.pieces
        w = winner << 3
        self.needs_blockers = not (
            pieces[w | PAWN] or pieces[w | ROOK] or pieces[w | QUEEN]
        )
        bishops = pieces[w | BISHOP]
        corners: tuple[int, ...] = CORNERS
        if bishops and not pieces[w | KNIGHT]:
            if not bishops & LIGHT_SQUARES:
                corners = (0, 63)
            elif not bishops & DARK_SQUARES:
                corners = (7, 56)
        king = pos.king(self.loser)
        self.corner = min(corners, key=lambda c: DISTANCE[king][c])
        self.target = self.corner
        if pos.occupied_co[winner] == pieces[w | PAWN] | pieces[w | KING]:
            self.target = _blocker(pos, winner, self.corner)

    def order(self, pos: Position, moves: list[Move]) -> list[Move]:
        """``moves`` best first."""
        if pos.turn == self.winner:
            scored = [(self._winner_score(pos, m), i, m) for i, m in enumerate(moves)]
        else:
            offered = attacked_by(pos, self.winner)
            scored = [(self._loser_score(pos, m, offered), i, m) for i, m in enumerate(moves)]
        scored.sort()
        return [m for _, _, m in scored]

    def _winner_score(self, pos: Position, move: int) -> int:
        board = pos.board
        fr = move & 63
        to = (move >> 6) & 63
        near = DISTANCE[self.corner]
        kind = board[fr] & 7
        score = 0
        if board[to] and not move & CASTLE_FLAG:
            score -= 2 if self.needs_blockers else 8 + 2 * (board[to] & 7)
        if kind == PAWN:
            advance = (to >> 3) if self.winner == 0 else 7 - (to >> 3)
            promoted = (move >> 12) & 7
            score -= 2 + advance + (20 if promoted == QUEEN else 0)
            if promoted and promoted != QUEEN:
                score += 24
        elif kind == KING and self.target != self.corner:
            score += 4 * (DISTANCE[self.target][to] - DISTANCE[self.target][fr])
        elif kind == KING:
            score += 4 * (abs(near[to] - 2) - abs(near[fr] - 2))
        elif kind in (QUEEN, ROOK):
            score += max(near[to], 3) - max(near[fr], 3)
        else:
            score += 2 * (near[to] - near[fr])
        return score

    def _loser_score(self, pos: Position, move: int, offered: int) -> int:
        board = pos.board
        fr = move & 63
        to = (move >> 6) & 63
        near = DISTANCE[self.corner]
        kind = board[fr] & 7
        score = 0
        if board[to] and not move & CASTLE_FLAG:
            score += 10
        if kind == KING:
            return score + 4 * (near[to] - near[fr])
        promoted = (move >> 12) & 7
        if promoted:
            wanted = promoted in (KNIGHT, BISHOP) if self.needs_blockers else promoted == QUEEN
            score += -6 if wanted else 6
        if self.needs_blockers:
            return score + near[to] - near[fr] - (3 if kind == PAWN else 0)
        if offered >> to & 1:
            score -= 4
        return score + 1
