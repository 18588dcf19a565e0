"""A rough count of the moves a helpmate still needs, for the best-first search
(:mod:`.bestfirst`). It only orders the search, so it need not be exact nor admissible.

The terms: the loser's king walking to where the winner's material can mate (an edge for a
queen or rook; else a corner: of the winner's bishops' colour when those are all on one,
or of the colour opposite to the loser's bishops when they are its only blockers, since a
corner's two flights along the edges have the other colour; never the corner of a winner's
king that cannot move), counted three times, a square the winner attacks costing two
steps; the winner's king coming to two squares from it (a constant when that king cannot
move); the winner's quickest check; the minor pieces closing in; the flight squares of the
loser's king that the winner does not attack and the loser does not hold; for bishops
alone, the flights of the nearest target corner of the colour they never cover that no
loser's unit holds yet (each needs a blocker), counted twice; a promotion the mate needs,
counted twice (the winner's, when its pieces cannot mate a bare king; else the loser's, for
a blocker the winner's minor pieces need), a pawn's way round a blocked file counting each
capture of a unit the other side must first bring as :data:`BLOCKED` moves. King walks go
round the pawns: a king never stands on its own pawns nor where enemy pawns attack.
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
from chessarbiter.core.position import Position
from chessarbiter.core.squares import (
    BISHOP,
    FULL,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    RANKS,
    ROOK,
    squares_of,
)
from chessarbiter.laws.deadpos.bitboards import (
    DISTANCE,
    KNIGHT_DISTANCE,
    NOT_A,
    NOT_H,
    pawn_attacks,
)
from chessarbiter.laws.deadpos.material import DARK_SQUARES, LIGHT_SQUARES
from chessarbiter.laws.deadpos.targets import mating_targets, nearest

RING: Final = tuple(sum(1 << b for b in range(64) if DISTANCE[a][b] == 2) for a in range(64))
"""``RING[sq]``: the squares two king steps from ``sq``."""
CLOSING: Final = tuple(tuple(max(d - 2, 0) // 2 for d in row) for row in DISTANCE)
"""``CLOSING[a][b]``: what a minor piece on ``a`` counts, the loser's king on ``b``."""
FAR: Final = 8
"""What an unreachable target costs."""
BLOCKED: Final = 3
"""What a pawn's capture of a unit the other side must first bring counts."""
BLOCKER: Final = 2
"""What each blocker a bishop mate still needs in its corner counts."""
CACHE_SIZE: Final = 20_000
"""King walks kept before the cache starts again."""
BELOW_LAST: Final = FULL ^ RANKS[7]
"""Ranks 1 to 7: a board's squares that can step one rank up (below 2^62, unboxed when
compiled, where ``(b << 8) & FULL`` makes a heap object at each operation)."""




def _pawn_checks(colour: int, king: int) -> tuple[int, ...]:
    step = 8 if colour == 0 else -8
    checks = squares_of(PAWN_ATTACKS[colour ^ 1][king])
    return tuple(
        sum(1 << (c - step * n) for c in checks if 0 <= c - step * n < 64) for n in range(1, 6)
    )


PAWN_CHECKS: Final = tuple(
    tuple(_pawn_checks(colour, king) for king in range(64)) for colour in (0, 1)
)
"""``PAWN_CHECKS[colour][king][n - 1]``: the squares from which a pawn of ``colour`` checks
a king on ``king`` after ``n`` pushes (1 to 5)."""
PAWN_CHECKS_ANY: Final = tuple(tuple(sum(masks) for masks in row) for row in PAWN_CHECKS)
"""``PAWN_CHECKS_ANY[colour][king]``: those squares for any of the five."""


class Estimate:
    """Plies-to-mate estimates for one intended winner; king walks are cached."""

    def __init__(self, winner: int) -> None:
        self.winner = winner
        self.loser = winner ^ 1
        self.walks: dict[tuple[int, int], list[int]] = {}
        self.loser_walks: dict[tuple[int, int, int, int], int] = {}
        """The loser king's walks (:func:`_walk`) by what they read: most recur."""

    def plies(self, pos: Position) -> int:
        """The estimate for ``pos``."""
        pieces = pos.pieces
        winner = self.winner
        w = winner << 3
        lo = self.loser << 3
        king = pieces[lo | KING].bit_length() - 1
        own = pieces[w | KING].bit_length() - 1
        loser_pawns = pieces[lo | PAWN]
        winner_pawns = pieces[w | PAWN]
        heavy = pieces[w | QUEEN] | pieces[w | ROOK]
        bishops = pieces[w | BISHOP]
        knights = pieces[w | KNIGHT]
        free_l = ~loser_pawns & ~pawn_attacks(winner_pawns, winner)  # negative: unboxed
        free_w = ~winner_pawns & ~pawn_attacks(loser_pawns, self.loser)
        target = mating_targets(pieces, winner)
        stuck = not KING_ATTACKS[own] & free_w & ~pos.occupied_co[winner]
        if stuck and target & ~(1 << own):
            target &= ~(1 << own)
        attacked = _attacks(pos, winner, king)
        walks = self.loser_walks
        walk = walks.get((free_l, attacked, king, target))
        if walk is None:
            if len(walks) > CACHE_SIZE:
                walks.clear()
            walk = walks[free_l, attacked, king, target] = _walk(free_l, attacked, king, target, 0)
        total = 3 * walk
        total += FAR if stuck else self._walk(free_w, own, RING[king], FAR)
        total += self._flights(pos, king, attacked)
        total += self._check(pos, king, heavy, bishops, knights)
        if bishops and not knights | heavy:
            total += BLOCKER * blockers_needed(pos, self.loser, king, target, bishops)
        minor = bishops | knights
        while minor:
            low = minor & -minor
            minor ^= low
            total += CLOSING[low.bit_length() - 1][king]
        mates = (
            heavy
            or (bishops and knights)
            or knights & (knights - 1)
            or (bishops & DARK_SQUARES and bishops & LIGHT_SQUARES)
        )
        if not mates and winner_pawns:
            total += 2 * promotion_moves(pos, winner)
        if (
            not mates
            and not winner_pawns
            and not (
                pieces[lo | KNIGHT] | pieces[lo | BISHOP] | pieces[lo | ROOK] | pieces[lo | QUEEN]
            )
        ):
            total += 2 * promotion_moves(pos, self.loser)
        return total

    def _walk(self, free: int, start: int, target: int, missing: int) -> int:
        """King steps from ``start`` to the nearest ``target`` square through ``free``
        squares (the target and the start need not be free); ``missing`` if none."""
        layers = self.walks.get((free, start))
        if layers is None:
            if len(self.walks) > CACHE_SIZE:
                self.walks.clear()
            layers = []
            seen = frontier = 1 << start
            while frontier:
                layers.append(frontier)
                frontier = _around(frontier) & free & ~seen
                seen |= frontier
            layers.append(_around(seen) & ~seen)
            self.walks[(free, start)] = layers
        for d, layer in enumerate(layers):
            if layer & target:
                return d
        return missing

    def _flights(self, pos: Position, king: int, attacked: int) -> int:
        """The loser king's neighbouring squares the winner does not attack and the loser
        does not hold."""
        return (KING_ATTACKS[king] & ~pos.occupied_co[self.loser] & ~attacked).bit_count()

    def _check(self, pos: Position, king: int, heavy: int, bishops: int, knights: int) -> int:
        """Moves the winner's quickest piece needs to check the loser's king."""
        occupied = pos.occupied_co[0] | pos.occupied_co[1]
        best = FAR
        if heavy:
            best = 1
            pieces = pos.pieces
            w = self.winner << 3
            if rook_attacks(king, occupied) & (pieces[w | ROOK] | pieces[w | QUEEN]):
                return 0
            if bishop_attacks(king, occupied) & pieces[w | QUEEN]:
                return 0
        if bishops:
            if bishop_attacks(king, occupied) & bishops:
                return 0
            colour = DARK_SQUARES if (1 << king) & DARK_SQUARES else LIGHT_SQUARES
            if bishops & colour:
                best = 1
        for sq in squares_of(knights):
            best = min(best, KNIGHT_DISTANCE[sq][king] - 1)
        pawns = pos.pieces[self.winner << 3 | PAWN]
        if pawns & PAWN_CHECKS_ANY[self.winner][king]:
            for n, squares in enumerate(PAWN_CHECKS[self.winner][king], 1):
                if pawns & squares:
                    return min(best, n)
        return best


def _around(b: int) -> int:
    """The squares of ``b`` and those one king step away."""
    row = b | (b & NOT_H) << 1 | (b & NOT_A) >> 1
    return row | (row & BELOW_LAST) << 8 | row >> 8


def blockers_needed(pos: Position, loser: int, king: int, target: int, bishops: int) -> int:
    """Flight squares of the target corner nearest the loser's ``king`` that the winner's
    ``bishops`` can never cover (the other colour) and no loser's unit holds."""
    corner = nearest(target, king)
    covered = (DARK_SQUARES if bishops & DARK_SQUARES else 0) | (
        LIGHT_SQUARES if bishops & LIGHT_SQUARES else 0
    )
    return (KING_ATTACKS[corner] & ~covered & ~pos.occupied_co[loser]).bit_count()


def _walk(free: int, dear: int, start: int, target: int, missing: int) -> int:
    """King moves from ``start`` to the nearest ``target`` square through ``free`` squares,
    a ``dear`` one counting two (a target need not be free); ``missing`` if none."""
    if target >> start & 1:
        return 0
    seen = 0
    near = 1 << start
    far = 0
    d = 0
    while near or far:
        near &= ~seen
        seen |= near
        row = near | (near & NOT_H) << 1 | (near & NOT_A) >> 1
        step = (row | (row & BELOW_LAST) << 8 | row >> 8) & ~seen
        if step & target:
            return d + 1
        step &= free
        near, far = far | step & ~dear, step & dear
        d += 1
    return missing


def _attacks(pos: Position, colour: int, king: int) -> int:
    """Every square ``colour`` attacks, its sliders seeing through the enemy ``king``."""
    pieces = pos.pieces
    occupied = (pos.occupied_co[0] | pos.occupied_co[1]) & ~(1 << king)
    base = colour << 3
    out = KING_ATTACKS[pieces[base | KING].bit_length() - 1] | pawn_attacks(
        pieces[base | PAWN], colour
    )
    bb = pieces[base | KNIGHT]
    while bb:
        low = bb & -bb
        bb ^= low
        out |= KNIGHT_ATTACKS[low.bit_length() - 1]
    bb = pieces[base | BISHOP] | pieces[base | QUEEN]
    while bb:
        low = bb & -bb
        bb ^= low
        sq = low.bit_length() - 1
        out |= bishop_attacks(sq, occupied)
    bb = pieces[base | ROOK] | pieces[base | QUEEN]
    while bb:
        low = bb & -bb
        bb ^= low
        sq = low.bit_length() - 1
        out |= (
            rook_attacks(sq, occupied)
        )
    return out


def promotion_moves(pos: Position, colour: int, blocked: int = BLOCKED) -> int:
    """Moves the quickest pawn of ``colour`` needs to promote (``FAR`` if none): a push onto a
    square with no pawn, or a capture, counts one; a capture of a unit that is not there
    yet counts ``blocked`` (the other side must bring one)."""
    pieces = pos.pieces
    enemy = pos.occupied_co[colour ^ 1] & ~pieces[(colour ^ 1) << 3 | KING]
    stops = pieces[PAWN] | pieces[8 | PAWN] | pieces[(colour ^ 1) << 3 | KING]
    open_captures = ~stops & ~pos.occupied_co[colour]
    last = RANKS[7] if colour == 0 else RANKS[0]
    layers = [pieces[colour << 3 | PAWN]] + [0] * (FAR + blocked)
    top = 0  # the last layer with squares in it
    seen = 0
    white = colour == 0
    for d in range(FAR):
        if d > top:
            return FAR
        near = layers[d] & ~seen
        if not near:
            continue
        if near & last:
            return d
        seen |= near
        if white:  # ``near`` holds no square of the last rank: nothing is pushed off
            hits = ((near & NOT_A) << 7) | ((near & NOT_H) << 9)
            pushed = near << 8
        else:
            hits = ((near & NOT_A) >> 9) | ((near & NOT_H) >> 7)
            pushed = near >> 8
        step = pushed & ~stops | hits & enemy
        if step:
            layers[d + 1] |= step
            top = d + 1 if d + 1 > top else top
        step = hits & open_captures
        if step:
            layers[d + blocked] |= step
            top = d + blocked if d + blocked > top else top
    return FAR
