"""Exhaustive exploration of every position reachable from the analysed one.

Depth-first, each position once. A position whose material can never mate, or that the
static analysis proves unwinnable, is not expanded: no mate follows it. The static analysis
runs again only after a pawn move or capture: after any other move the pieces only moved
within the regions it computed before, so it seldom helps, and skipping it only forgoes a
pruning. For the same reason it backs off while it does not pay: each call that prunes
nothing doubles the number of structural moves skipped before the next (up to
:data:`MAX_GAP`), each that prunes resets it (in a caged-king pawn ending it never prunes
and would cost nine tenths of the time). If the exploration ends within its cap without
meeting the winner's checkmate, no series of legal moves leads to one: unwinnable.

Most moves lead to a position already seen. The moves come lazily from
:func:`~chessarbiter.laws.deadpos.successors.children`, keyed without being made, those
whose key is already seen passed over; in a winnable position the walk follows one long
line, and most moves of the positions on it are never reached. Every move it gives is
legal, so a move given shows that the position has a legal move; only when none comes is
:func:`has_legal_move` asked, and only where it matters (mate of the loser; no static
analysis of a position without a move, as before). Moves are made and unmade without
history (:meth:`Position.make`; :meth:`Position.make_keyed` for the moves keyed beforehand).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from chessarbiter.core.movegen import has_legal_move, in_check
from chessarbiter.core.moves import Move
from chessarbiter.core.position import Position, Undo
from chessarbiter.core.squares import PAWN
from chessarbiter.laws.deadpos.cage import caged_unwinnable
from chessarbiter.laws.deadpos.deadline import NEVER, Deadline
from chessarbiter.laws.deadpos.material import cannot_mate_by_material
from chessarbiter.laws.deadpos.static import statically_unwinnable
from chessarbiter.laws.deadpos.strategy import Found, Outcome, Proved, Spent
from chessarbiter.laws.deadpos.successors import MOVE, STRUCTURAL, UNKEYED, children
from chessarbiter.laws.deadpos.verdict import Winnability

MAX_GAP: Final = 255
"""The most structural moves the static analysis skips between two calls."""
END: Final = -2
"""What the walk takes from a generator of moves that has none left."""

class Exploration:
    """A depth-first exploration from a root position as a :class:`.strategy.Strategy` that
    resumes: it pauses when a run's budget of new positions is seen and goes on later
    (nothing is explored twice). Its nodes are the positions seen besides the root."""

    def __init__(self, pos: Position, winner: int) -> None:
        self.winner = winner
        self.seen = {pos.key()}
        self.line: list[Move] = []
        self.root = pos
        self.moved = [0]
        """Where the generators of :attr:`moves` leave the move of the key they give."""
        root = children(pos, self.seen, self.moved)
        next(root)  # the pieces giving check
        self.moves = [root]
        self.pending = (END, 0)
        """The key and move the walk paused on, taken from the last of :attr:`moves`."""
        self.found: tuple[Move, ...] = ()
        self.gap = self.skip = 0
        self.resumes = True
        self.extra = False
        self.nodes = 0

    def run(self, budget: int, deadline: Deadline = NEVER) -> Outcome:
        """See at most ``budget`` more positions: :class:`.strategy.Found` with a helpmate
        (also in :attr:`found`), :class:`.strategy.Proved` when every reachable position was
        seen without one, else :class:`.strategy.Spent`. The root position is restored
        afterwards (not when ``deadline`` raises)."""
        before = self.nodes
        outcome = self._go(before + 1 + budget, deadline)
        self.nodes = used = len(self.seen) - 1
        if outcome is Winnability.WINNABLE:
            return Found(self.found, used - before)
        return Proved(used - before) if outcome is Winnability.UNWINNABLE else Spent(used - before)

    def _go(self, cap: int, deadline: Deadline) -> Winnability:
        """Go on until ``cap`` positions are seen in all."""
        if self.found:
            return Winnability.WINNABLE
        pos = self.root
        undos = [pos.make(move) for move in self.line]
        try:
            outcome = self._run(pos, cap, deadline, undos)
        finally:
            self.line = [Move(undo[0]) for undo in undos]
        while undos:
            pos.unmake(undos.pop())
        return outcome

    def _run(self, pos: Position, cap: int, deadline: Deadline, undos: list[Undo]) -> Winnability:
        """The walk; ``undos`` are the moves from the root to the position of the last
        generator of :attr:`moves`, made."""
        winner, loser, seen, stack = self.winner, self.winner ^ 1, self.seen, self.moves
        board, pieces, moved = pos.board, pos.pieces, self.moved
        winner_pawn = winner << 3 | PAWN  # a winner's pawn is mating material
        todo = stack[-1]
        key, entry = self.pending
        if key == END:
            key = _next(todo)
            entry = moved[0]
        self.pending = (END, 0)
        while True:
            if key == END:
                stack.pop()
                if not stack:
                    return Winnability.UNWINNABLE
                pos.unmake(undos.pop())
                todo = stack[-1]
                key = _next(todo)
                entry = moved[0]
                continue
            if key != UNKEYED:  # not seen when it came (nothing was seen since)
                if len(seen) >= cap:
                    self.pending = (key, entry)
                    return Winnability.UNDETERMINED
                undo = pos.make_keyed(entry & MOVE, key)
                structural = entry & STRUCTURAL
            else:
                structural = board[(entry >> 6) & 63] or board[entry & 63] & 7 == PAWN
                undo = pos.make(entry)
                key = pos.key()
                if key in seen:
                    pos.unmake(undo)
                    key = _next(todo)
                    entry = moved[0]
                    continue
                if len(seen) >= cap:
                    pos.unmake(undo)
                    self.pending = (UNKEYED, entry)
                    return Winnability.UNDETERMINED
            seen.add(key)
            deadline.tick()
            static = False
            if structural:
                if self.skip:
                    self.skip -= 1
                else:
                    static = True
                # only a capture or a pawn move (a promotion) changes the material, and
                # with it whether the winner is down to a lone piece against a caged king
                if not pieces[winner_pawn] and (cannot_mate_by_material(pieces, winner)
                                                or caged_unwinnable(pos, winner)):
                    if pos.turn == loser and in_check(pos) and not has_legal_move(pos, True):
                        return self._mate(undos, undo)
                    pos.unmake(undo)
                    key = _next(todo)
                    entry = moved[0]
                    continue
            replies = children(pos, seen, moved)
            checking = _next(replies)
            first = _next(replies)  # a move listed is legal: only without one, ask
            if first == END and checking and pos.turn == loser and not has_legal_move(pos, True):
                return self._mate(undos, undo)
            if static:
                if first == END and not has_legal_move(pos, checking != 0):
                    pos.unmake(undo)  # mate or stalemate: nothing follows, not analysed
                    key = _next(todo)
                    entry = moved[0]
                    continue
                if statically_unwinnable(pos, winner):
                    self.gap = self.skip = 0
                    pos.unmake(undo)
                    key = _next(todo)
                    entry = moved[0]
                    continue
                self.gap = self.skip = min(MAX_GAP, 2 * self.gap + 1)
            undos.append(undo)
            stack.append(replies)
            todo = replies
            key = first
            entry = moved[0]

    def _mate(self, undos: list[Undo], undo: Undo) -> Winnability:
        """The winner's checkmate is found, ``undo`` the move that gave it (not made on
        the position any more when the walk returns: :meth:`run` unmakes ``undos``)."""
        self.found = (*(Move(u[0]) for u in undos), Move(undo[0]))
        undos.append(undo)
        return Winnability.WINNABLE


def _next(entries: Iterator[int]) -> int:
    """The next of ``entries``, or :data:`END`. (A loop: compiled, it asks the generator
    itself, where ``next(entries, END)`` is a generic call of the builtin.)"""
    for entry in entries:
        return entry
    return END


def explore(
    pos: Position, winner: int, cap: int, deadline: Deadline = NEVER
) -> tuple[Winnability, tuple[Move, ...], int]:
    """The exploration from ``pos`` up to ``cap`` positions seen: the outcome, a helpmate
    (empty unless WINNABLE) and the positions seen."""
    exploration = Exploration(pos, winner)
    outcome = exploration.run(cap - 1, deadline)
    verdict = (
        Winnability.WINNABLE if isinstance(outcome, Found)
        else Winnability.UNWINNABLE if isinstance(outcome, Proved)
        else Winnability.UNDETERMINED
    )
    return verdict, exploration.found, len(exploration.seen)
