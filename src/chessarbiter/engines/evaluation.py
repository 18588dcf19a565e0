"""Static evaluation in centipawns from the side to move's point of view.

Material and piece-square tables tapered between middlegame and endgame by the remaining
pieces, mobility (squares a piece reaches that hold no own piece and no enemy pawn attacks),
king safety (the enemy king's zone attacked, the own king's pawn shelter), pawn structure
(passed pawns by rank, doubled, isolated and backward pawns), the bishop pair, rooks on open
files, and a mop-up term that drives a lone king to the edge. The weights are those of
:mod:`chessarbiter.engines.weights`, which ``bench/tune_eval.py`` fits to real games.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from chessarbiter.core.attacks import KING_ATTACKS, KNIGHT_ATTACKS, bishop_attacks, rook_attacks
from chessarbiter.core.squares import FILES
from chessarbiter.engines.tables import EG, FULL_PHASE, MG
from chessarbiter.engines.weights import (
    BACKWARD,
    BISHOP_PAIR,
    DOUBLED,
    ISOLATED,
    KING_ATTACK,
    MOBILITY,
    PASSED,
    ROOK_HALF_OPEN_FILE,
    ROOK_OPEN_FILE,
    SHELTER,
)

if TYPE_CHECKING:
    from chessarbiter.core.position import Position

TEMPO: Final = 10
MOP_UP_MARGIN: Final = 400
_FULL: Final = (1 << 64) - 1
_NOT_A: Final = _FULL ^ FILES[0]
_NOT_H: Final = _FULL ^ FILES[7]

ADJACENT: Final = tuple(
    (FILES[f - 1] if f else 0) | (FILES[f + 1] if f < 7 else 0) for f in range(8)
)


def _masks(colour: int, ahead: bool) -> tuple[int, ...]:
    """Per square: the files beside it (and its own file when ``ahead``) on the ranks ahead
    of it (``ahead``: where enemy pawns stop a passed pawn) or at and behind it (where own
    pawns can still support it), for a pawn of ``colour``."""
    masks = []
    for sq in range(64):
        rank = sq >> 3
        if ahead:
            ranks = range(rank + 1, 8) if colour == 0 else range(rank)
        else:
            ranks = range(rank + 1) if colour == 0 else range(rank, 8)
        files = ADJACENT[sq & 7] | (FILES[sq & 7] if ahead else 0)
        masks.append(files & sum(0xFF << (8 * r) for r in ranks))
    return tuple(masks)


def _shelter_masks(colour: int) -> tuple[int, ...]:
    masks = []
    for sq in range(64):
        file, rank = sq & 7, sq >> 3
        bb = 0
        for step in (1, 2):
            r = rank + step if colour == 0 else rank - step
            if 0 <= r < 8:
                for f in (file - 1, file, file + 1):
                    if 0 <= f < 8:
                        bb |= 1 << (r * 8 + f)
        masks.append(bb)
    return tuple(masks)


PASSED_MASK: Final = (_masks(0, True), _masks(1, True))
SUPPORT: Final = (_masks(0, False), _masks(1, False))
SHIELD: Final = (_shelter_masks(0), _shelter_masks(1))


def insufficient_material(pos: Position) -> bool:
    """No pawns, rooks or queens, and at most one minor piece a side: no mate is possible
    with sensible play (a subset of Art. 5.2.2 cases, plus K+minor v K+minor)."""
    p = pos.pieces
    if p[1] | p[4] | p[5] | p[9] | p[12] | p[13]:
        return False
    return (p[2] | p[3]).bit_count() <= 1 and (p[10] | p[11]).bit_count() <= 1


def pawn_attacks(pawns: int, colour: int) -> int:
    """The squares the pawns of ``colour`` attack."""
    if colour == 0:
        return ((pawns << 7) & _NOT_H | (pawns << 9) & _NOT_A) & _FULL
    return (pawns >> 7) & _NOT_A | (pawns >> 9) & _NOT_H


def evaluate(pos: Position) -> int:
    """The position's value for the side to move (positive: better for it)."""
    p = pos.pieces
    if insufficient_material(pos):
        return 0
    mg = eg = 0
    for piece in (1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14):
        bb = p[piece]
        if bb:
            mgt, egt = MG[piece], EG[piece]
            while bb:
                low = bb & -bb
                bb ^= low
                sq = low.bit_length() - 1
                mg += mgt[sq]
                eg += egt[sq]
    phase = (
        (p[2] | p[3] | p[10] | p[11]).bit_count()
        + 2 * (p[4] | p[12]).bit_count()
        + 4 * (p[5] | p[13]).bit_count()
    )
    phase = min(phase, FULL_PHASE)
    occ = pos.occupied_co
    white_attacks = pawn_attacks(p[1], 0)
    black_attacks = pawn_attacks(p[9], 1)
    white_mg, white_eg = _pawns(p, 0, black_attacks)
    black_mg, black_eg = _pawns(p, 1, white_attacks)
    mg += white_mg - black_mg
    eg += white_eg - black_eg
    white_mg, white_eg = _pieces(p, occ, 0, black_attacks)
    black_mg, black_eg = _pieces(p, occ, 1, white_attacks)
    mg += white_mg - black_mg
    eg += white_eg - black_eg
    eg += _mop_up(p, eg)
    blend = mg * phase + eg * (FULL_PHASE - phase)
    score = blend // FULL_PHASE if blend >= 0 else -(-blend // FULL_PHASE)  # colour-symmetric
    return (score if pos.turn == 0 else -score) + TEMPO


def _pawns(p: list[int], colour: int, enemy_attacks: int) -> tuple[int, int]:
    """(middlegame, endgame) pawn-structure score of one colour: passed pawns by rank,
    isolated pawns, backward pawns (no own pawn beside or behind to support them, their
    stop square held by an enemy pawn), doubled pawns."""
    own = p[colour << 3 | 1]
    enemy = p[(colour ^ 1) << 3 | 1]
    mg = eg = 0
    passed = PASSED_MASK[colour]
    support = SUPPORT[colour]
    step = 8 if colour == 0 else -8
    bb = own
    while bb:
        low = bb & -bb
        bb ^= low
        sq = low.bit_length() - 1
        if not passed[sq] & enemy:
            rank = sq >> 3 if colour == 0 else 7 - (sq >> 3)
            mg += PASSED[0][rank]
            eg += PASSED[1][rank]
        if not ADJACENT[sq & 7] & own:
            mg += ISOLATED[0]
            eg += ISOLATED[1]
        elif not support[sq] & own and (enemy_attacks >> (sq + step)) & 1:
            mg += BACKWARD[0]
            eg += BACKWARD[1]
    for file_bb in FILES:
        extra = (own & file_bb).bit_count() - 1
        if extra > 0:
            mg += DOUBLED[0] * extra
            eg += DOUBLED[1] * extra
    return mg, eg


def _pieces(p: list[int], occ: list[int], colour: int, enemy_attacks: int) -> tuple[int, int]:
    """(middlegame, endgame) score of one colour's pieces: mobility, attacks on the enemy
    king's zone, rooks on open or half-open files, the bishop pair, the king's shelter."""
    base = colour << 3
    own_pawns = p[base | 1]
    all_pawns = own_pawns | p[(colour ^ 1) << 3 | 1]
    occupied = occ[0] | occ[1]
    area = _FULL ^ (occ[colour] | enemy_attacks)
    king = p[(colour ^ 1) << 3 | 6].bit_length() - 1
    zone = KING_ATTACKS[king] | 1 << king
    mg = eg = 0
    for kind in (2, 3, 4, 5):
        bb = p[base | kind]
        if not bb:
            continue
        mobility = attacks = 0
        while bb:
            low = bb & -bb
            bb ^= low
            sq = low.bit_length() - 1
            if kind == 2:
                reach = KNIGHT_ATTACKS[sq]
            elif kind == 3:
                reach = bishop_attacks(sq, occupied)
            elif kind == 4:
                reach = rook_attacks(sq, occupied)
                file_bb = FILES[sq & 7]
                if not file_bb & all_pawns:
                    mg += ROOK_OPEN_FILE[0]
                    eg += ROOK_OPEN_FILE[1]
                elif not file_bb & own_pawns:
                    mg += ROOK_HALF_OPEN_FILE[0]
                    eg += ROOK_HALF_OPEN_FILE[1]
            else:
                reach = rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
            mobility += (reach & area).bit_count()
            attacks += (reach & zone).bit_count()
        mg += MOBILITY[0][kind] * mobility + KING_ATTACK[0][kind] * attacks
        eg += MOBILITY[1][kind] * mobility + KING_ATTACK[1][kind] * attacks
    if p[base | 3].bit_count() >= 2:
        mg += BISHOP_PAIR[0]
        eg += BISHOP_PAIR[1]
    shelter = (SHIELD[colour][p[base | 6].bit_length() - 1] & own_pawns).bit_count()
    return mg + SHELTER[0] * shelter, eg + SHELTER[1] * shelter


def _mop_up(p: list[int], eg: int) -> int:
    """Far ahead against a side without pawns: corner its king and bring our king close."""
    if abs(eg) < MOP_UP_MARGIN:
        return 0
    strong = 0 if eg > 0 else 1
    if p[(strong ^ 1) << 3 | 1]:
        return 0
    winner = p[strong << 3 | 6].bit_length() - 1
    loser = p[(strong ^ 1) << 3 | 6].bit_length() - 1
    lf, lr = loser & 7, loser >> 3
    edge = max(3 - lf, lf - 4) + max(3 - lr, lr - 4)
    distance = abs(lf - (winner & 7)) + abs(lr - (winner >> 3))
    bonus = 20 * edge + 6 * (14 - distance)
    return bonus if strong == 0 else -bonus
