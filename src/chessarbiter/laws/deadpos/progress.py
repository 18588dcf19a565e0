"""Progress search: a depth-first helpmate search that both finds and proves, after the
search Ambrona describes (FUN 2022).

Iterative deepening where only moves that make no progress count against the depth. A move
that brings the plan nearer is free: the loser's king (or knight) stepping towards the
mating corner or next to it, the winner's king towards the square two ranks from the corner
and its knights towards the corner, the winner's captures and its pawns' advance past the
middle of the board; and when the winner's pieces cannot mate without a loser's piece as
blocker, the loser's pawns' moves (not promotions to a queen or rook). When the loser has no
knight, its bishops stepping onto an empty square next to the corner on its edges are free
too (a bishop's mate in the corner needs blockers there; a knight, when there is one, is the
blocker the search brings), and so is a move right after a free one. The loser's captures
(and, when it must promote first, its other moves) cost three. The mating corner is on the
loser's first rank, of the winner's bishops' colour (dark when it has none).

A transposition table keeps, for each position, the most depth left it was searched with; a
position met again with no more depth left is not searched again. An iteration may visit
:data:`ITERATION_NODES` positions per unit of depth; past them, or when a line reaches the
depth limit or :data:`MAX_PLIES`, the iteration is *cut*. An iteration that ends without a
cut, and pruned no position by what an earlier iteration (whose lines may have been cut
below it) left in the table, expanded every position reachable from the root, none of them
the winner's checkmate: the winner cannot mate. When only such pruning stands in the way,
the iteration runs again on an empty table. A position at the depth limit is only asked
whether it has a legal move (mate or stalemate ends its line uncut; otherwise it is a cut),
and the table before the moves of a position are listed: a node costs about half as much.
"""

from __future__ import annotations

from typing import Final

from chessarbiter.core.movegen import has_legal_move, in_check
from chessarbiter.core.moves import CASTLE_FLAG, Move
from chessarbiter.core.position import Position, Undo
from chessarbiter.core.squares import BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK
from chessarbiter.laws.deadpos.bitboards import DISTANCE, KNIGHT_DISTANCE
from chessarbiter.laws.deadpos.deadline import NEVER, Deadline
from chessarbiter.laws.deadpos.material import DARK_SQUARES, LIGHT_SQUARES, cannot_mate_by_material
from chessarbiter.laws.deadpos.strategy import Found, Outcome, Proved, Spent
from chessarbiter.laws.deadpos.targets import home_corner
from chessarbiter.laws.deadpos.verdict import Winnability

ITERATION_NODES: Final = 10_000
"""Positions one iteration may visit before the next, deeper one starts."""
PUNISHED: Final = 3
"""The depth a move away from the plan costs."""
MAX_DEPTH: Final = 1_000
MAX_PLIES: Final = 400
"""The longest line searched; a longer one is cut."""


class _Spent(Exception):
    """The node budget ran out."""


class Progress:
    """The search of one position and winner as a :class:`.strategy.Strategy` that resumes:
    :meth:`run` goes on where the last call stopped (the iteration it was in starts again).
    Its nodes are ``extra``: the full mode gives it nodes on top of the budget."""

    def __init__(self, pos: Position, winner: int) -> None:
        self.pos = pos
        self.winner = winner
        self.loser = winner ^ 1
        corner = home_corner(pos, winner)
        step = -8 if corner >= 56 else 8  # from the corner towards the board's middle
        self.loser_king = corner
        self.loser_knight = corner + (-1 if corner & 7 else 1)
        self.winner_king = corner + 2 * step
        # the corner's squares on its edges: a loser's bishop there blocks its king in
        self.flights = 1 << (corner + step) | 1 << self.loser_knight
        self.nodes = 0
        self.budget = 0
        self.depth = 2
        self.table: dict[int, tuple[int, int]] = {}  # key: (depth left, iteration run)
        self.serial = 0  # the iteration run (a run restarted after the budget counts anew)
        self.stale = False  # whether the run pruned by an earlier run's entry
        self.line: list[Move] = []
        self.undos: list[Undo] = []
        self.cut = False
        self.deadline = NEVER
        self.outcome = Winnability.UNDETERMINED
        self.resumes = True
        self.extra = True

    def run(self, budget: int, deadline: Deadline = NEVER) -> Outcome:
        """Search at most ``budget`` more nodes: :class:`.strategy.Found` (the helpmate also
        in :attr:`line`), :class:`.strategy.Proved` or :class:`.strategy.Spent`. ``pos`` is
        restored afterwards (not when ``deadline`` raises)."""
        outcome, used = self._run(self.nodes + budget, deadline)
        if outcome is Winnability.WINNABLE:
            return Found(tuple(self.line), used)
        return Proved(used) if outcome is Winnability.UNWINNABLE else Spent(used)

    def _run(self, budget: int, deadline: Deadline) -> tuple[Winnability, int]:
        """Search until ``budget`` nodes in all: the outcome and the nodes this call used."""
        before = self.nodes
        if self.outcome is not Winnability.UNDETERMINED:
            return self.outcome, 0
        self.budget, self.deadline = budget, deadline
        try:
            while self.depth <= MAX_DEPTH:
                self.cut = self.stale = False
                self.serial += 1
                stop = self.nodes + ITERATION_NODES * self.depth
                if self._search(0, False, stop):
                    self.line.reverse()
                    self.outcome = Winnability.WINNABLE
                    return self.outcome, self.nodes - before
                if not self.cut:
                    if not self.stale:
                        self.outcome = Winnability.UNWINNABLE
                        return self.outcome, self.nodes - before
                    self.table.clear()
                    continue
                self.depth += 1
        except _Spent:
            while self.undos:
                self.pos.unmake(self.undos.pop())
        return Winnability.UNDETERMINED, self.nodes - before

    def _search(self, depth: int, rewarded: bool, stop: int) -> bool:
        """Whether a helpmate lies within the iteration's depth from here (``depth`` used);
        the line, last move first, is in :attr:`line`."""
        pos = self.pos
        winner = self.winner
        if cannot_mate_by_material(pos.pieces, winner):
            return False
        left = self.depth - depth
        if left <= 0 or self.nodes >= stop or len(self.undos) >= MAX_PLIES:
            checked = in_check(pos)  # a leaf: only mate or stalemate ends its line uncut
            if not has_legal_move(pos, checked):
                return pos.turn != winner and checked
            self.cut = True
            return False
        key = pos.key()
        known = self.table.get(key)  # entries are of positions with a legal move
        if known is not None and known[0] >= left:
            if known[1] != self.serial:
                self.stale = True
            return False
        moves = pos.legal_moves()
        if not moves:
            return pos.turn != winner and pos.is_check()
        self.table[key] = (left, self.serial)
        costs = self._costs(moves)
        undos = self.undos
        for move, cost in zip(moves, costs, strict=True):
            if self.nodes >= self.budget:
                raise _Spent
            self.nodes += 1
            self.deadline.tick()
            undos.append(pos.make(move))
            step = 0 if cost == 1 and rewarded else cost
            found = self._search(min(self.depth, depth + step), cost == 0, stop)
            pos.unmake(undos.pop())
            if found:
                self.line.append(move)
                return True
        return False

    def _costs(self, moves: list[Move]) -> list[int]:
        """Each move's depth: 0 for progress, :data:`PUNISHED` against the plan, else 1."""
        pos = self.pos
        board = pos.board
        pieces = pos.pieces
        winner = self.winner
        out = []
        if pos.turn == winner:
            king_to = DISTANCE[self.winner_king]
            knight_to = KNIGHT_DISTANCE[self.loser_king]
            for move in moves:
                fr = move & 63
                to = (move >> 6) & 63
                kind = board[fr] & 7
                if kind == PAWN:  # a capture, or an advance to the 6th rank or beyond
                    progress = (to & 7) != (fr & 7) or (to >> 3 > 4 if winner == 0 else to >> 3 < 3)
                elif board[to] and not move & CASTLE_FLAG:
                    progress = True
                elif kind == KING:
                    progress = king_to[to] < king_to[fr]
                else:
                    progress = kind == KNIGHT and knight_to[to] < knight_to[fr]
                out.append(0 if progress else 1)
            return out
        promote = self._loser_must_promote(pieces)
        king_to = DISTANCE[self.loser_king]
        blocks = 0
        if not pieces[self.loser << 3 | KNIGHT]:
            blocks = self.flights & ~(pos.occupied_co[0] | pos.occupied_co[1])
        knight_to = KNIGHT_DISTANCE[self.loser_knight]
        for move in moves:
            fr = move & 63
            to = (move >> 6) & 63
            kind = board[fr] & 7
            cost = 1
            if promote:
                promoted = (move >> 12) & 7
                heavy = promoted in (QUEEN, ROOK)
                cost = 0 if kind == PAWN and not heavy else PUNISHED
            if (
                (kind == KING and king_to[to] < king_to[fr])
                or (kind == KNIGHT and knight_to[to] < knight_to[fr])
                or (blocks >> to & 1 and kind == BISHOP)
            ):
                cost = 0
            elif (board[to] and not move & CASTLE_FLAG) or (kind == PAWN and (to & 7) != (fr & 7)):
                cost = PUNISHED
            out.append(cost)
        return out

    def _loser_must_promote(self, pieces: list[int]) -> bool:
        """Whether the winner's pieces cannot mate without a blocker the loser has yet to
        promote: a lone knight against no minor piece or rook, or bishops of one colour
        against no bishop of the other colour and no knight."""
        winner = self.winner << 3
        loser = self.loser << 3
        own = [pieces[winner | kind] for kind in (PAWN, KNIGHT, BISHOP, ROOK, QUEEN)]
        if own[0] or own[3] or own[4]:
            return False
        if own[1] and not own[2]:
            return own[1] & (own[1] - 1) == 0 and not (
                pieces[loser | KNIGHT] | pieces[loser | BISHOP] | pieces[loser | ROOK]
            )
        if own[1] or not own[2]:
            return False
        colour = DARK_SQUARES if own[2] & DARK_SQUARES else LIGHT_SQUARES
        other = ~colour & (DARK_SQUARES | LIGHT_SQUARES)
        both = pieces[BISHOP] | pieces[8 | BISHOP]
        return not both & other and not pieces[loser | KNIGHT]
