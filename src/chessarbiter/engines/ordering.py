"""Move ordering for the search: the table move, then captures by MVV-LVA (most valuable
victim, least valuable attacker), killer moves, the captures that lose material by static
exchange, and quiet moves by history; plus the capture generator of the quiescence search
and the static exchange evaluation that prunes it and orders the captures."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from chessarbiter.core import movegen
from chessarbiter.core.attacks import attackers
from chessarbiter.core.moves import CASTLE_FLAG, Move
from chessarbiter.core.squares import QUEEN, RANKS
from chessarbiter.engines.tables import ORDER_VALUE

if TYPE_CHECKING:
    from chessarbiter.core.position import Position

_PROMOTION_RANKS: Final = RANKS[0] | RANKS[7]
_QUEENING: Final = QUEEN << 12
TT_SCORE: Final = 1 << 40
CAPTURE_SCORE: Final = 1 << 32
KILLER_SCORE: Final = 1 << 31
LOSING_SCORE: Final = 1 << 20
"""Captures that lose material by static exchange (:func:`loses_material`): after the
killers, before the quiet moves."""
MOVE_BITS: Final = 16
MOVE_MASK: Final = (1 << MOVE_BITS) - 1
"""Moves are sorted as ints: the score shifted left of the move (no tuple per move)."""


def captures(pos: Position) -> list[Move]:
    """The legal captures (en passant included) and queen promotions."""
    piece_sets, pawn_sets, singles = movegen.move_sets(pos, captures_only=True)
    opp = pos.occupied_co[pos.colour_to_move() ^ 1]
    out: list[int] = [m for m in singles if not m & CASTLE_FLAG]
    for i in range(0, len(piece_sets), 2):
        fr = piece_sets[i]
        targets = piece_sets[i + 1] & opp
        while targets:
            low = targets & -targets
            targets ^= low
            out.append(fr | (low.bit_length() - 1) << 6)
    for i in range(0, len(pawn_sets), 2):
        delta = pawn_sets[i]
        targets = pawn_sets[i + 1] & (opp | _PROMOTION_RANKS)
        while targets:
            low = targets & -targets
            targets ^= low
            to = low.bit_length() - 1
            out.append((to - delta) | to << 6 | (_QUEENING if low & _PROMOTION_RANKS else 0))
    return out  # type: ignore[return-value]


def is_tactical(pos: Position, move: int) -> bool:
    """Whether a move captures or promotes (castling is neither)."""
    if move & CASTLE_FLAG:
        return False
    to = (move >> 6) & 63
    board = pos.board
    return bool(board[to] or move >> 12 or (to == pos.ep_square and board[move & 63] & 7 == 1))


def capture_score(board: list[int], move: int) -> int:
    """MVV-LVA: the victim's value first, the attacker's as a tie-break; promotions count
    the new piece. En passant (an empty target) counts as a pawn."""
    victim = board[(move >> 6) & 63] & 7 or 1
    attacker = board[move & 63] & 7
    return ORDER_VALUE[victim] * 16 + ORDER_VALUE[(move >> 12) & 7] * 16 - attacker


def order_captures(pos: Position, moves: list[Move]) -> list[Move]:
    """Captures sorted by MVV-LVA."""
    board = pos.board
    keyed = [capture_score(board, m) << MOVE_BITS | m for m in moves]
    keyed.sort(reverse=True)
    return [Move(k & MOVE_MASK) for k in keyed]


def order_moves(
    pos: Position,
    moves: list[Move],
    tt_move: int,
    killers: tuple[int, int],
    history: list[int],
) -> list[Move]:
    """All moves, best candidates first (equal scores: the higher move number first)."""
    board = pos.board
    keyed: list[int] = []
    for m in moves:
        if m == tt_move:
            score = TT_SCORE
        elif is_tactical(pos, m):
            score = capture_score(board, m) + (
                LOSING_SCORE if loses_material(pos, m) else CAPTURE_SCORE)
        elif m == killers[0]:
            score = KILLER_SCORE + 1
        elif m == killers[1]:
            score = KILLER_SCORE
        else:
            score = history[board[m & 63] << 6 | (m >> 6) & 63]
        keyed.append(score << MOVE_BITS | m)
    keyed.sort(reverse=True)
    return [Move(k & MOVE_MASK) for k in keyed]


def loses_material(pos: Position, move: int) -> bool:
    """Whether a capture loses material once the exchanges on its square are played out
    with the least valuable piece first (a static exchange evaluation below zero). Only a
    capture by a piece worth more than its victim can; promotions and en passant count as
    not losing."""
    board = pos.board
    to = (move >> 6) & 63
    fr = move & 63
    on_square = ORDER_VALUE[board[fr] & 7]
    gain = ORDER_VALUE[board[to] & 7]
    if move >> 12 or on_square <= gain or not board[to]:
        return False
    p = pos.pieces
    occupied = (pos.occupied_co[0] | pos.occupied_co[1]) ^ 1 << fr
    side = pos.colour_to_move() ^ 1
    gains = [gain]
    while True:
        gains.append(on_square - gains[-1])
        if max(-gains[-2], gains[-1]) < 0:
            break
        hits = attackers(p, side, to, occupied) & occupied
        if not hits:
            break
        base = side << 3
        for kind in range(1, 7):
            bb = hits & p[base | kind]
            if bb:
                occupied ^= bb & -bb
                on_square = ORDER_VALUE[kind]
                break
        side ^= 1
    gains.pop()
    while len(gains) > 1:
        last = gains.pop()
        gains[-1] = -max(-gains[-1], last)
    return gains[0] < 0
