"""Exploration of pawn structures, with the pieces abstracted to the regions they could be in.

Every series of legal moves is a series of *phases*: between two pawn moves or captures the
pawns and the material stay the same and only pieces (kings included) move, without
capturing. A phase is keyed by the exact pawns of both colours and, for each piece, its
colour, kind and a *region*: a set of squares it could be on during the phase. Piece
shuffles therefore never make a new key; only pawn moves, captures and promotions do.

The regions are closed: a king's region under king steps onto squares holding no pawn and
attacked by no enemy pawn (the squares it may legally step to within the phase), every other
piece's under its own steps (knight jumps, diagonal, orthogonal, both for a queen) onto
squares holding no pawn. Other pieces are ignored as obstacles, which only makes a region
larger. A piece's attacks are the squares one step of its kind away from its region: a
slider's square next to its target along the ray is in the region, as the squares between
hold no pawn.

By induction over any series of moves from the analysed position, the position after each
move matches an explored phase: the pawns are exactly the phase's, each piece is in its
region. A move inside a phase stays inside the regions (closure); every pawn move, capture
and promotion that could be legal from some position matching the phase is enumerated as a
transition (a pawn push onto a square holding no pawn; a double step from the start rank
over two such squares; a pawn capture onto an enemy pawn, onto a square in an enemy piece's
region, or en passant beside an enemy pawn on its fifth rank; a piece or king capturing a
pawn next to its region, the king only one no enemy pawn defends; a piece capturing a piece
whose region its attacks meet; a promotion to each kind). The new phase's regions are
filled again from the old ones minus the new pawn squares (and from the capture or
promotion square), under the new pawns, so they hold every square a piece can stand on.

Checkmate of the loser's king on a square ``s`` of its region needs: ``s`` attacked by a
winner's pawn or piece other than the king; each flight square attacked by the winner
(a pawn, a piece, or its king from one square of the king's region not next to ``s``: the
king stands on one square at the mate), holding a pawn (the loser's own blocks it;
the winner's is counted as covered, a harmless over-approximation) or blocked by one of the
loser's pieces, a distinct piece per square: so the flight squares left must lie in the
pieces' regions and be no more than the loser's pieces whose regions meet them. When no
explored phase allows such a square and the exploration finished within its cap, no series
of legal moves leads to the winner's checkmate. Positions with castling rights are not
analysed (castling would be one more kind of transition).
"""

from __future__ import annotations

from chessarbiter.core.attacks import KING_ATTACKS
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
    LAST_RANKS,
    Step,
    diagonal_step,
    fill,
    king_step,
    knight_step,
    orthogonal_step,
    pawn_attacks,
    pawn_push,
)

STEP: dict[int, Step] = {
    KNIGHT: knight_step,
    BISHOP: diagonal_step,
    ROOK: orthogonal_step,
    QUEEN: king_step,
    KING: king_step,
}
"""Each piece kind's one-step moves and attacks."""
PROMOTIONS = (QUEEN, ROOK, BISHOP, KNIGHT)
START_RANKS = (RANKS[1], RANKS[6])
FIFTH_RANKS = (RANKS[4], RANKS[3])
"""Where a pawn of each colour may capture en passant."""

Piece = tuple[int, int, int]
"""A piece of a phase: colour, kind, region."""
Phase = tuple[int, int, tuple[Piece, ...]]
"""White pawns, black pawns and the pieces (sorted)."""


def phases_unwinnable(pos: Position, winner: int, cap: int) -> tuple[bool, int]:
    """Whether the exploration proves ``winner`` can never checkmate, and the phases seen
    (at most ``cap`` + 1)."""
    if pos.castling_rights:
        return False, 0
    pawns = (pos.pieces[PAWN], pos.pieces[8 | PAWN])
    pieces = [
        (colour, kind, 1 << sq)
        for colour in (0, 1)
        for kind in (KNIGHT, BISHOP, ROOK, QUEEN, KING)
        for sq in squares_of(pos.pieces[colour << 3 | kind])
    ]
    root = _phase(pawns[0], pawns[1], pieces)
    seen = {root}
    todo = [root]
    while todo:
        phase = todo.pop()
        if _mate_possible(phase, winner):
            return False, len(seen)
        for nxt in _successors(phase):
            if nxt not in seen:
                if len(seen) >= cap:
                    return False, len(seen)
                seen.add(nxt)
                todo.append(nxt)
    return True, len(seen)


def _phase(white: int, black: int, pieces: list[Piece]) -> Phase:
    """The phase with these pawns whose pieces come from ``pieces`` (regions filled again
    from what is left of them once the new pawns' squares are taken out).

    Pieces that cannot move while the others of a set stand are *stuck*: the greatest such
    set, found by dropping pieces from those on one square until the rest hold. As long as
    they all stand none can move, so by induction none moves within the phase: the others
    go round them, pawns cannot push onto them, and the enemy king keeps off the squares
    next to them in their move patterns (which they attack whatever else stands)."""
    free = FULL ^ (white | black)
    seeds = [(colour, kind, region & free) for colour, kind, region in pieces]
    stuck = 0
    for _, _, seed in seeds:
        if not seed & (seed - 1):
            stuck |= seed
    while True:
        guard = [pawn_attacks(black, 1), pawn_attacks(white, 0)]
        for colour, kind, seed in seeds:
            if seed & stuck and not seed & (seed - 1):
                guard[colour ^ 1] |= STEP[kind](seed)
        out = []
        held = 0
        for colour, kind, seed in seeds:
            allowed = free & ~stuck
            if kind == KING:
                allowed &= ~guard[colour]
            grown = fill(seed, allowed, STEP[kind])
            out.append((colour, kind, grown))
            if not grown & (grown - 1):
                held |= grown
        if held == stuck:
            return white, black, tuple(sorted(out))
        stuck = held


def _mate_possible(phase: Phase, winner: int) -> bool:
    white, black, pieces = phase
    pawns = (white, black)
    checks = pawn_attacks(pawns[winner], winner)
    helper = 0
    king = 0
    blockers = []
    for colour, kind, region in pieces:
        if colour != winner:
            if kind == KING:
                king = region
            else:
                blockers.append(region)
        elif kind == KING:
            helper = region
        else:
            checks |= STEP[kind](region)
    covered = checks | white | black
    for sq in squares_of(king & checks):
        near = KING_ATTACKS[sq]
        need = near & ~covered
        if _blockable(need, blockers):
            return True
        for where in squares_of(helper & king_step(need) & ~near & ~(1 << sq)):
            if _blockable(need & ~KING_ATTACKS[where], blockers):
                return True
    return False


def _blockable(need: int, blockers: list[int]) -> bool:
    """Whether the loser's pieces (their regions) could stand on every square of ``need``,
    one piece a square (counted, not matched)."""
    if not need:
        return True
    room = 0
    meet = 0
    for region in blockers:
        room |= region
        if region & need:
            meet += 1
    return not need & ~room and need.bit_count() <= meet


def _successors(phase: Phase) -> set[Phase]:
    white, black, pieces = phase
    pawns = [white, black]
    listed = list(pieces)
    occupied = white | black
    defended = [pawn_attacks(white, 0), pawn_attacks(black, 1)]
    for colour, kind, region in listed:
        if not region & (region - 1):
            occupied |= region
            defended[colour] |= STEP[kind](region)
    out: set[Phase] = set()

    def moved(colour: int, src: int, dst: int, victim: int, gone: int) -> None:
        after = pawns.copy()
        after[colour] ^= src
        after[colour ^ 1] &= ~victim
        rest = [p for i, p in enumerate(listed) if i != gone]
        if dst & LAST_RANKS[colour]:
            for kind in PROMOTIONS:
                out.add(_phase(after[0], after[1], [*rest, (colour, kind, dst)]))
        else:
            after[colour] |= dst
            out.add(_phase(after[0], after[1], rest))

    for colour in (0, 1):
        them = colour ^ 1
        enemy = pawns[them]
        for pawn in squares_of(pawns[colour]):
            src = 1 << pawn
            ahead = pawn_push(src, colour) & ~occupied
            if ahead:
                moved(colour, src, ahead, 0, -1)
                two = pawn_push(ahead, colour) & ~occupied
                if src & START_RANKS[colour] and two:
                    moved(colour, src, two, 0, -1)
            for target in squares_of(pawn_attacks(src, colour)):
                dst = 1 << target
                if dst & enemy:
                    moved(colour, src, dst, dst, -1)
                else:
                    for i, (owner, kind, region) in enumerate(listed):
                        if owner == them and kind != KING and region & dst:
                            moved(colour, src, dst, 0, i)
            if src & FIFTH_RANKS[colour]:
                for beside in squares_of((king_step(src) & enemy) & FIFTH_RANKS[colour]):
                    dst = pawn_push(1 << beside, colour)
                    if not dst & occupied:
                        moved(colour, src, dst, 1 << beside, -1)
        for i, (owner, kind, region) in enumerate(listed):
            if owner != colour:
                continue
            attack = STEP[kind](region)
            if kind == KING:
                attack &= ~defended[them]
            prey = attack & enemy
            for target in squares_of(prey):
                after = pawns.copy()
                after[them] ^= 1 << target
                grown = [*listed[:i], (owner, kind, region | 1 << target), *listed[i + 1 :]]
                out.add(_phase(after[0], after[1], grown))
            for j, (victim, vkind, vregion) in enumerate(listed):
                if victim == them and vkind != KING and attack & vregion:
                    rest = [
                        (owner, kind, region | (attack & vregion)) if k == i else p
                        for k, p in enumerate(listed)
                        if k != j
                    ]
                    out.add(_phase(white, black, rest))
    return out
