"""A caged king against a lone piece (Laws Art. 5.2.2, 6.9): no check can ever be mate.

The intended winner has its king and one piece P (a knight, bishop, rook or queen), no pawn
and no castling right anywhere. Then only P can give check, and once P is captured the
winner has a bare king, which never mates. Take a set F of units: the winner's king and
loser's units, each of which stands while all of F stands and P lives. P's *region* R is
every square P can reach from its square by its steps through squares outside F (other
units are ignored, which only makes R larger); the squares P attacks from R are one step of
its kind from R. F is the largest set, found by dropping units until none breaks its
condition, such that:

* a loser's pawn of F has a unit of F on the square ahead (it captures only P: the winner
  has no other unit it could take, and no pawn to take en passant);
* every square a loser's piece of F could move to (a knight's jump, its lines up to the
  first unit of F) is *mating*: the move checkmates the winner whatever the other units do
  (below), so it ends the game first;
* a loser's unit of F that P attacks from R is one P, taking it, would check the loser's king
  by contact (no interposition), and someone takes P back: a loser's unit of F attacking
  the square by contact, or the loser's king when the winner's king does not guard it;

and then the kings: every square next to the loser's king holds a loser's unit of F or is
next to the winner's king, every square next to the winner's king is attacked by contact
(a pawn's capture, a knight's jump, one step of a piece) by a loser's unit of F, and P
attacks the loser's king from no square of R.

A move of a loser's piece of F from ``s`` to ``t`` is mating when it checks the winner's
king: by contact from ``t``, or uncovering a line of a loser's bishop, rook or queen of F
whose only square between it and the king is ``s``; every square next to that king is
attacked by contact by the loser's units of F after the move (which also stops the king
from taking a checker next to it); and, with one checker, P can neither take it nor step
between, attacking neither from its region refilled with ``s`` open and ``t`` closed.

Why no series of moves ends in the winner's checkmate: by induction over the moves, while
all of F stands and P lives, P stays in R and no unit of F moves (a unit of F never takes
one of its own side, the winner's king never moves, the loser's moves out of F all mate the
winner or take P, and the loser's king has nowhere to go). A move that breaks F is
therefore P taking a loser's unit of F: that checks the loser's king by contact, every
square next to it is held or guarded, so every reply takes P, and one does. Checkmate needs
a check, which only P can give; from R it never attacks the loser's king.
"""

from __future__ import annotations

from chessarbiter.core.attacks import (
    BETWEEN,
    BISHOP_RAYS,
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    ROOK_RAYS,
    bishop_attacks,
    rook_attacks,
)
from chessarbiter.core.position import Position
from chessarbiter.core.squares import BISHOP, FULL, KING, KNIGHT, PAWN, QUEEN, ROOK, squares_of
from chessarbiter.laws.deadpos.bitboards import (
    STEPS,
    Step,
    fill,
    pawn_attacks,
    pawn_push,
    piece_step,
)

Unit = tuple[int, int, int]
"""A loser's unit: its square, its kind and the squares it attacks by contact."""


def caged_unwinnable(pos: Position, winner: int) -> bool:
    """Whether the rule of the module docstring proves that ``winner`` cannot mate."""
    pieces = pos.pieces
    w = winner << 3
    if pos.castling_rights or pieces[w | PAWN]:
        return False
    kind = attacker = 0
    for each in (KNIGHT, BISHOP, ROOK, QUEEN):
        if pieces[w | each]:
            if attacker:
                return False
            kind, attacker = each, pieces[w | each]
    if not attacker or attacker & (attacker - 1):
        return False
    loser = winner ^ 1
    own = pos.occupied_co[loser]
    k = pieces[w | KING].bit_length() - 1
    lk = pieces[(loser << 3) | KING].bit_length() - 1
    if KING_ATTACKS[lk] & ~own & ~KING_ATTACKS[k]:
        return False  # the loser's king has a square to go to
    units: list[Unit] = []
    for each in (PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING):
        for sq in squares_of(pieces[(loser << 3) | each]):
            bit = 1 << sq
            contact = pawn_attacks(bit, loser) if each == PAWN else piece_step(each, bit)
            units.append((sq, each, contact))
    step = STEPS[kind]
    fixed = own | 1 << k
    while True:
        region = fill(attacker, FULL & ~fixed, step)
        hits = step(region)
        if hits >> lk & 1:
            return False
        standing = [unit for unit in units if fixed >> unit[0] & 1]
        guard = 0
        for _, _, contact in standing:
            guard |= contact
        if KING_ATTACKS[k] & ~guard:
            return False  # the winner's king may move
        dropped = 0
        for unit in standing:
            if unit[1] != KING and not _stands(
                unit, standing, fixed, region, hits, step, k, lk, loser
            ):
                dropped |= 1 << unit[0]
        if not dropped:
            break
        fixed &= ~dropped
    return not KING_ATTACKS[lk] & ~(fixed & own) & ~KING_ATTACKS[k]


def _stands(
    unit: Unit,
    standing: list[Unit],
    fixed: int,
    region: int,
    hits: int,
    step: Step,
    k: int,
    lk: int,
    loser: int,
) -> bool:
    """Whether a loser's unit of F (``standing``, on ``fixed``) keeps its condition."""
    sq, kind, _ = unit
    bit = 1 << sq
    if hits & bit:
        takers = 0
        for other, other_kind, contact in standing:
            if other != sq and (other_kind != KING or not KING_ATTACKS[k] & bit):
                takers |= contact
        if not step(bit) >> lk & 1 or not takers & bit:
            return False
    if kind == PAWN:
        return bool(pawn_push(bit, loser) & fixed)
    if kind == KNIGHT:
        targets = KNIGHT_ATTACKS[sq] & ~fixed
    else:
        targets = 0
        if kind != ROOK:
            targets |= bishop_attacks(sq, fixed)
        if kind != BISHOP:
            targets |= rook_attacks(sq, fixed)
        targets &= ~fixed
    if not targets:
        return True
    guard = 0
    for other, _, contact in standing:
        if other != sq:
            guard |= contact
    return all(
        _mates(kind, sq, t, standing, fixed, region, guard, step, k) for t in squares_of(targets)
    )


def _mates(
    kind: int,
    s: int,
    t: int,
    standing: list[Unit],
    fixed: int,
    region: int,
    guard: int,
    step: Step,
    k: int,
) -> bool:
    """Whether the loser's piece of ``kind`` moving from ``s`` to ``t`` surely checkmates the
    winner's king on ``k``; ``guard`` is what the other units of F attack by contact."""
    contact = piece_step(kind, 1 << t)
    checkers: list[tuple[int, int]] = []
    if contact >> k & 1:
        checkers.append((t, 0))
    for other, other_kind, _ in standing:
        if other_kind == BISHOP:
            lines = BISHOP_RAYS[other]
        elif other_kind == ROOK:
            lines = ROOK_RAYS[other]
        elif other_kind == QUEEN:
            lines = BISHOP_RAYS[other] | ROOK_RAYS[other]
        else:
            continue
        if lines >> k & 1 and BETWEEN[other][k] == 1 << s:
            checkers.append((other, 1 << s))
    if not checkers or KING_ATTACKS[k] & ~(guard | contact):
        return False
    if len(checkers) > 1:
        return True  # a double check: only the king could answer
    checker, between = checkers[0]
    walls = (fixed & ~(1 << s)) | 1 << t
    reach = step(fill(region & ~(1 << t), FULL & ~walls, step))
    return not (reach >> checker & 1 or reach & between)
