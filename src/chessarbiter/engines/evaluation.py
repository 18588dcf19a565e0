"""Static evaluation in centipawns from the side to move's point of view.

Material and piece-square tables tapered between middlegame and endgame by the remaining
pieces, plus pawn structure (passed, doubled, isolated pawns), the bishop pair, rooks on open
files, the king's pawn shelter, and a mop-up term that drives a lone king to the edge.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from chessarbiter.core.squares import FILES
from chessarbiter.engines.tables import EG, FULL_PHASE, MG

if TYPE_CHECKING:
    from chessarbiter.core.position import Position

TEMPO: Final = 10
BISHOP_PAIR: Final = 30
DOUBLED: Final = 12
ISOLATED: Final = 10
OPEN_FILE: Final = 20
HALF_OPEN_FILE: Final = 10
SHELTER: Final = 8
PASSED_MG: Final = (0, 5, 5, 10, 20, 35, 60, 0)
PASSED_EG: Final = (0, 10, 15, 25, 45, 75, 120, 0)
MOP_UP_MARGIN: Final = 400


ADJACENT: Final = tuple(
    (FILES[f - 1] if f else 0) | (FILES[f + 1] if f < 7 else 0) for f in range(8)
)


def _passed_masks(colour: int) -> tuple[int, ...]:
    masks = []
    for sq in range(64):
        file, rank = sq & 7, sq >> 3
        files = FILES[file] | ADJACENT[file]
        ahead = range(rank + 1, 8) if colour == 0 else range(rank)
        masks.append(sum(files & (0xFF << (8 * r)) for r in ahead))
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


PASSED: Final = (_passed_masks(0), _passed_masks(1))
SHIELD: Final = (_shelter_masks(0), _shelter_masks(1))


def insufficient_material(pos: Position) -> bool:
    """No pawns, rooks or queens, and at most one minor piece a side: no mate is possible
    with sensible play (a subset of Art. 5.2.2 cases, plus K+minor v K+minor)."""
    p = pos.pieces
    if p[1] | p[4] | p[5] | p[9] | p[12] | p[13]:
        return False
    return (p[2] | p[3]).bit_count() <= 1 and (p[10] | p[11]).bit_count() <= 1


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
    structure_mg, structure_eg = _pawns(p, 0)
    black_mg, black_eg = _pawns(p, 1)
    mg += structure_mg - black_mg
    eg += structure_eg - black_eg
    pieces_score = _pieces(p, 0) - _pieces(p, 1)
    mg += pieces_score + SHELTER * (
        (SHIELD[0][p[6].bit_length() - 1] & p[1]).bit_count()
        - (SHIELD[1][p[14].bit_length() - 1] & p[9]).bit_count()
    )
    eg += pieces_score + _mop_up(p, eg)
    blend = mg * phase + eg * (FULL_PHASE - phase)
    score = blend // FULL_PHASE if blend >= 0 else -(-blend // FULL_PHASE)  # colour-symmetric
    return (score if pos.turn == 0 else -score) + TEMPO


def _pawns(p: list[int], colour: int) -> tuple[int, int]:
    """(middlegame, endgame) pawn-structure bonus of one colour."""
    own = p[colour << 3 | 1]
    enemy = p[(colour ^ 1) << 3 | 1]
    mg = eg = 0
    passed = PASSED[colour]
    bb = own
    while bb:
        low = bb & -bb
        bb ^= low
        sq = low.bit_length() - 1
        file = sq & 7
        if not passed[sq] & enemy:
            rank = sq >> 3 if colour == 0 else 7 - (sq >> 3)
            mg += PASSED_MG[rank]
            eg += PASSED_EG[rank]
        if not ADJACENT[file] & own:
            mg -= ISOLATED
            eg -= ISOLATED
    for file_bb in FILES:
        extra = (own & file_bb).bit_count() - 1
        if extra > 0:
            mg -= DOUBLED * extra
            eg -= DOUBLED * extra
    return mg, eg


def _pieces(p: list[int], colour: int) -> int:
    """The bishop pair and rooks on open or half-open files of one colour."""
    base = colour << 3
    score = BISHOP_PAIR if p[base | 3].bit_count() >= 2 else 0
    rooks = p[base | 4]
    own_pawns = p[base | 1]
    all_pawns = own_pawns | p[(colour ^ 1) << 3 | 1]
    while rooks:
        low = rooks & -rooks
        rooks ^= low
        file_bb = FILES[(low.bit_length() - 1) & 7]
        if not file_bb & all_pawns:
            score += OPEN_FILE
        elif not file_bb & own_pawns:
            score += HALF_OPEN_FILE
    return score


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
