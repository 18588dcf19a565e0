"""Guided helpmate search: finds long helpmates fast, proves nothing.

Limited-discrepancy iterative deepening over the :class:`.guide.Guide` ordering, one
guide per mating square of :func:`.targets.mating_squares`, taking turns: in iteration
``k`` a line may leave the guide's first choice at most ``k`` times (the second choice
counts one, any later one two) and be at most ``FIRST_PLIES + k * MORE_PLIES`` plies
long. A guide's iterations go on until the budget is spent or one cuts no line short (it
searched every line the next would). Each winner's node first tries its checks and
promotions for an immediate mate. A transposition table per iteration skips positions
already searched with as many discrepancies left and no more plies behind them. Positions
met again (in a later iteration, by another line, in a later run of the same search) reuse
their legal moves and each guide's order, kept by key like the table; a position's
mate-in-one test, which failed the first time, is not repeated.
"""

from __future__ import annotations

from typing import Final

from chessarbiter.core.attacks import BISHOP_RAYS, KNIGHT_ATTACKS, ROOK_RAYS
from chessarbiter.core.moves import Move
from chessarbiter.core.position import Position, Undo
from chessarbiter.laws.deadpos.deadline import NEVER, Deadline
from chessarbiter.laws.deadpos.guide import Guide, check_squares
from chessarbiter.laws.deadpos.material import cannot_mate_by_material
from chessarbiter.laws.deadpos.strategy import Found, Outcome, Spent
from chessarbiter.laws.deadpos.targets import mating_squares

FIRST_PLIES: Final = 24
"""The longest line of the first iteration; each later one allows ``MORE_PLIES`` more."""
MORE_PLIES: Final = 12
CACHE_SIZE: Final = 1 << 16
"""Positions whose legal moves and orders are kept (about 30 MB) before the caches start
again."""


class _Spent(Exception):
    """The node budget ran out."""


class _Guided:
    """The search's state; its caches of legal moves and orders (facts of the positions,
    by key) are kept from one run of a :class:`GuidedSearch` to the next."""

    def __init__(self, pos: Position, winner: int) -> None:
        self.pos = pos
        self.winner = winner
        self.loser = winner ^ 1
        self.guides = [Guide(pos, winner, square) for square in mating_squares(pos, winner)]
        self.guide = self.guides[0]
        self.budget = 0
        self.deadline = NEVER
        self.nodes = 0
        self.table: dict[int, tuple[int, int]] = {}
        self.known: dict[int, list[Move]] = {}  # legal moves (the winner's: none mates)
        # each guide's sort keys of the known moves (see Guide.keys), sorted
        self.orders_by_guide: dict[int, dict[int, list[int]]] = {
            guide.corner: {} for guide in self.guides
        }
        self.orders = self.orders_by_guide[self.guide.corner]
        self.max_plies = FIRST_PLIES
        self.line: list[Move] = []
        self.undos: list[Undo] = []  # the moves made on the line being searched
        self.cut = True  # whether the iteration cut a line short: run another

    def search(self, left: int, plies: int) -> bool:
        """Whether a helpmate lies within ``left`` discrepancies; the line (last move first)
        is in ``self.line``. Moves are made with :meth:`Position.make`; their undos stay in
        ``self.undos`` while a line is searched below them."""
        if self.nodes >= self.budget:
            raise _Spent
        self.nodes += 1
        self.deadline.tick()
        pos = self.pos
        key = pos.key()
        table = self.table
        seen = table.get(key)
        if seen is not None and seen[0] >= left and seen[1] <= plies:
            return False
        table[key] = (left, plies)
        moves = self.known.get(key)
        if moves is None:
            moves = pos.legal_moves()
            if not moves:
                return pos.turn == self.loser and pos.is_check()
            if pos.turn == self.winner and self._mate_in_one(moves):
                return True
            if len(self.known) >= CACHE_SIZE:
                self.known.clear()
                for orders in self.orders_by_guide.values():
                    orders.clear()
            self.known[key] = moves
        if plies >= self.max_plies:
            self.cut = True
            return False
        orders = self.orders
        ranked = orders.get(key)
        if ranked is None:
            ranked = orders[key] = sorted(self.guide.keys(pos, moves))
        winner = self.winner
        undos = self.undos
        if left == 0:  # the first choice alone: a later one costs a discrepancy
            move = moves[ranked[0] & 255]
            undos.append(pos.make(move))
            found = not cannot_mate_by_material(pos.pieces, winner) and self.search(0, plies + 1)
            pos.unmake(undos.pop())
            if found:
                self.line.append(move)
                return True
            if len(moves) > 1:
                self.cut = True
            return False
        if left == 1:
            ranked = ranked[:2]  # a third choice costs two
        for rank, k in enumerate(ranked):
            move = moves[k & 255]
            undos.append(pos.make(move))
            found = not cannot_mate_by_material(pos.pieces, winner) and self.search(
                left - (0 if rank == 0 else 1 if rank == 1 else 2), plies + 1
            )
            pos.unmake(undos.pop())
            if found:
                self.line.append(move)
                return True
        if len(ranked) < len(moves):
            self.cut = True
        return False

    def _mate_in_one(self, moves: list[Move]) -> bool:
        """Whether a check or promotion among ``moves`` mates (the line gets the move)."""
        pos = self.pos
        board = pos.board
        king = pos.king(self.loser)
        checking = check_squares(pos, king)
        froms: dict[int, int] = {}  # the squares from which each moved piece would check
        near = KNIGHT_ATTACKS[king] | ROOK_RAYS[king] | BISHOP_RAYS[king]  # holds them all
        for move in moves:
            if not move >> 12:
                if not near >> ((move >> 6) & 63) & 1:
                    continue
                fr = move & 63
                squares = froms.get(fr)
                if squares is None:
                    squares = froms[fr] = checking(board[fr] & 7, fr)
                if not squares >> ((move >> 6) & 63) & 1:
                    continue
            undo = pos.make(move)
            mate = pos.is_checkmate()
            pos.unmake(undo)
            if mate:
                self.line.append(move)
                return True
        return False


class GuidedSearch:
    """The guided search as a :class:`.strategy.Strategy`: each run starts afresh (only the
    legal moves and orders of the positions met are kept); it finds helpmates, never
    proves."""

    def __init__(self, pos: Position, winner: int) -> None:
        self.pos = pos
        self.winner = winner
        self.resumes = False
        self.extra = False
        self.nodes = 0
        self.helper: _Guided | None = None

    def run(self, budget: int, deadline: Deadline = NEVER) -> Outcome:
        """A helpmate found within ``budget`` nodes, else :class:`.strategy.Spent`."""
        if self.helper is None:
            self.helper = _Guided(self.pos, self.winner)
        line, used = _guided(self.helper, budget, deadline)
        self.nodes += used
        return Found(line, used) if line else Spent(used)


def _guided(helper: _Guided, budget: int, deadline: Deadline) -> tuple[tuple[Move, ...], int]:
    """A helpmate by the helper's winner found within ``budget`` nodes (empty if none was
    found), and the nodes used. Its position is restored afterwards (not when ``deadline``
    raises)."""
    pos = helper.pos
    helper.budget = budget
    helper.deadline = deadline
    helper.nodes = 0
    helper.line.clear()
    going = list(helper.guides)
    left = 0
    try:
        while going:
            for guide in list(going):
                helper.guide = guide
                helper.orders = helper.orders_by_guide[guide.corner]
                helper.table.clear()
                helper.cut = False
                helper.max_plies = FIRST_PLIES + left * MORE_PLIES
                if helper.search(left, 0):
                    line = tuple(reversed(helper.line))
                    return (line if _mates(pos, line) else ()), helper.nodes
                if not helper.cut:
                    going.remove(guide)
            left += 1
    except _Spent:
        while helper.undos:
            pos.unmake(helper.undos.pop())
    return (), helper.nodes


def _mates(pos: Position, line: tuple[Move, ...]) -> bool:
    """Whether ``line`` is legal from ``pos`` and ends in checkmate (``pos`` restored). The
    search keeps move lists by position key, so only a key collision could make it false:
    the line is checked move by move rather than trusted (a WINNABLE verdict loses a game)."""
    played = 0
    try:
        for move in line:
            if move not in pos.legal_moves():
                return False
            pos.push(move)
            played += 1
        return pos.is_checkmate()
    finally:
        for _ in range(played):
            pos.pop()
