"""Can a side still checkmate? A sound, fast test (Laws Art. 5.1.2, 5.2.2, 6.9, 7.5.5).

"Cannot checkmate by any series of legal moves" is a helpmate question: both players may
cooperate. :func:`may_checkmate` answers ``False`` only when it has proved that no series of
legal moves ends with ``colour`` giving checkmate: by material (the cases where the mating side
would need the other side to promote) or by a bounded search in which every line ends without
that mate. Otherwise it answers ``True`` ("possibly"), so a game is never wrongly drawn. Like the
Laws' wording it reads "legal moves" as Art. 3 moves: the 50/75-move and repetition rules play
no part. The full dead-position analysis (:mod:`chessarbiter.laws.deadpos`) answers the same
question more often, as a :class:`~chessarbiter.laws.deadpos.Verdict`.

:func:`uscf_cannot_win_on_time` is US Chess rule 14E's material list, used instead on a flag by
the ``uscf`` profiles.
"""

from __future__ import annotations

from typing import Final

from chessarbiter.core.position import Position
from chessarbiter.core.squares import BISHOP, KNIGHT, PAWN, QUEEN, ROOK, Side
from chessarbiter.laws.deadpos.material import cannot_mate_by_material

SEARCH_DEPTH: Final = 4
"""Plies the bounded search looks ahead."""
SEARCH_NODES: Final = 100
"""Positions the bounded search may visit before it gives up (and answers "possibly")."""
SEARCH_MAX_UNITS: Final = 2
"""The search only runs when the mating side has at most this many pieces besides its king:
only then can every line lose them within :data:`SEARCH_DEPTH` plies."""


def may_checkmate(pos: Position, colour: Side) -> bool:
    """False only when ``colour`` provably cannot checkmate by any series of legal moves
    (Art. 5.2.2, 6.9): by material, else by an exhaustive search of :data:`SEARCH_DEPTH` plies
    in which every line ends in a position where it cannot (a mate of ``colour``, a stalemate,
    or too little material). A mate already on the board counts, whatever the material.
    Answers True when unsure. ``pos`` is left unchanged."""
    if cannot_mate_by_material(pos.pieces, colour):
        return pos.turn != colour and pos.is_checkmate()
    units = pos.occupied_co[colour] & ~pos.pieces[colour << 3 | 6]
    if units.bit_count() > SEARCH_MAX_UNITS:
        return True
    return _BoundedSearch(pos, colour).may_mate(SEARCH_DEPTH)


class _BoundedSearch:
    """Depth-first over every move of both sides (a helpmate search), with a node budget."""

    __slots__ = ("colour", "nodes", "pos")

    def __init__(self, pos: Position, colour: int) -> None:
        self.pos = pos
        self.colour = colour
        self.nodes = 0

    def may_mate(self, depth: int) -> bool:
        """True unless every line from here within ``depth`` plies ends without the mate."""
        pos = self.pos
        moves = pos.legal_moves()
        if not moves:
            return pos.turn != self.colour and pos.is_check()
        if cannot_mate_by_material(pos.pieces, self.colour):
            return False
        self.nodes += 1
        if depth == 0 or self.nodes > SEARCH_NODES:
            return True
        for move in moves:
            pos.push(move)
            try:
                if self.may_mate(depth - 1):
                    return True
            finally:
                pos.pop()
        return False


def uscf_cannot_win_on_time(pos: Position, colour: Side) -> bool:
    """US Chess rule 14E: ``colour``'s opponent ran out of time, yet ``colour`` only draws with
    (1) a lone king, (2) king and one bishop or one knight, or (3) king and two knights against
    a side without pawns. The rule's "and no forced win" exception is not evaluated."""
    pieces = pos.pieces
    own = colour << 3
    if pieces[own | PAWN] or pieces[own | ROOK] or pieces[own | QUEEN]:
        return False
    knights = pieces[own | KNIGHT].bit_count()
    bishops = pieces[own | BISHOP].bit_count()
    if knights + bishops <= 1:
        return True
    return bishops == 0 and knights == 2 and not pieces[(colour ^ 1) << 3 | PAWN]
