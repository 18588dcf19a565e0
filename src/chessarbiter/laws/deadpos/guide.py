"""Move ordering for the helpmate search: a cheap score per move (lower is more promising),
computed from the move alone without playing it, after the heuristics Ambrona describes
(FUN 2022).

The plan it steers towards: the loser's king walks to a mating square (see
:func:`.targets.mating_squares`: a corner, of the winner's bishops' colour when those are all on
one colour, or a square its pawns box it in); the winner's king comes to two squares from
it, or, for a winner with pawns and no queen or rook, goes to take the loser's unit in
front of one of its pawns (an undefended one first, then the one before the most advanced
pawn); kings walk round their own pawns and the squares enemy pawns attack. The winner's
other pieces come close, offer themselves to the loser's pawns (a pawn that takes leaves
its file) and step out of the way of its own pawns; its pawns advance and promote to
queens; it captures the loser's pieces (unless it mates only with minor pieces, which need
the loser's pieces as blockers); the loser offers its pieces for capture, promotes to a
knight or bishop when the winner needs a blocker and then sends its knights next to the
mating square, and avoids capturing the winner's material, except with a pawn where a
blocked winner's pawn retakes (the exchange opens a wall of pawns).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache
from typing import Final

from chessarbiter.core.attacks import (
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    PAWN_ATTACKS,
    bishop_attacks,
    rook_attacks,
)
from chessarbiter.core.moves import CASTLE_FLAG, Move
from chessarbiter.core.position import Position
from chessarbiter.core.squares import BISHOP, FULL, KING, KNIGHT, PAWN, QUEEN, ROOK, squares_of
from chessarbiter.laws.deadpos.bitboards import (
    DISTANCE,
    king_step,
    knight_step,
    pawn_attacks,
    pawn_push,
)

LURE: Final = 10
"""Bonus for a winner's piece moving where a loser's pawn could take it: the pawn would
leave its file, which may free a winner's pawn."""
RETAKEN: Final = 10
"""What the loser's pawn taking a winner's piece that a blocked winner's pawn can retake
scores (lowest best) instead of the penalty of a capture: the exchange frees that pawn and
moves the loser's off its file, which opens a wall of pawns (the sacrifice :data:`LURE`
offers)."""
MAKE_WAY: Final = 4
"""Bonus for a winner's piece standing right in front of one of its own pawns moving off:
the pawn may then advance."""
WALLED: Final = 16
"""Added to the distance of a square from which a king cannot walk to its target."""
_WALLED_OFF: Final = tuple(tuple(WALLED + d for d in row) for row in DISTANCE)


def attacked_by(pos: Position, colour: int) -> int:
    """Every square ``colour`` attacks (pins ignored)."""
    pieces = pos.pieces
    occupied = pos.occupied_co[0] | pos.occupied_co[1]
    base = colour << 3
    out = 0
    steppers = ((PAWN, PAWN_ATTACKS[colour]), (KNIGHT, KNIGHT_ATTACKS), (KING, KING_ATTACKS))
    for kind, table in steppers:
        bb = pieces[base | kind]
        while bb:
            low = bb & -bb
            bb ^= low
            out |= table[low.bit_length() - 1]
    for kind in (BISHOP, ROOK, QUEEN):
        bb = pieces[base | kind]
        while bb:
            low = bb & -bb
            bb ^= low
            sq = low.bit_length() - 1
            if kind != ROOK:
                out |= bishop_attacks(sq, occupied)
            if kind != BISHOP:
                out |= rook_attacks(sq, occupied)
    return out


def gives_check(pos: Position, move: int, king: int) -> bool:
    """Whether the moved piece itself attacks ``king`` from its new square (discovered
    checks and castling are not seen)."""
    fr = move & 63
    to = (move >> 6) & 63
    kind = (move >> 12) & 7 or pos.board[fr] & 7
    target = 1 << king
    if kind == KNIGHT:
        return bool(KNIGHT_ATTACKS[to] & target)
    if kind == PAWN:
        return bool(PAWN_ATTACKS[pos.turn][to] & target)
    if kind == KING:
        return False
    occupied = (pos.occupied_co[0] | pos.occupied_co[1]) & ~(1 << fr)
    if kind != ROOK and bishop_attacks(to, occupied) & target:
        return True
    return kind != BISHOP and bool(rook_attacks(to, occupied) & target)


def check_squares(pos: Position, king: int) -> Callable[[int, int], int]:
    """For :func:`gives_check` on many moves of one position: a function of a piece's kind
    and square giving the squares from which that piece, once moved, attacks ``king``
    (pawns: those of the side to move)."""
    occupied = pos.occupied_co[0] | pos.occupied_co[1]
    knight = KNIGHT_ATTACKS[king]
    pawn = PAWN_ATTACKS[pos.turn ^ 1][king]

    def squares(kind: int, fr: int) -> int:
        if kind == KNIGHT:
            return knight
        if kind == PAWN:
            return pawn
        if kind == KING:
            return 0
        left = occupied & ~(1 << fr)
        out = 0 if kind == ROOK else bishop_attacks(king, left)
        return out if kind == BISHOP else out | rook_attacks(king, left)

    return squares


def free_squares(white: int, black: int, colour: int) -> int:
    """The squares ``colour``'s king could stand on as far as the pawns (``white`` and
    ``black``) tell: neither its own pawns' nor those the enemy pawns attack."""
    own, enemy = (white, black) if colour == 0 else (black, white)
    return FULL & ~own & ~pawn_attacks(enemy, colour ^ 1)


def king_distances(pos: Position, colour: int, target: int) -> tuple[int, ...]:
    """King steps from each square to ``target`` for ``colour``'s king, around its own pawns
    and the squares the enemy pawns attack (the pieces are ignored); a square it cannot
    reach so gets its plain distance plus :data:`WALLED`."""
    white, black = pos.pieces[PAWN], pos.pieces[8 | PAWN]
    if not white | black:
        return DISTANCE[target]
    return _walk(white, black, colour, target)


@lru_cache(maxsize=4096)
def _walk(white: int, black: int, colour: int, target: int) -> tuple[int, ...]:
    """:func:`king_distances` for these pawns, cached."""
    free = free_squares(white, black, colour)
    out = list(_WALLED_OFF[target])
    out[target] = 0
    seen = layer = 1 << target
    steps = 0
    while layer:
        steps += 1
        layer = king_step(layer) & free & ~seen
        seen |= layer
        bb = layer
        while bb:
            low = bb & -bb
            bb ^= low
            out[low.bit_length() - 1] = steps
    return tuple(out)


@cache
def knight_jumps(targets: int) -> tuple[int, ...]:
    """Knight jumps from each square to the nearest of ``targets`` on an empty board."""
    out = [0] * 64
    seen = layer = targets
    jumps = 0
    while layer:
        jumps += 1
        layer = knight_step(layer) & ~seen
        seen |= layer
        for sq in squares_of(layer):
            out[sq] = jumps
    return tuple(out)


@cache
def _step_scores(near: tuple[int, ...]) -> tuple[int, ...]:
    """``near[to] - near[fr]`` for every move code ``fr | to << 6`` (12 bits)."""
    return tuple(n_to - n_fr for n_to in near for n_fr in near)


@cache
def _pawn_advances(white: bool) -> tuple[int, ...]:
    """The winner's pawn moves' score by move code: ``-(2 + ranks advanced)`` at ``to``."""
    ranks = [(to >> 3) if white else 7 - (to >> 3) for to in range(64)]
    return tuple(-2 - rank for rank in ranks for _ in range(64))


def _blocked(pos: Position, colour: int) -> int:
    """The pawns of ``colour`` whose square ahead is taken."""
    pawns = pos.pieces[colour << 3 | PAWN]
    taken = pos.occupied_co[0] | pos.occupied_co[1]
    return pawns & pawn_push(taken, colour ^ 1)


def _blocker(pos: Position, winner: int, default: int) -> int:
    """The square of a loser's unit (not the king) in front of a winner's pawn, which the
    winner's king then goes to take: one no loser's pawn defends if there is one, then the
    one before the most advanced pawn; else ``default``."""
    step = 8 if winner == 0 else -8
    units = pos.occupied_co[winner ^ 1] & ~pos.pieces[(winner ^ 1) << 3 | KING]
    guarded = pawn_attacks(pos.pieces[(winner ^ 1) << 3 | PAWN], winner ^ 1)
    best = default
    rank = (2, 0)
    for pawn in squares_of(pos.pieces[winner << 3 | PAWN]):
        sq = pawn + step
        while 0 <= sq < 64 and not pos.board[sq]:
            sq += step
        if 0 <= sq < 64 and units >> sq & 1 and (guarded >> sq & 1, -pawn * step) < rank:
            best = sq
            rank = (guarded >> sq & 1, -pawn * step)
    return best


class Guide:
    """Scores moves for one intended winner and mating square ``corner`` (one of
    :func:`.targets.mating_squares`); the winner's king's target is cached by pawn
    structure."""

    def __init__(self, pos: Position, winner: int, corner: int) -> None:
        self.winner = winner
        self.loser = winner ^ 1
        pieces = pos.pieces
        w = winner << 3
        self.needs_blockers = not (pieces[w | PAWN] or pieces[w | ROOK] or pieces[w | QUEEN])
        self.corner = corner
        self.blocking = knight_jumps(KING_ATTACKS[self.corner])
        self.targets: dict[tuple[int, int, int], int] = {}
        near = DISTANCE[self.corner]
        self._near = near
        self._near_minor = tuple(2 * d for d in near)
        self._near_heavy = tuple(max(d, 3) for d in near)
        near_minor = _step_scores(self._near_minor)
        near_heavy = _step_scores(self._near_heavy)
        self._winner_steps = (
            (), _pawn_advances(winner == 0), near_minor, near_minor, near_heavy, near_heavy
        )
        """The winner's moves' score by kind and move code (pawns: their advance; kings
        apart)."""
        near_steps = _step_scores(near)
        self._loser_steps = (
            (), tuple(d - 3 for d in near_steps), _step_scores(self.blocking), near_steps,
            near_steps, near_steps,
        )
        """The loser's moves' score by kind and move code when the winner needs blockers."""
        self._taken = tuple(
            0 if not piece else -2 if self.needs_blockers else -8 - 2 * (piece & 7)
            for piece in range(16)
        )
        """What the winner's capture of each piece adds to a move's score."""

    def order(self, pos: Position, moves: list[Move]) -> list[Move]:
        """``moves`` best first."""
        return [moves[k & 255] for k in sorted(self.keys(pos, moves))]

    def keys(self, pos: Position, moves: list[Move]) -> list[int]:
        """Each move's sort key, in the order of ``moves``: its score times 256 plus its
        index (so ``key & 255`` is the index), lowest best; ties keep the list's order."""
        if pos.turn == self.winner:
            return self._winner_keys(pos, moves)
        return self._loser_keys(pos, moves)

    def target(self, pos: Position) -> int:
        """Where the winner's king heads: for a winner with pawns and no queen or rook, the
        loser's unit blocking one of its pawns (see :func:`_blocker`, cached), else the
        mating square."""
        w = self.winner << 3
        pawns = pos.pieces[w | PAWN]
        if not pawns or pos.pieces[w | ROOK] or pos.pieces[w | QUEEN]:
            return self.corner
        units = pos.occupied_co[self.loser] ^ pos.pieces[self.loser << 3 | KING]
        key = (pawns, pos.pieces[(w ^ 8) | PAWN], units)
        target = self.targets.get(key)
        if target is None:
            target = self.targets[key] = _blocker(pos, self.winner, self.corner)
        return target

    def _winner_keys(self, pos: Position, moves: list[Move]) -> list[int]:
        """The winner's king walks to take a blocker (when its target is not the corner) or
        to two squares from the corner; its pawns advance and promote to queens; its other
        pieces close in, are lured onto the squares the loser's pawns attack and step off
        the squares in front of its pawns; captures count by the piece taken."""
        board = pos.board
        lure = pawn_attacks(pos.pieces[self.loser << 3 | PAWN], self.loser)
        target = self.target(pos)
        walk = king_distances(pos, self.winner, target)
        hunt = target != self.corner
        taken = self._taken
        steps = self._winner_steps
        pieces = pos.pieces
        pawns = pieces[self.winner << 3 | PAWN]
        others = pos.occupied_co[self.winner] ^ pawns ^ pieces[self.winner << 3 | KING]
        front = pawn_push(pawns, self.winner) & others
        out: list[int] = []
        for i, move in enumerate(moves):
            fr = move & 63
            to = (move >> 6) & 63
            kind = board[fr] & 7
            if kind == KING:
                score = 0 if move & CASTLE_FLAG else taken[board[to]]
                if hunt:
                    score += 4 * (walk[to] - walk[fr])
                else:
                    score += 4 * (abs(walk[to] - 2) - abs(walk[fr] - 2))
            else:  # only kings castle: ``move >> 12`` is the promotion
                score = taken[board[to]] + steps[kind][move & 4095]
                if kind == PAWN:
                    promoted = move >> 12
                    if promoted == QUEEN:
                        score -= 20
                    elif promoted:
                        score += 24
                    out.append(score << 8 | i)
                    continue
            if lure >> to & 1:
                score -= LURE
            if front >> fr & 1:
                score -= MAKE_WAY
            out.append(score << 8 | i)
        return out

    def _loser_keys(self, pos: Position, moves: list[Move]) -> list[int]:
        """The loser's king walks to the corner; it avoids captures, but for a pawn's
        capture of a piece a blocked winner's pawn retakes; it promotes to a knight or
        bishop when the winner needs a blocker (else to a queen), and then brings its
        knights next to the corner and its other units closer; else it offers its units on
        the squares the winner attacks."""
        board = pos.board
        walk = king_distances(pos, self.loser, self.corner)
        blockers = self.needs_blockers
        offered = 0 if blockers else attacked_by(pos, self.winner)
        steps = self._loser_steps
        retaken = pawn_attacks(_blocked(pos, self.winner), self.winner)
        out: list[int] = []
        for i, move in enumerate(moves):
            fr = move & 63
            to = (move >> 6) & 63
            kind = board[fr] & 7
            if kind == KING:
                score = 10 if board[to] and not move & CASTLE_FLAG else 0
                score += 4 * (walk[to] - walk[fr])
            else:  # only kings castle: ``move >> 12`` is the promotion
                score = 10 if board[to] else 0
                if kind == PAWN and retaken >> to & 1 and board[to] & 7 > PAWN:
                    score = -RETAKEN  # a piece (not a pawn) taken: board[to] is not empty
                promoted = move >> 12
                if promoted:
                    wanted = promoted in (KNIGHT, BISHOP) if blockers else promoted == QUEEN
                    score += -6 if wanted else 6
                if not blockers:
                    score += -3 if offered >> to & 1 else 1
                else:
                    score += steps[kind][move & 4095]
            out.append(score << 8 | i)
        return out
