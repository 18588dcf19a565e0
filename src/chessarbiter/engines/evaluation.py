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
from chessarbiter.core.squares import FILES, popcount
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
    if p[1] or p[9] or p[4] or p[12] or p[5] or p[13]:  # tested one by one: no new ints
        return False
    return popcount(p[2] | p[3]) <= 1 and popcount(p[10] | p[11]) <= 1


def pawn_attacks(pawns: int, colour: int) -> int:
    """The squares the pawns of ``colour`` attack."""
    if colour == 0:
        return ((pawns << 7) & _NOT_H | (pawns << 9) & _NOT_A) & _FULL
    return (pawns >> 7) & _NOT_A | (pawns >> 9) & _NOT_H


PawnEntry = tuple[int, int, int, int, int]
"""The pawns' terms: the structure's score (middlegame, endgame; White's minus Black's), and
the open files, White's half-open files and Black's (:func:`file_masks`)."""
PAWN_SLOTS: Final = 1 << 14
"""Entries a pawn cache holds, one per slot (a new one replaces the old)."""


class PawnCache:
    """The pawns' terms by both sides' pawn placement: a search meets the same pawns in most
    of its positions. A slot is picked by mixing the two bitboards (pawns stand on the
    ranks 2-7 only, so no step of the mixing leaves 56 bits) and holds both to confirm."""

    __slots__ = ("_black", "_entries", "_white")

    def __init__(self) -> None:
        self._white = [-1] * PAWN_SLOTS
        self._black = [-1] * PAWN_SLOTS
        self._entries: list[PawnEntry] = [(0, 0, 0, 0, 0)] * PAWN_SLOTS

    def entry(self, p: list[int]) -> PawnEntry:
        """The pawns' terms of the pieces ``p``, computed on a miss."""
        white = p[1]
        black = p[9]
        mix = (white >> 8) ^ (black >> 8) * 7
        slot = (mix ^ mix >> 17 ^ mix >> 34) & (PAWN_SLOTS - 1)
        if self._white[slot] == white and self._black[slot] == black:
            return self._entries[slot]
        found = pawn_entry(p)
        self._white[slot] = white
        self._black[slot] = black
        self._entries[slot] = found
        return found


def pawn_entry(p: list[int]) -> PawnEntry:
    """The pawns' terms of the pieces ``p`` (:data:`PawnEntry`)."""
    mg, eg = _pawn_scores(p, pawn_attacks(p[1], 0), pawn_attacks(p[9], 1))
    open_files, white_half_open = file_masks(p, 0)
    return mg, eg, open_files, white_half_open, file_masks(p, 1)[1]


def evaluate(pos: Position, pawn_cache: PawnCache | None = None) -> int:
    """The position's value for the side to move (positive: better for it). ``pawn_cache``
    remembers the pawns' terms (a search passes its own)."""
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
    pawns = pawn_entry(p) if pawn_cache is None else pawn_cache.entry(p)
    mg += pawns[0]
    eg += pawns[1]
    occupied = pos.occupied_co[0] | pos.occupied_co[1] if _REACH_WEIGHED else 0
    white_mg, white_eg = _pieces(p, occupied, 0, pawns[2], pawns[3])
    black_mg, black_eg = _pieces(p, occupied, 1, pawns[2], pawns[4])
    mg += white_mg - black_mg
    eg += white_eg - black_eg
    eg += _mop_up(p, eg)
    ph = phase(p)
    blend = mg * ph + eg * (FULL_PHASE - ph)
    score = blend // FULL_PHASE if blend >= 0 else -(-blend // FULL_PHASE)  # colour-symmetric
    return (score if pos.colour_to_move() == 0 else -score) + TEMPO


def phase(p: list[int]) -> int:
    """The game phase by the pieces left: knights and bishops 1, rooks 2, queens 4, at most
    ``FULL_PHASE`` (the middlegame's weight; the endgame's is the rest)."""
    return min(
        popcount(p[2]) + popcount(p[3]) + popcount(p[10]) + popcount(p[11])
        + 2 * (popcount(p[4]) + popcount(p[12]))
        + 4 * (popcount(p[5]) + popcount(p[13])),
        FULL_PHASE,
    )


# -- the terms, counted: the evaluation weighs them, and bench/tune_eval.py counts them with
# these same functions to fit their weights -------------------------------------------------

def file_fill(bb: int) -> int:
    """Every square of the files holding a square of ``bb``."""
    bb |= bb >> 8
    bb |= bb >> 16
    bb |= bb >> 32
    return (bb & 0xFF) * 0x0101010101010101


def pawn_structure(p: list[int], colour: int, enemy_attacks: int) -> tuple[int, int, int, int]:
    """One colour's pawns: (passed, isolated, backward, doubled): the bitboards of its
    passed pawns (no enemy pawn ahead on its file or beside it), isolated pawns (no own pawn
    on a file beside it) and backward pawns (not isolated, no own pawn beside or behind to
    support it, its stop square held by an enemy pawn), and the count of its pawns beyond
    the first on each file."""
    own = p[colour << 3 | 1]
    enemy = p[(colour ^ 1) << 3 | 1]
    files = file_fill(own)
    isolated = own & ~((files << 1) & _NOT_A | (files >> 1) & _NOT_H)
    passed = backward = 0
    passed_mask = PASSED_MASK[colour]
    support = SUPPORT[colour]
    stops = enemy_attacks >> 8 if colour == 0 else (enemy_attacks << 8) & _FULL
    bb = own
    while bb:
        low = bb & -bb
        bb ^= low
        sq = low.bit_length() - 1
        if not passed_mask[sq] & enemy:
            passed |= low
        if not support[sq] & own:
            backward |= low
    backward &= stops & ~isolated
    return passed, isolated, backward, popcount(own) - popcount(files & 0xFF)


def reach(p: list[int], occupied: int, piece: int, area: int, zone: int) -> tuple[int, int]:
    """The pieces ``piece`` (a knight, bishop, rook or queen of a colour): (mobility, king
    attacks): the squares of ``area`` each reaches, and of the enemy king's ``zone``."""
    kind = piece & 7
    mobility = attacks = 0
    bb = p[piece]
    while bb:
        low = bb & -bb
        bb ^= low
        sq = low.bit_length() - 1
        if kind == 2:
            targets = KNIGHT_ATTACKS[sq]
        elif kind == 3:
            targets = bishop_attacks(sq, occupied)
        elif kind == 4:
            targets = rook_attacks(sq, occupied)
        else:
            targets = rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
        mobility += popcount(targets & area)
        attacks += popcount(targets & zone)
    return mobility, attacks


def reach_area(p: list[int], colour: int, enemy_attacks: int) -> tuple[int, int]:
    """(area, zone) of :func:`reach` for ``colour``'s pieces: the squares holding no own
    piece that no enemy pawn attacks, and the enemy king's square with those around it."""
    occupied = 0
    for piece in range(colour << 3 | 1, colour << 3 | 7):
        occupied |= p[piece]
    king = p[(colour ^ 1) << 3 | 6].bit_length() - 1
    return _FULL ^ (occupied | enemy_attacks), KING_ATTACKS[king] | 1 << king


def file_masks(p: list[int], colour: int) -> tuple[int, int]:
    """(open, half-open) files for ``colour``'s rooks: the files without pawns, and those
    with enemy pawns only."""
    own = file_fill(p[colour << 3 | 1])
    enemy = file_fill(p[(colour ^ 1) << 3 | 1])
    return _FULL ^ (own | enemy), enemy & ~own


def rook_files(p: list[int], colour: int) -> tuple[int, int]:
    """(open, half-open): ``colour``'s rooks on files without pawns, and on files with
    enemy pawns only."""
    rooks = p[colour << 3 | 4]
    open_files, half_open = file_masks(p, colour)
    return popcount(rooks & open_files), popcount(rooks & half_open)


def relative_rank(sq: int, colour: int) -> int:
    """The rank of a square counted from ``colour``'s side (0 its first rank)."""
    return 7 - (sq >> 3) if colour else sq >> 3


def bishop_pair(p: list[int], colour: int) -> bool:
    """Whether ``colour`` has two bishops or more."""
    return popcount(p[colour << 3 | 3]) >= 2


def shelter(p: list[int], colour: int) -> int:
    """Own pawns on the two ranks in front of ``colour``'s king, on its file and beside."""
    return popcount(SHIELD[colour][p[colour << 3 | 6].bit_length() - 1] & p[colour << 3 | 1])


_REACH_WEIGHED: Final = any(MOBILITY[s][k] or KING_ATTACK[s][k]
                            for s in (0, 1) for k in (2, 3, 4, 5))
"""Whether mobility or king attacks weigh anything (all 0 in the hand-made weights: then
they are not computed)."""


def _pawn_scores(p: list[int], white_attacks: int, black_attacks: int) -> tuple[int, int]:
    """(middlegame, endgame) pawn-structure score, White's minus Black's."""
    w_mg, w_eg = _pawn_score(p, 0, black_attacks)
    b_mg, b_eg = _pawn_score(p, 1, white_attacks)
    return w_mg - b_mg, w_eg - b_eg


def _pawn_score(p: list[int], colour: int, enemy_attacks: int) -> tuple[int, int]:
    passed, isolated, backward, doubled = pawn_structure(p, colour, enemy_attacks)
    n_isolated = popcount(isolated)
    n_backward = popcount(backward)
    mg = ISOLATED[0] * n_isolated + BACKWARD[0] * n_backward + DOUBLED[0] * doubled
    eg = ISOLATED[1] * n_isolated + BACKWARD[1] * n_backward + DOUBLED[1] * doubled
    while passed:
        low = passed & -passed
        passed ^= low
        rank = relative_rank(low.bit_length() - 1, colour)
        mg += PASSED[0][rank]
        eg += PASSED[1][rank]
    return mg, eg


def _pieces(p: list[int], occupied: int, colour: int, open_files: int,
            half_open: int) -> tuple[int, int]:
    """(middlegame, endgame) score of one colour's pieces: mobility, attacks on the enemy
    king's zone, rooks on open or half-open files (:func:`file_masks`), the bishop pair,
    the king's shelter."""
    base = colour << 3
    mg = eg = 0
    if _REACH_WEIGHED:
        area, zone = reach_area(p, colour, pawn_attacks(p[(colour ^ 1) << 3 | 1], colour ^ 1))
        for kind in (2, 3, 4, 5):
            if p[base | kind]:
                mobility, attacks = reach(p, occupied, base | kind, area, zone)
                mg += MOBILITY[0][kind] * mobility + KING_ATTACK[0][kind] * attacks
                eg += MOBILITY[1][kind] * mobility + KING_ATTACK[1][kind] * attacks
    rooks = p[base | 4]
    if rooks:
        on_open = popcount(rooks & open_files)
        on_half_open = popcount(rooks & half_open)
        mg += ROOK_OPEN_FILE[0] * on_open + ROOK_HALF_OPEN_FILE[0] * on_half_open
        eg += ROOK_OPEN_FILE[1] * on_open + ROOK_HALF_OPEN_FILE[1] * on_half_open
    if bishop_pair(p, colour):
        mg += BISHOP_PAIR[0]
        eg += BISHOP_PAIR[1]
    own_shelter = shelter(p, colour)
    return mg + SHELTER[0] * own_shelter, eg + SHELTER[1] * own_shelter


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
