"""The built-in engine as a player: a search with a strength level and a time budget.

Levels run from 1 (weakest) to 10 (full strength within the time budget). Levels cap the
depth and nodes searched; the weakest levels also score every move and then pick the best
after adding random noise to each score, so they make human-like inaccuracies. In a game
every level first looks in the opening book (:mod:`chessarbiter.engines.book`) and plays a
book move within its tolerance at once.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from chessarbiter.clock.clock import monotonic_ms
from chessarbiter.core.moves import Move
from chessarbiter.core.position import Position
from chessarbiter.engines.book import Book, shipped_book, tolerance
from chessarbiter.engines.search import Limits, Searcher, SearchInfo, SearchResult
from chessarbiter.engines.timeman import Budget
from chessarbiter.engines.tt import MATE, MATE_BOUND, TranspositionTable


@dataclass(frozen=True, slots=True)
class Level:
    """A strength level: depth and node caps (``None``: none) and score noise (centipawns)."""

    depth: int | None
    nodes: int | None
    noise_cp: int


LEVELS: Final = {
    1: Level(1, 3_000, 300),
    2: Level(1, 3_000, 150),
    3: Level(2, 8_000, 100),
    4: Level(2, 8_000, 50),
    5: Level(3, 20_000, 25),
    6: Level(3, 20_000, 0),
    7: Level(4, 40_000, 0),
    8: Level(5, 100_000, 0),
    9: Level(7, 300_000, 0),
    10: Level(None, None, 0),
}
DEFAULT_DEPTH: Final = 5
MIN_LEVEL: Final = min(LEVELS)
MAX_LEVEL: Final = max(LEVELS)


def earlier_keys(pos: Position) -> list[int]:
    """The keys of the positions before ``pos`` along its move stack, oldest first."""
    replay = pos.copy()
    keys = []
    for _ in range(len(pos.move_stack)):
        replay.pop()
        keys.append(replay.key())
    keys.reverse()
    return keys


def _tighter(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else min(a, b)


def _less(limits: Limits, spent_ms: int) -> Limits:
    """``limits`` with ``spent_ms`` taken off its times (at least 1 ms left)."""
    if spent_ms <= 0:
        return limits
    soft = None if limits.soft_ms is None else max(limits.soft_ms - spent_ms, 1)
    hard = None if limits.hard_ms is None else max(limits.hard_ms - spent_ms, 1)
    return Limits(limits.depth, limits.nodes, soft, hard)


def _no_move(pos: Position, on_info: Callable[[SearchInfo], None] | None) -> SearchResult:
    """The answer without a legal move: mated (a mate in 0) or stalemated (a draw), told to
    ``on_info`` as a depth-0 line so that a GUI shows the score."""
    score = -MATE if pos.is_check() else 0
    if on_info is not None:
        on_info(SearchInfo(0, score, 0, 0, ()))
    return SearchResult(None, score, 0, 0)


class BuiltinEngine:
    """Our engine as a player. ``seed`` makes the weak levels' and the book's randomness
    repeatable; ``now`` is the time source (milliseconds); ``own_book`` whether a game's
    moves come from the opening ``book`` (by default the shipped one) while it has any."""

    name: Final = "chessarbiter"

    def __init__(
        self,
        level: int = MAX_LEVEL,
        *,
        seed: int | None = None,
        now: Callable[[], int] = monotonic_ms,
        tt_entries: int = 1 << 18,
        own_book: bool = True,
        book: Book | None = None,
    ) -> None:
        self.searcher = Searcher(TranspositionTable(tt_entries), now)
        self.level = level
        self.own_book = own_book
        self._book = book
        self._rng = random.Random(seed)

    @property
    def level(self) -> int:
        """The strength level, 1 to 10."""
        return self._level

    @level.setter
    def level(self, value: int) -> None:
        if value not in LEVELS:
            raise ValueError(f"level {value}: expected {MIN_LEVEL} to {MAX_LEVEL}")
        self._level = value

    def new_game(self) -> None:
        """Forget what the previous game taught the search."""
        self.searcher.new_game()

    def choose(
        self,
        pos: Position,
        *,
        budget: Budget | None = None,
        limits: Limits | None = None,
        history: Sequence[int] | None = None,
        stop: threading.Event | None = None,
        on_info: Callable[[SearchInfo], None] | None = None,
        multipv: int = 1,
        level_caps: bool = True,
    ) -> SearchResult:
        """Pick a move for ``pos`` within the level, the time ``budget`` and ``limits``.

        ``history`` is the keys of the game's earlier positions (by default read from the
        position's move stack). The move is ``None`` only when there is no legal move.
        With no limit, no budget and no ``stop`` at all, :data:`DEFAULT_DEPTH` applies.
        Each iteration's ``multipv`` best lines go to ``on_info``. Without ``level_caps``
        the level's depth and node caps do not apply (the caller's own limits, or ``stop``,
        end the search; an analysis asks for that), its noise still does, and the book is
        not used (with ``level_caps``, a book move is answered with depth and nodes 0).
        """
        started = self.searcher.now()
        level = LEVELS[self._level]
        limits = limits or Limits()
        if limits == Limits() and budget is None and stop is None:
            limits = Limits(depth=DEFAULT_DEPTH)
        soft, hard = (budget.target, budget.maximum) if budget is not None else (None, None)
        limits = Limits(
            depth=_tighter(limits.depth, level.depth if level_caps else None),
            nodes=_tighter(limits.nodes, level.nodes if level_caps else None),
            soft_ms=_tighter(limits.soft_ms, soft),
            hard_ms=_tighter(limits.hard_ms, hard),
        )
        if not pos.legal_moves():
            return _no_move(pos, on_info)
        if self.own_book and level_caps:
            book = self._book if self._book is not None else shipped_book()
            move = book.pick(pos, self._rng, tolerance(level.noise_cp))
            if move is not None:
                return SearchResult(move, 0, 0, 0, (move,))
        keys = earlier_keys(pos) if history is None else history
        limits = _less(limits, self.searcher.now() - started)  # the budget runs from the call
        if not level.noise_cp:
            return self.searcher.search(pos, limits, history=keys, stop=stop, on_info=on_info,
                                        multipv=multipv)
        scored = self.searcher.root_scores(pos, limits, margin=2 * level.noise_cp, history=keys,
                                           stop=stop, on_info=on_info, multipv=multipv)
        move, score = max(scored, key=lambda ms: self._noisy(ms[1], level.noise_cp))
        return SearchResult(move, score, limits.depth or 1, self.searcher.nodes, (move,))

    def play(self, pos: Position, budget: Budget | None = None) -> Move | None:
        """The move to play in ``pos`` (``None`` without legal moves)."""
        return self.choose(pos, budget=budget).move

    def _noisy(self, score: int, noise: int) -> int:
        if abs(score) > MATE_BOUND:
            return score  # mates are never blurred
        return score + self._rng.randint(-noise, noise)
