"""Loser's pieces that can move only by checkmating the winner (used by :mod:`.phases`).

A move that checkmates the intended winner ends the game without the winner's mate, so no
series of moves that leads to that mate contains it. Take a set S of stuck units (they
stand throughout the phase while all of them stand), the winner's king among them on a
square ``k``, and a loser's piece P of S on ``q``. Each square ``t`` P could move to
without capturing (along its lines from ``q`` through squares that hold no pawn and no
unit of S) is *mating* when P on ``t`` attacks ``k`` by contact (a knight's jump or one
step of its lines: the check cannot be blocked) and, in the position right after that move:

* no winner's unit other than the king can take P: no winner's pawn attacks ``t``, no
  winner's piece attacks it from its region (one step of its kind from the region, closed
  under its steps through squares holding no pawn and no unit of S; or, for a slider, along
  one of its lines through ``q``, now empty, when its region meets those lines);
* the king cannot take P: ``t``, when next to ``k``, is attacked by contact by a loser's
  pawn or a loser's unit of S other than P (all still stand);
* the king has no other square: each one next to ``k`` holds a winner's pawn or unit of
  S, or is attacked by contact by those loser's units or by P from ``t``.

Then the winner is in check and has no legal move: checkmated. When every square P could
move to is mating, P never moves while S stands (its captures are transitions of the phase,
not moves inside it), so it may be counted in S.

The same test drops a loser's pawn move, capture or promotion after which the winner is
surely mated (:func:`mates_winner`): the moved unit gives the contact check from its new
square (a pawn that has just made a double step next to a winner's pawn, which might take
it en passant, is left alone); the units whose region is one square stand there (the
phase's stuck units, and the moved one); the winner's other pieces lie in their regions,
closed under their steps apart from the square the move emptied.
"""

from __future__ import annotations

from collections.abc import Sequence

from chessarbiter.core.attacks import KING_ATTACKS
from chessarbiter.core.squares import KING, KNIGHT, PAWN, RANKS, squares_of
from chessarbiter.laws.deadpos.bitboards import king_step, pawn_attacks, piece_step
from chessarbiter.laws.deadpos.phasemate import Entry, Piece, attacks_from


def frozen(
    pieces: Sequence[Piece],
    seeds: Sequence[Piece],
    stuck: int,
    pawns: tuple[int, int],
    winner: int,
    king: int,
) -> int:
    """The squares of the loser's pieces in ``stuck`` (each seed one square) that can move
    only by checkmating the winner; ``pieces`` are the regions filled while ``stuck``
    stands (only the winner's pieces other than the king are read), ``seeds`` where each
    piece started, ``king`` the winner's king region."""
    loser = winner ^ 1
    if not king & stuck or king & (king - 1):
        return 0
    k = king.bit_length() - 1
    blocked = pawns[0] | pawns[1] | stuck
    walls = pawns[winner]
    guards: list[tuple[int, int]] = []
    for colour, kind, region in seeds:
        if region & stuck and not region & (region - 1):
            if colour == winner:
                walls |= region
            else:
                guards.append((region, piece_step(kind, region)))
    takers = [
        (kind, region) for colour, kind, region in pieces if colour == winner and kind != KING
    ]
    out = 0
    for colour, kind, seed in seeds:
        if colour != loser or kind == KING or not seed & stuck or seed & (seed - 1):
            continue
        targets = attacks_from(kind, seed, loser, blocked) & ~blocked
        if not targets:
            continue
        guard = pawn_attacks(pawns[loser], loser)
        for square, attack in guards:
            if square != seed:
                guard |= attack
        if all(
            _mating(piece_step(kind, 1 << t), 1 << t, k, guard, walls, takers, seed, pawns, winner)
            for t in squares_of(targets)
        ):
            out |= seed
    return out


def mates_winner(entry: Entry, winner: int) -> bool:
    """Whether the loser's pawn move, capture or promotion ``entry`` surely checkmates the
    winner: the same test, the units whose region is one square standing there."""
    if entry.mover == winner:
        return False
    loser = winner ^ 1
    pawns = (entry.white, entry.black)
    king = walls = 0
    guard = pawn_attacks(pawns[loser], loser)
    takers = []
    for colour, kind, region in entry.pieces:
        single = not region & (region - 1)
        if colour == loser:
            if single:
                guard |= piece_step(kind, region)
        elif kind == KING:
            king = region
        else:
            takers.append((kind, region))
            if single:
                walls |= region
    if not king or king & (king - 1):
        return False
    if entry.kind == PAWN:
        if king_step(entry.dst) & RANKS[entry.dst.bit_length() - 1 >> 3] & pawns[winner]:
            return False
        attack = pawn_attacks(entry.dst, loser)
    else:
        attack = piece_step(entry.kind, entry.dst)
    k = king.bit_length() - 1
    walls |= pawns[winner]
    return _mating(attack, entry.dst, k, guard, walls, takers, entry.origin, pawns, winner)


def _mating(
    attack: int,
    dst: int,
    k: int,
    guard: int,
    walls: int,
    takers: list[tuple[int, int]],
    origin: int,
    pawns: tuple[int, int],
    winner: int,
) -> bool:
    """Whether a loser's unit that moved from ``origin`` to ``dst``, where it attacks
    ``attack`` by contact, surely mates the winner's king on ``k``; ``guard`` are the
    squares the loser's pawns and other stuck units attack by contact, ``walls`` the
    winner's pawns and stuck units, ``takers`` the winner's other pieces (kind, region)."""
    if not attack >> k & 1 or pawn_attacks(pawns[winner], winner) & dst:
        return False
    for taker, region in takers:
        if piece_step(taker, region) & dst:
            return False
        if taker != KNIGHT:
            through = attacks_from(taker, origin, winner, pawns[0] | pawns[1])
            if through & dst and through & region:
                return False
    near = KING_ATTACKS[k]
    if near & dst and not guard & dst:
        return False
    return not near & ~dst & ~(walls | guard | attack)
