"""Is the position proved dead? The arbiter's question after every move (Laws Art. 5.2.2,
S9.6): neither side can checkmate by any series of legal moves.

Only the cheap, sound stages of :mod:`.api`'s quick analysis run, never a helpmate search:
material (:mod:`.material`); the forced replies played out (:mod:`.forced`), a loop or a
stalemate at their end being dead and a checkmate not; then, for each side, the static
mobility analysis (:mod:`.static`) or the exploration of pawn structures (:mod:`.phases`,
with the quick mode's cap); last, when only one or two moves are legal, each of them must
stalemate or lead to a position those stages prove dead (one ply, no deeper). A position that
is not dead, or not proved so, answers ``None``.

Most positions of a game cannot be closed by those proofs, and a few bitboard operations
turn them away first (:func:`_may_close`). The structural proofs need pawn walls, so a
position goes on only if some pawn is stuck (a pawn, of either colour, on the square ahead
of it); if any pawn can step forward, at least :data:`MIN_STUCK` pawns are stuck and no more
can step than are stuck; no pawn has an empty file ahead of it up to its last rank; and
knights, rooks and queens have at most :data:`MAX_FREE_STEPS` empty squares one step (one
jump) away, counted over all of them: free heavy pieces and knights attack walls from behind
and get round them. A position the gate turns away goes on to its forced replies only when at
most :data:`FEW_UNITS` units other than kings are left (a forced capture can then leave too
little material). The gate decides only what is analysed, never a verdict: it costs
completeness, never soundness. The unwinnability corpus holds it to the quick analysis: of
the dead positions quick proves, the gate turns away seven composed ones (a forced sequence
ending in stalemate, or a pawn with an open file), and 51 need quick's helpmate search (more
than the one ply looked ahead here); the tests list both.
"""

from __future__ import annotations

from typing import Final

from chessarbiter.core.position import Position
from chessarbiter.core.squares import FULL, KING, KNIGHT, PAWN, QUEEN, ROOK
from chessarbiter.laws.deadpos.api import QUICK_PHASES
from chessarbiter.laws.deadpos.bitboards import diagonal_step, knight_step, orthogonal_step
from chessarbiter.laws.deadpos.forced import play_forced_moves
from chessarbiter.laws.deadpos.material import cannot_mate_by_material
from chessarbiter.laws.deadpos.phases import phases_unwinnable
from chessarbiter.laws.deadpos.static import statically_unwinnable

MIN_STUCK: Final = 4
"""Fewest stuck pawns a position with a pawn free to step needs to be analysed."""
MAX_FREE_STEPS: Final = 8
"""Most empty squares one knight jump, rook step or queen step away from any knight, rook or
queen in a position that is analysed (the corpus positions the static proofs close have at
most 7)."""
MAX_REPLIES: Final = 2
"""Most legal moves a position may have for each of them to be tried."""
FEW_UNITS: Final = 6
"""Most units other than kings in a position the gate turns away whose forced replies are
still played out."""


def proved_dead(pos: Position) -> str | None:
    """A short reason when ``pos`` is proved dead (Art. 5.2.2), else ``None``; ``pos`` is
    unchanged. The checkmate and stalemate rules come first (Art. 5.1.1, 5.2.1): the caller
    applies them before asking."""
    return _proved(pos, True)


def _proved(pos: Position, branch: bool) -> str | None:
    """:func:`proved_dead`; with ``branch``, a position with at most :data:`MAX_REPLIES`
    legal moves is also dead when each of them ends the game in stalemate or leads to a
    position proved dead without branching again."""
    pieces = pos.pieces
    if not (pieces[PAWN] | pieces[ROOK] | pieces[QUEEN]) and _material_dead(pieces):
        return "insufficient material"
    occupied = pos.occupied_co[0] | pos.occupied_co[1]
    walls = _may_close(pieces, occupied)
    if not walls and (occupied & ~(pieces[KING] | pieces[8 | KING])).bit_count() > FEW_UNITS:
        return None
    work = pos
    count = pos.count_legal_moves()
    if count == 1:
        work = Position.from_snapshot(pos.snapshot())
        _, looped = play_forced_moves(work)
        if looped:
            return "the forced moves repeat"
        count = work.count_legal_moves()
        if count == 0:
            return None if work.is_check() else "the forced moves end in stalemate"
        if _material_dead(work.pieces):
            return "insufficient material after the forced moves"
        walls = walls or _may_close(work.pieces, work.occupied_co[0] | work.occupied_co[1])
    reason = _structure(work) if walls else None
    if reason is None and branch and 0 < count <= MAX_REPLIES and _every_reply_dead(work):
        return "every legal move leads to a dead position"
    return reason


def _every_reply_dead(pos: Position) -> bool:
    """Whether each legal move stalemates or leads to a position proved dead (not branching
    again); ``pos`` is restored."""
    for move in pos.legal_moves():
        pos.push(move)
        stuck = not pos.count_legal_moves()
        dead = not pos.is_check() if stuck else _proved(pos, False) is not None
        pos.pop()
        if not dead:
            return False
    return True


def _structure(pos: Position) -> str | None:
    """The static analysis, else the pawn-structure exploration, for each side."""
    reason = "blocked pawn structure"
    for winner in (0, 1):
        if statically_unwinnable(pos, winner):
            continue
        if not phases_unwinnable(pos, winner, QUICK_PHASES)[0]:
            return None
        reason = "pawn structure"
    return reason


def _material_dead(pieces: list[int]) -> bool:
    """Neither side has mating material (:mod:`.material`)."""
    return cannot_mate_by_material(pieces, 0) and cannot_mate_by_material(pieces, 1)


def _may_close(pieces: list[int], occupied: int) -> bool:
    """Whether a structural proof could close the position (see the module doc)."""
    white = pieces[PAWN]
    black = pieces[8 | PAWN]
    pawns = white | black
    stuck = (white & (pawns >> 8)).bit_count() + (black & (pawns << 8)).bit_count()
    if not stuck:
        return False
    free = (white & ~(occupied >> 8)).bit_count() + (black & ~(occupied << 8) & FULL).bit_count()
    if free and (stuck < MIN_STUCK or free > stuck):
        return False
    if white & ~_down(occupied >> 8) or black & ~_up(occupied << 8 & FULL):
        return False
    empty = FULL ^ occupied
    queens = pieces[QUEEN] | pieces[8 | QUEEN]
    steps = (knight_step(pieces[KNIGHT] | pieces[8 | KNIGHT]) & empty).bit_count()
    steps += (orthogonal_step(pieces[ROOK] | pieces[8 | ROOK] | queens) & empty).bit_count()
    steps += (diagonal_step(queens) & empty).bit_count()
    return steps <= MAX_FREE_STEPS


def _up(b: int) -> int:
    """The squares of ``b`` and every square above them."""
    b |= b << 8
    b |= b << 16
    return (b | b << 32) & FULL


def _down(b: int) -> int:
    """The squares of ``b`` and every square below them."""
    b |= b >> 8
    b |= b >> 16
    return b | b >> 32
