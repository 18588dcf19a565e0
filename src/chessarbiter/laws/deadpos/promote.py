"""Staged helpmate search for a winner whose only units are pawns: finds helpmates, proves
nothing.

Such a mate needs a promotion first, and when every file is shut, a promotion by the loser
too, whose new piece a winner's pawn captures to reach an open file. Each plan (the winner
promotes, then mates; or the loser promotes, then the winner, then mates) is a chain of
best-first searches: one for positions right after the next promotion, ordered by the
moves that promotion still needs (:func:`promotion_cost`), and from each such position,
within a slice of what is left, the next stage; the last stage is
:func:`.bestfirst_helpmate`. A stage that runs dry or spends its slice hands back to the
search before it, which goes on to its next promotion. When the first plan's search runs
dry before any promotion, no promotion by the winner is reachable and the second plan could
only see the same positions again, so it is skipped. Every generated position counts as a
node.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import Final

from chessarbiter.core.moves import Move, promotion
from chessarbiter.core.position import Position
from chessarbiter.core.squares import FILES, KING, PAWN, squares_of
from chessarbiter.laws.deadpos.bestfirst import Tree, bestfirst_helpmate
from chessarbiter.laws.deadpos.bitboards import DISTANCE
from chessarbiter.laws.deadpos.deadline import NEVER, Deadline
from chessarbiter.laws.deadpos.estimate import BLOCKED, FAR, promotion_moves
from chessarbiter.laws.deadpos.material import cannot_mate_by_material
from chessarbiter.laws.deadpos.strategy import Found, Outcome, Spent, has_piece
from chessarbiter.laws.deadpos.successors import child_key

WEIGHT: Final = 3
"""How much more the promotion cost counts than the plies already played."""
UNREACHABLE: Final = 3 * FAR
"""The cost of a promotion neither way reaches."""
FIRST: Final = 8
"""The plan with the winner's promotion alone may use this fraction of the budget."""
SLICE: Final = 4
"""A promotion's next stage may use this fraction of what its stage has left."""


class _Count:
    """Nodes used so far, shared by the stages; promotions found; whether the last search
    for them ran dry."""

    def __init__(self, deadline: Deadline) -> None:
        self.nodes = 0
        self.deadline = deadline
        self.goals = 0
        self.dry = False


class StagedSearch:
    """The staged search as a :class:`.strategy.Strategy`: each run starts afresh; it runs
    only for a winner with no piece (otherwise every run spends nothing), finds helpmates,
    never proves."""

    def __init__(self, pos: Position, winner: int) -> None:
        self.pos = pos
        self.winner = winner
        self.resumes = False
        self.extra = False
        self.applies = not has_piece(pos, winner)
        self.nodes = 0

    def run(self, budget: int, deadline: Deadline = NEVER) -> Outcome:
        """A helpmate found within ``budget`` nodes, else :class:`.strategy.Spent`."""
        if not self.applies:
            return Spent(0)
        line, used = _staged(self.pos, self.winner, budget, deadline)
        self.nodes += used
        return Found(line, used) if line else Spent(used)


def _staged(
    pos: Position, winner: int, budget: int, deadline: Deadline
) -> tuple[tuple[Move, ...], int]:
    """A helpmate by ``winner`` found within ``budget`` nodes (empty if none was found), and
    the nodes used. ``pos`` is not changed."""
    count = _Count(deadline)
    loser = winner ^ 1
    for plan in ((winner,), (loser, winner)):
        left = budget - count.nodes
        if left <= 0:
            break
        share = left // FIRST if len(plan) == 1 else left
        line = _stage(Position.from_snapshot(pos.snapshot()), winner, plan, share, count)
        if line or (count.dry and not count.goals):
            return line, count.nodes
    return (), count.nodes


def _stage(
    pos: Position, winner: int, plan: tuple[int, ...], budget: int, count: _Count
) -> tuple[Move, ...]:
    """A helpmate through the promotions of ``plan`` (colours, in order), within ``budget``."""
    if budget < 1:
        return ()
    if not plan:
        line, used = bestfirst_helpmate(pos, winner, budget, count.deadline)
        count.nodes += used
        return line
    stop = count.nodes + budget
    for line, goal in _promotions(pos, winner, plan[0], stop, count):
        if goal is None:
            return line
        rest = _stage(goal, winner, plan[1:], (stop - count.nodes) // SLICE, count)
        if rest:
            return line + rest
    return ()


def _promotions(
    pos: Position, winner: int, colour: int, stop: int, count: _Count
) -> Iterator[tuple[tuple[Move, ...], Position | None]]:
    """Lines to positions right after a promotion by ``colour``, best first, with each such
    position; or a line that mates at once, with ``None``; until ``count`` reaches
    ``stop``."""
    loser = winner ^ 1
    blocked = BLOCKED if colour == winner else FAR
    tree = Tree(pos)
    index, work = 0, tree.root()
    costs: dict[tuple[int, ...], int] = {}  # promotion_cost by what it reads
    seen = tree.seen
    while True:
        depth = tree.depths[index] + 1
        base = work.key() if work.ep_square < 0 else None  # for child_key
        for move in work.legal_moves():
            if count.nodes >= stop:
                return
            count.nodes += 1
            count.deadline.tick()
            if base is not None and child_key(work, base, move) in seen:
                continue
            undo = work.make(move)
            key = work.key()
            if key not in seen and not cannot_mate_by_material(work.pieces, winner):
                seen.add(key)
                if work.turn == loser and work.is_checkmate():
                    yield (*tree.line(index), move), None
                    return
                if promotion(move) and work.turn != colour:
                    count.goals += 1
                    goal = Position.from_snapshot(work.snapshot())
                    yield (*tree.line(index), move), goal
                else:
                    pieces, occupied = work.pieces, work.occupied_co
                    what = (pieces[PAWN], pieces[8 | PAWN], pieces[KING], pieces[8 | KING],
                            occupied[0], occupied[1])
                    cost = costs.get(what)
                    if cost is None:
                        cost = costs[what] = promotion_cost(work, colour, blocked)
                    tree.offer(depth + WEIGHT * cost, count.nodes, index, move)
            work.unmake(undo)
        expanded = tree.expand()
        if expanded is None:
            count.dry = True
            return
        index, work = expanded


def promotion_cost(pos: Position, colour: int, blocked: int) -> int:
    """Moves the quickest pawn of ``colour`` needs to promote: :func:`.estimate.promotion_moves`
    (a capture of a unit not there yet counting ``blocked``), or its pushes plus its king's
    walk to capture each enemy pawn ahead on its file. It reads only the pawns, the kings and
    each side's occupied squares."""
    best = promotion_moves(pos, colour, blocked)
    pieces = pos.pieces
    walk = _file_walk(
        colour,
        pieces[colour << 3 | PAWN],
        pieces[(colour ^ 1) << 3 | PAWN],
        pieces[colour << 3 | KING],
        pieces[(colour ^ 1) << 3 | KING],
    )
    return min(UNREACHABLE if best == FAR else best, walk)


@lru_cache(maxsize=4096)
def _file_walk(colour: int, own: int, enemy: int, king: int, other: int) -> int:
    """The fewest pushes of a pawn of ``colour`` (on ``own``) to promote plus its king's walk
    (from the square of ``king``) to take the enemy pawns ahead on its file, where the
    other king (``other``) and its own pawns are not in its way; at most
    :data:`UNREACHABLE`."""
    best = UNREACHABLE
    king = king.bit_length() - 1
    walls = own | other
    pushes = PUSHES[colour]
    files_ahead = AHEAD[colour]
    bb = own
    while bb:
        low = bb & -bb
        bb ^= low
        sq = low.bit_length() - 1
        ahead = files_ahead[sq]
        if ahead & walls:
            continue
        cost = pushes[sq]
        blockers = ahead & enemy
        if blockers & (blockers - 1):
            here = king
            targets = squares_of(blockers)
            for target in targets if colour == 0 else reversed(targets):
                cost += DISTANCE[here][target]
                here = target
        elif blockers:
            cost += DISTANCE[king][blockers.bit_length() - 1]
        if cost < best:
            best = cost
    return best


def _ahead(colour: int, sq: int) -> int:
    return FILES[sq & 7] & (~0 << (sq + 8) if colour == 0 else (1 << sq) - 1)


AHEAD: Final = tuple(tuple(_ahead(colour, sq) for sq in range(64)) for colour in (0, 1))
"""``AHEAD[colour][sq]``: the squares ahead of a pawn of ``colour`` on ``sq``, on its file."""
PUSHES: Final = (
    tuple(7 - (sq >> 3) for sq in range(64)),
    tuple(sq >> 3 for sq in range(64)),
)
"""``PUSHES[colour][sq]``: the pushes a pawn of ``colour`` on ``sq`` needs to promote."""
