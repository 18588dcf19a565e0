"""Alpha-beta search: iterative deepening with aspiration windows over a principal variation
search (negamax) with a transposition table, quiescence search (captures that lose material
by static exchange left out), check extension, null-move pruning, late move reductions,
futility and late-move pruning (a quiet move skipped is tested for check without making it),
mate-distance pruning, killer and history move ordering, and draw detection (repetition
along the game and the search path, the 50-move rule, insufficient material). A proven mate
ends the iterations. On a clock, the share of the target used before starting no new
iteration follows the best move's stability and the score's fall (:func:`time_scale`).

Scores are centipawns for the side to move; ``MATE - n`` is a mate in ``n`` plies.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from chessarbiter.clock.clock import monotonic_ms
from chessarbiter.core import movegen
from chessarbiter.core.moves import Move
from chessarbiter.core.position import Position
from chessarbiter.engines.evaluation import PawnCache, evaluate, insufficient_material
from chessarbiter.engines.ordering import (
    captures,
    is_tactical,
    loses_material,
    order_captures,
    order_moves,
)
from chessarbiter.engines.tables import ORDER_VALUE
from chessarbiter.engines.tt import (
    EXACT,
    LOWER,
    MATE,
    MATE_BOUND,
    UPPER,
    TranspositionTable,
    from_tt,
    to_tt,
)

MAX_PLY: Final = 100
INFINITY: Final = MATE + 1
ASPIRATION: Final = 50
FUTILITY_MARGIN: Final = 120
DELTA_MARGIN: Final = 200
MAX_ASPIRATION: Final = 800
"""Beyond this half-width an aspiration window opens fully on its failing side."""
HISTORY_MAX: Final = 1 << 14
CHECK_EVERY: Final = 16
"""Nodes between two looks at the clock and the stop signal."""
EVAL_SLOTS: Final = 1 << 16
"""Static evaluations remembered by position key, one per slot (the key's low bits pick
the slot; a new one replaces the old)."""


LATE_DEPTH: Final = 3
LATE_MOVES: Final = tuple(4 + d * d for d in range(LATE_DEPTH + 1))
"""Late-move pruning: at depth ``LATE_DEPTH`` or less, outside PV nodes and check, quiet
moves that give no check are skipped once ``LATE_MOVES[depth]`` quiet moves were searched
(captures, promotions, checks, killers and the table move never are)."""
MAX_MOVES: Final = 256
"""More moves than any position has."""
STABLE_PERCENT: Final = (160, 120, 100, 85, 70)
"""The percentage of the time target an iteration may start within, by the iterations in a
row that kept the best move (0: it has just changed; the last for that many or more)."""
FALL_PERCENT: Final = 60
"""Up to this much more (percent), a percent per centipawn the score fell in the last
iteration."""

LMR: Final = tuple(
    tuple(0 if d < 3 or i < 3 else max(1, int(0.75 + math.log(d) * math.log(i) / 2.25))
          for i in range(64))
    for d in range(64)
)
"""Late-move reductions by depth and move number: deeper and later moves are reduced more
(one ply less at PV nodes)."""


def _has_pieces(pos: Position) -> bool:
    """Whether the side to move has a piece besides its king and pawns."""
    p = pos.pieces
    base = pos.colour_to_move() << 3
    return bool(p[base | 2] | p[base | 3] | p[base | 4] | p[base | 5])


@dataclass(frozen=True, slots=True)
class Limits:
    """When to stop. ``soft_ms``: start no new iteration after this; ``hard_ms``: abort the
    search. With no limit at all the search runs until ``stop`` is set (or ``MAX_PLY``)."""

    depth: int | None = None
    nodes: int | None = None
    soft_ms: int | None = None
    hard_ms: int | None = None


@dataclass(frozen=True, slots=True)
class SearchInfo:
    """A finished iteration: its depth, score, nodes so far, time used and principal line;
    ``multipv`` is the line's rank (1 for the best) when several are searched."""

    depth: int
    score: int
    nodes: int
    time_ms: int
    pv: tuple[Move, ...]
    multipv: int = 1

    @property
    def mate_in(self) -> int | None:
        """Moves to mate (negative when being mated), or ``None``."""
        return mate_in(self.score)


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The move chosen (``None`` without legal moves) and the last iteration's details."""

    move: Move | None
    score: int
    depth: int
    nodes: int
    pv: tuple[Move, ...] = field(default=())


def mate_in(score: int) -> int | None:
    """The UCI ``score mate`` value of a score: moves to mate, negative if being mated."""
    if score > MATE_BOUND:
        return (MATE - score + 1) // 2
    if score < -MATE_BOUND:
        return -((MATE + score) // 2)
    return None


def time_scale(stable: int, fall: int) -> int:
    """The percentage of the time target to use when the best move stayed for ``stable``
    iterations in a row and the score fell by ``fall`` centipawns (negative: it rose): less
    when the choice is settled, more when it is not or the position gets worse."""
    share = STABLE_PERCENT[min(stable, len(STABLE_PERCENT) - 1)]
    return share * (100 + min(max(fall, 0), FALL_PERCENT)) // 100


class _Abort(Exception):
    """Raised inside the search when a limit is reached or a stop is requested."""


class Searcher:
    """A reusable search with its transposition table and move-ordering memory.

    ``now`` is the time source in milliseconds (injectable for tests). One search at a time.
    """

    def __init__(
        self,
        tt: TranspositionTable | None = None,
        now: Callable[[], int] = monotonic_ms,
    ) -> None:
        self.tt = tt if tt is not None else TranspositionTable()
        self.now = now
        self.nodes = 0
        self._history = [0] * (16 * 64)
        self._killers = [[0, 0] for _ in range(MAX_PLY + 1)]
        self._eval_keys = [-1] * EVAL_SLOTS
        self._eval_scores = [0] * EVAL_SLOTS
        self._pawns = PawnCache()
        self._keys: list[int] = []
        self._pos = Position()
        self._start = 0
        self._hard: int | None = None
        self._node_limit = 0
        self._stop: threading.Event | None = None
        self._root_best = 0
        """The best root move of the running iteration so far (0: none yet)."""
        self._root_order: list[Move] = []
        self._root_floor: list[int] = []

    def new_game(self) -> None:
        """Forget what earlier games taught (table, history, killers)."""
        self.tt.clear()
        self._history = [0] * (16 * 64)

    # -- entry points ----------------------------------------------------------------------

    def search(
        self,
        pos: Position,
        limits: Limits,
        *,
        history: Sequence[int] = (),
        stop: threading.Event | None = None,
        on_info: Callable[[SearchInfo], None] | None = None,
        multipv: int = 1,
    ) -> SearchResult:
        """Search ``pos`` (left unchanged) within ``limits``. ``history`` holds the keys
        (``Position.key()``) of the game's earlier positions, oldest first, for repetitions.
        With ``multipv`` above 1 each iteration also finds the best line beginning with a
        move other than those of the better lines, and reports each to ``on_info``.
        """
        moves = movegen.legal_moves(pos)
        self._prepare(pos, limits, history, stop)
        if not moves:
            return SearchResult(None, -MATE if movegen.checkers(pos) else 0, 0, 0)
        self._root_order = order_moves(self._pos, moves, 0, (0, 0), self._history)
        self._root_floor = []
        best: SearchResult = SearchResult(moves[0], 0, 0, 0)
        score = 0
        stable = 0
        lines = min(max(multipv, 1), len(moves))
        max_depth = min(limits.depth or MAX_PLY, MAX_PLY)
        for depth in range(1, max_depth + 1):
            self._root_best = 0
            try:
                if lines == 1:
                    score = self._aspiration(depth, score)
                    found = [(score, self._pv(depth))]
                else:
                    found = self._lines(depth, lines)
                    score = found[0][0]
            except _Abort:
                if self._root_best:
                    best = SearchResult(Move(self._root_best), best.score, best.depth,
                                        self.nodes, best.pv)
                break
            pv = found[0][1]
            move = pv[0] if pv else moves[0]
            stable = stable + 1 if depth > 1 and move == best.move else 0
            fall = best.score - score if depth > 1 else 0
            best = SearchResult(move, score, depth, self.nodes, pv)
            if on_info is not None:
                for rank, (line_score, line) in enumerate(found, 1):
                    on_info(SearchInfo(depth, line_score, self.nodes, self.elapsed_ms(), line,
                                       rank))
            if self._done(limits, depth, score, len(moves), time_scale(stable, fall)):
                break
        return SearchResult(best.move, best.score, best.depth, self.nodes, best.pv)

    def root_scores(
        self,
        pos: Position,
        limits: Limits,
        *,
        margin: int,
        history: Sequence[int] = (),
        stop: threading.Event | None = None,
        on_info: Callable[[SearchInfo], None] | None = None,
        multipv: int = 1,
    ) -> list[tuple[Move, int]]:
        """Every legal move with its score, from the deepest iteration completed within
        ``limits``: exact for the moves within ``margin`` of the best, an upper bound below
        that for the others. If not even the first iteration completes, only the moves it
        scored (at least one). Slower than :meth:`search`; for the weak levels that pick
        among near-best moves. Each iteration's ``multipv`` best moves go to ``on_info``."""
        self._prepare(pos, limits, history, stop)
        p = self._pos
        moves = order_moves(p, movegen.legal_moves(p), 0, (0, 0), self._history)
        scored: list[tuple[Move, int]] = []
        for depth in range(1, min(limits.depth or MAX_PLY, MAX_PLY) + 1):
            current: list[tuple[Move, int]] = []
            best = -INFINITY
            try:
                for m in moves:
                    made = p.make_counted(m)
                    alpha = max(best - margin - 1, -INFINITY)
                    score = -self._node(depth - 1, -INFINITY, -alpha, 1,
                                        movegen.in_check(p))
                    p.unmake_counted(made)
                    best = max(best, score)
                    current.append((m, score))
            except _Abort:
                return scored or current or [(m, 0) for m in moves[:1]]
            scored = current
            ranked = sorted(current, key=lambda ms: -ms[1])
            moves = [m for m, _ in ranked]
            if on_info is not None:
                for rank, (m, score) in enumerate(ranked[:max(multipv, 1)], 1):
                    on_info(SearchInfo(depth, score, self.nodes, self.elapsed_ms(), (m,),
                                       rank))
            if self._soft_expired(limits):
                break
        return scored

    def elapsed_ms(self) -> int:
        """Milliseconds since the current (or last) search began."""
        return self.now() - self._start

    # -- internals ---------------------------------------------------------------------------

    def _prepare(
        self,
        pos: Position,
        limits: Limits,
        history: Sequence[int],
        stop: threading.Event | None,
    ) -> None:
        self._start = self.now()
        self._pos = pos.copy()
        self._keys = list(history)
        self._hard = limits.hard_ms
        self._node_limit = limits.nodes if limits.nodes is not None else 1 << 62
        self._stop = stop
        self.nodes = 0
        self._killers = [[0, 0] for _ in range(MAX_PLY + 1)]
        self._history = [h >> 2 for h in self._history]

    def _soft_expired(self, limits: Limits, percent: int = 100) -> bool:
        """Whether to start no further iteration, with ``percent`` of the target to use:
        each one costs several times the one before, so one begun after half of it would
        end far past it."""
        return (limits.soft_ms is not None
                and 200 * self.elapsed_ms() >= limits.soft_ms * percent)

    def _done(self, limits: Limits, depth: int, score: int, n_moves: int,
              percent: int) -> bool:
        """Whether to stop iterating: out of time (``percent`` of the target used), a
        single legal move on the clock, or a mate proven (found with two plies to spare:
        the best line's score a mate for one side, every other move searched to the
        depth)."""
        if self._soft_expired(limits, percent) or (n_moves == 1 and limits.soft_ms is not None):
            return True
        return abs(score) > MATE_BOUND and depth >= MATE - abs(score) + 2

    def _check_limits(self) -> None:
        if self.nodes >= self._node_limit:
            raise _Abort
        if self._stop is not None and self._stop.is_set():
            raise _Abort
        if self._hard is not None and self.now() - self._start >= self._hard:
            raise _Abort

    def _aspiration(self, depth: int, previous: int) -> int:
        """The root's score, searched first in a window around the previous iteration's,
        widened on the failing side (doubling) until the score falls inside."""
        if depth < 4 or abs(previous) > MATE_BOUND:
            return self._root(depth, -INFINITY, INFINITY)
        delta = ASPIRATION
        alpha, beta = previous - delta, previous + delta
        while True:
            score = self._root(depth, alpha, beta)
            if alpha < score < beta:
                return score
            delta *= 2
            if score <= alpha:
                alpha = -INFINITY if delta > MAX_ASPIRATION else max(score - delta, -INFINITY)
            else:
                beta = INFINITY if delta > MAX_ASPIRATION else min(score + delta, INFINITY)

    def _lines(self, depth: int, count: int) -> list[tuple[int, tuple[Move, ...]]]:
        """The ``count`` best lines at ``depth``, each from a different first move, best
        first, in one pass over the root moves (two when the window fails): a move is
        searched in full only if a null window says it beats the weakest line found so far,
        or, until ``count`` are found, an aspiration floor below the previous iteration's
        weakest line. The root moves are then ordered by this iteration's scores."""
        floor = -INFINITY
        if depth >= 4 and len(self._root_floor) == count:
            floor = self._root_floor[-1] - ASPIRATION
        top = self._lines_above(depth, count, floor)
        if len(top) < count and floor > -INFINITY:
            top = self._lines_above(depth, count, -INFINITY)
        self._root_floor = [score for score, _ in top]
        self.tt.put(self._pos.key(), depth, top[0][0], EXACT, top[0][1])
        return [(score, self._pv(depth, m)) for score, m in top]

    def _lines_above(self, depth: int, count: int, floor: int) -> list[tuple[int, Move]]:
        """The best ``count`` root moves scoring above ``floor`` (maybe fewer), with exact
        scores, best first."""
        pos = self._pos
        self._keys.append(pos.key())
        top: list[tuple[int, Move]] = []
        scores: dict[Move, int] = {}
        for m in self._root_order:
            bound = top[-1][0] if len(top) == count else floor
            made = pos.make_counted(m)
            gives_check = movegen.in_check(pos)
            if bound == -INFINITY:
                score = -self._node(depth - 1, -INFINITY, INFINITY, 1, gives_check)
            else:
                score = -self._node(depth - 1, -bound - 1, -bound, 1, gives_check)
                if score > bound:
                    score = -self._node(depth - 1, -INFINITY, -bound, 1, gives_check)
            pos.unmake_counted(made)
            scores[m] = score
            if score > bound:
                top.append((score, m))
                top.sort(key=lambda line: -line[0])
                del top[count:]
                if top[0][1] == m:
                    self._root_best = m
        self._keys.pop()
        self._root_order.sort(key=lambda m: -scores[m])
        return top

    def _root(self, depth: int, alpha: int, beta: int) -> int:
        """The root's score in the window."""
        pos = self._pos
        key = pos.key()
        entry = self.tt.get(key)
        tt_move = entry[3] if entry is not None else 0
        moves = order_moves(pos, movegen.legal_moves(pos), tt_move, (0, 0), self._history)
        self._keys.append(key)
        best_score, best_move = -INFINITY, moves[0]
        original_alpha = alpha
        for i, m in enumerate(moves):
            made = pos.make_counted(m)
            gives_check = movegen.in_check(pos)
            if i == 0:
                score = -self._node(depth - 1, -beta, -alpha, 1, gives_check)
            else:
                score = -self._node(depth - 1, -alpha - 1, -alpha, 1, gives_check)
                if alpha < score < beta:
                    score = -self._node(depth - 1, -beta, -alpha, 1, gives_check)
            pos.unmake_counted(made)
            if score > best_score:
                best_score, best_move = score, m
                if score > alpha:
                    alpha = score
                    self._root_best = m
                    if score >= beta:
                        break
        self._keys.pop()
        bound = LOWER if best_score >= beta else (EXACT if best_score > original_alpha else UPPER)
        self.tt.put(key, depth, best_score, bound, best_move)
        return best_score

    def _is_draw(self, pos: Position, key: int) -> bool:
        if pos.halfmove_clock >= 100 or insufficient_material(pos):
            return True
        keys = self._keys
        n = len(keys)
        lowest = max(n - pos.halfmove_clock, 0)
        i = n - 2
        while i >= lowest:
            if keys[i] == key:
                return True
            i -= 2
        return False

    def _node(self, depth: int, alpha: int, beta: int, ply: int, in_check: bool,
              null_ok: bool = True) -> int:
        """Principal variation search of a node below the root (``null_ok``: a null move may
        be tried, i.e. the move before was not one)."""
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0 or self.nodes >= self._node_limit:
            self._check_limits()
        pos = self._pos
        key = pos.key()
        if self._is_draw(pos, key):
            return 0
        # Mate-distance pruning: no line from here mates sooner than a mate already found.
        alpha = max(alpha, -MATE + ply)
        beta = min(beta, MATE - ply - 1)
        if alpha >= beta:
            return alpha
        if in_check:
            depth += 1
        if depth <= 0 or ply >= MAX_PLY:
            return self._quiesce(alpha, beta, ply, in_check)
        entry = self.tt.get(key)
        tt_move = 0
        pv_node = beta - alpha > 1
        if entry is not None:
            tt_move = entry[3]
            if entry[0] >= depth and not pv_node:
                score = from_tt(entry[1], ply)
                bound = entry[2]
                if bound == EXACT or (bound == LOWER and score >= beta) or (
                    bound == UPPER and score <= alpha
                ):
                    return score
        futile = False
        if not in_check and not pv_node and abs(beta) < MATE_BOUND:
            static = self._evaluate(pos, key)
            if depth <= 3:
                if static - FUTILITY_MARGIN * depth >= beta and movegen.has_legal_move(pos, False):
                    return static
                futile = depth == 1 and static + FUTILITY_MARGIN <= alpha
            if (null_ok and depth >= 4 and static >= beta and _has_pieces(pos)
                    and movegen.has_legal_move(pos, False)
                    and self._null_move(key, depth, beta, ply)):
                return beta
        killers = self._killers[ply]
        # The table move first, before generating and sorting the others (which its
        # cut-off may make moot).
        generate_later = tt_move != 0 and movegen.is_legal(pos, tt_move, in_check)
        if generate_later:
            order = [Move(tt_move)]
        else:
            moves = movegen.legal_moves(pos)
            if not moves:
                return -MATE + ply if in_check else 0
            order = order_moves(pos, moves, 0, (killers[0], killers[1]), self._history)
        self._keys.append(key)
        original_alpha = alpha
        best_score, best_move = -INFINITY, 0
        tried: list[int] = []
        # Late-move pruning: near the leaves, once enough quiet moves were searched.
        late = LATE_MOVES[depth] if depth <= LATE_DEPTH and not pv_node and not in_check else (
            MAX_MOVES)
        i = -1
        while True:
            i += 1
            if i == 1 and generate_later:
                order = order_moves(pos, movegen.legal_moves(pos), tt_move,
                                    (killers[0], killers[1]), self._history)
            if i >= len(order):
                break
            m = order[i]
            quiet = not is_tactical(pos, m)
            if quiet and i > 0 and (futile or (
                    len(tried) >= late and m != killers[0] and m != killers[1]
                    and best_score > -MATE_BOUND)) and not movegen.gives_check(pos, m):
                continue
            made = pos.make_counted(m)
            gives_check = movegen.in_check(pos)
            if i == 0:
                score = -self._node(depth - 1, -beta, -alpha, ply + 1, gives_check)
            else:
                reduction = 0
                if (depth >= 3 and i >= 3 and quiet and not in_check and not gives_check
                        and m != killers[0] and m != killers[1]):
                    reduction = LMR[min(depth, 63)][min(i, 63)] - pv_node
                score = -self._node(depth - 1 - reduction, -alpha - 1, -alpha, ply + 1,
                                    gives_check)
                if score > alpha and reduction > 0:
                    score = -self._node(depth - 1, -alpha - 1, -alpha, ply + 1, gives_check)
                if alpha < score < beta:
                    score = -self._node(depth - 1, -beta, -alpha, ply + 1, gives_check)
            pos.unmake_counted(made)
            if score > best_score:
                best_score, best_move = score, m
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        if quiet:
                            self._reward(pos.board, m, tried, depth, killers)
                        break
            if quiet:
                tried.append(m)
        self._keys.pop()
        bound = LOWER if best_score >= beta else (EXACT if best_score > original_alpha else UPPER)
        self.tt.put(key, depth, to_tt(best_score, ply), bound, best_move)
        return best_score

    def _evaluate(self, pos: Position, key: int) -> int:
        """The static evaluation, remembered by key (it depends on the position only)."""
        slot = key & (EVAL_SLOTS - 1)
        if self._eval_keys[slot] == key:
            return self._eval_scores[slot]
        score = evaluate(pos, self._pawns)
        self._eval_keys[slot] = key
        self._eval_scores[slot] = score
        return score

    def _null_move(self, key: int, depth: int, beta: int, ply: int) -> bool:
        """Null-move pruning: whether the side to move, even passing its move, keeps a score
        of ``beta`` or more in a search reduced by 2 or 3 plies (then a real move would too;
        not tried in check nor without pieces, where passing may be the only loss:
        zugzwang). The repetition look-back stops at the pass."""
        pos = self._pos
        reduction = 3 if depth >= 6 else 2
        halfmoves = pos.halfmove_clock
        undo = pos.make_null()
        pos.halfmove_clock = 0
        self._keys.append(key)
        try:
            score = -self._node(depth - 1 - reduction, -beta, -beta + 1, ply + 1, False, False)
        finally:
            self._keys.pop()
            pos.halfmove_clock = halfmoves
            pos.unmake_null(undo)
        return score >= beta

    def _reward(self, board: list[int], move: int, tried: list[int], depth: int,
                killers: list[int]) -> None:
        """A quiet move made a cut-off: it becomes a killer and gains history; the quiet
        moves tried before it lose as much. History stays within +-HISTORY_MAX."""
        if killers[0] != move:
            killers[1] = killers[0]
            killers[0] = move
        history = self._history
        bonus = min(depth * depth, HISTORY_MAX)
        index = board[move & 63] << 6 | (move >> 6) & 63
        history[index] += bonus - history[index] * bonus // HISTORY_MAX
        for other in tried:
            index = board[other & 63] << 6 | (other >> 6) & 63
            history[index] -= bonus + history[index] * bonus // HISTORY_MAX

    def _quiesce(self, alpha: int, beta: int, ply: int, in_check: bool) -> int:
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0 or self.nodes >= self._node_limit:
            self._check_limits()
        pos = self._pos
        if in_check:
            moves = movegen.legal_moves(pos)
            if not moves:
                return -MATE + ply
            if ply >= MAX_PLY:
                return evaluate(pos, self._pawns)
            moves = order_moves(pos, moves, 0, (0, 0), self._history)
            stand = -INFINITY
        else:
            stand = self._evaluate(pos, pos.key())
            if stand >= beta or ply >= MAX_PLY:
                return stand
            alpha = max(alpha, stand)
            moves = order_captures(pos, captures(pos))
        board = pos.board
        for m in moves:
            if not in_check and not m >> 12 and (
                stand + ORDER_VALUE[board[(m >> 6) & 63] & 7 or 1] + DELTA_MARGIN <= alpha
                or loses_material(pos, m)
            ):
                continue
            made = pos.make_counted(m)
            score = -self._quiesce(-beta, -alpha, ply + 1, movegen.in_check(pos))
            pos.unmake_counted(made)
            if score > stand:
                stand = score
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        return stand

    def _pv(self, depth: int, first: Move | None = None) -> tuple[Move, ...]:
        """The principal variation, read back from the table (each move checked legal);
        ``first``: the line's first move, the rest read from the table."""
        pos = self._pos.copy()
        line: list[Move] = []
        seen: set[int] = set()
        if first is not None:
            seen.add(pos.key())
            line.append(first)
            pos.push(first)
        while len(line) < depth:
            key = pos.key()
            entry = self.tt.get(key)
            if entry is None or key in seen:
                break
            seen.add(key)
            move = entry[3]
            if not move or move not in movegen.legal_moves(pos):
                break
            line.append(Move(move))
            pos.push(move)
        return tuple(line)
