"""Best-first helpmate search: finds helpmates the guided search misses, proves nothing.

Positions are expanded in the order of ``plies + WEIGHT * estimate`` (:mod:`.estimate`),
the most recent first among equals, each position once. Unlike a depth-first search it
leaves a dead end for the most promising position met anywhere so far. Each expanded
position is reached from the one before on a single working position; every generated
position counts as a node (one already seen is recognised by its key, computed without
making the move where :func:`.successors.child_key` can). A winner's move that checks is
tested for mate at once.
"""

from __future__ import annotations

import heapq
from typing import Final

from chessarbiter.core.moves import Move
from chessarbiter.core.position import Position, Undo
from chessarbiter.laws.deadpos.deadline import NEVER, Deadline
from chessarbiter.laws.deadpos.estimate import Estimate
from chessarbiter.laws.deadpos.material import cannot_mate_by_material
from chessarbiter.laws.deadpos.strategy import Found, Outcome, Spent, has_piece
from chessarbiter.laws.deadpos.successors import child_key

WEIGHT: Final = 10
"""How much more the estimate counts than the plies already played."""


class Tree:
    """What a best-first search has met: the expanded positions (parent and move, depth; the
    root is 0), the keys seen and the queue of moves still to expand, best (lowest score,
    then latest offered) first. One working position stands on the last expanded one; the
    next is reached by unmaking moves up to the two positions' common ancestor and making
    those down from it, which is cheaper than rebuilding it."""

    def __init__(self, pos: Position) -> None:
        self.work = Position.from_snapshot(pos.snapshot())
        self.at = 0
        self.parents: list[tuple[int, Move]] = [(-1, Move(0))]
        self.depths = [0]
        self.seen = {pos.key()}
        self.queue: list[tuple[int, int, int, Move]] = []
        self.undos: list[Undo] = []  # the moves made on the working position, from the root

    def root(self) -> Position:
        """The working position, a copy of the root before anything is expanded; whoever
        makes moves on it (:meth:`Position.make`) unmakes them before the next :meth:`expand`."""
        return self.work

    def offer(self, score: int, order: int, parent: int, move: Move) -> None:
        """Queues ``move`` from the expanded position ``parent``; ``order`` grows with time."""
        heapq.heappush(self.queue, (score, -order, parent, move))

    def expand(self) -> tuple[int, Position] | None:
        """The best queued move played on its parent, now expanded: its index and position
        (the working position, moved there); ``None`` when the queue is empty."""
        if not self.queue:
            return None
        _, _, parent, move = heapq.heappop(self.queue)
        work, undos = self.work, self.undos
        parents, depths = self.parents, self.depths
        here, there = self.at, parent
        down = []
        while depths[there] > depths[here]:
            there, step = parents[there]
            down.append(step)
        while depths[here] > depths[there]:
            here = parents[here][0]
            work.unmake(undos.pop())
        while here != there:
            here = parents[here][0]
            work.unmake(undos.pop())
            there, step = parents[there]
            down.append(step)
        for step in reversed(down):
            undos.append(work.make(step))
        undos.append(work.make(move))
        parents.append((parent, move))
        depths.append(depths[parent] + 1)
        self.at = len(depths) - 1
        return self.at, work

    def line(self, index: int) -> tuple[Move, ...]:
        """The moves from the root to the expanded position ``index``."""
        out = []
        while index > 0:
            index, move = self.parents[index]
            out.append(move)
        return tuple(reversed(out))


class BestFirst:
    """A best-first helpmate search as a :class:`.strategy.Strategy` that resumes: each run
    goes on where the last one stopped, as if given their budgets together from the start.
    It runs only for a winner with a piece (the staged search of :mod:`.promote` serves a
    winner with nothing but pawns): otherwise every run spends nothing."""

    def __init__(self, pos: Position, winner: int) -> None:
        self.winner = winner
        self.resumes = True
        self.extra = False
        self.applies = has_piece(pos, winner)
        self.estimate = Estimate(winner)
        self.tree = Tree(pos)
        self.nodes = 0
        self.index, self.work = 0, self.tree.root()
        self.moves = self.work.legal_moves()
        self.next = 0
        self.found: tuple[Move, ...] = ()
        self.dry = False

    def run(self, budget: int, deadline: Deadline = NEVER) -> Outcome:
        """Go on for at most ``budget`` more nodes: :class:`.strategy.Found` with a helpmate,
        else :class:`.strategy.Spent` (also when every position was expanded: :attr:`dry`)."""
        before = self.nodes
        if not self.applies:
            return Spent(0)
        line = self.until(before + budget, deadline)
        return Found(line, self.nodes - before) if line else Spent(self.nodes - before)

    def until(self, budget: int, deadline: Deadline) -> tuple[Move, ...]:
        """Go on until ``budget`` nodes in all: a helpmate, or ``()``."""
        winner, loser, tree = self.winner, self.winner ^ 1, self.tree
        seen = tree.seen
        while not (self.found or self.dry):
            work, depth = self.work, tree.depths[self.index] + 1
            base = work.key() if work.ep_square < 0 else None  # for child_key
            while self.next < len(self.moves):
                if self.nodes >= budget:
                    return ()
                move = self.moves[self.next]
                self.next += 1
                self.nodes += 1
                deadline.tick()
                if base is not None and child_key(work, base, move) in seen:
                    continue
                undo = work.make(move)
                key = work.key()
                if key not in seen:
                    seen.add(key)
                    if work.turn == loser and work.is_checkmate():
                        self.found = (*tree.line(self.index), move)
                        return self.found
                    if not cannot_mate_by_material(work.pieces, winner):
                        score = depth + WEIGHT * self.estimate.plies(work)
                        tree.offer(score, self.nodes, self.index, move)
                work.unmake(undo)
            expanded = tree.expand()
            if expanded is None:
                self.dry = True
                break
            self.index, self.work = expanded
            self.moves, self.next = self.work.legal_moves(), 0
        return self.found


def bestfirst_helpmate(
    pos: Position, winner: int, budget: int, deadline: Deadline = NEVER
) -> tuple[tuple[Move, ...], int]:
    """A helpmate by ``winner`` found within ``budget`` nodes (empty if none was found), and
    the nodes used, whatever the winner's material (the last stage of :mod:`.promote`).
    ``pos`` is not changed."""
    search = BestFirst(pos, winner)
    return search.until(budget, deadline), search.nodes
