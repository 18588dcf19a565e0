"""The built-in engine's searches in background processes (:mod:`...background`, at the idle
priority): the search is compiled code that holds the interpreter's lock while it thinks, so
in a thread of the server it would take the event loop's core for seconds at a time (the
acknowledgements of every other game waiting on it). :class:`BackgroundBuiltin` is the
built-in engine as the server's players use it: its time management stays in the server
(the game's clock is there), each search goes to one of the ``engine_workers`` processes,
and a stop (the game ended meanwhile, the server stopping) reaches the search through a
flag shared with the processes. Each process keeps the engines of its last :data:`KEPT`
games, so that a game's next search starts from what its previous one learnt (its
transposition table)."""

from __future__ import annotations

import itertools
import queue
import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as NotYet
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context
from typing import Any, Final

from chessarbiter.core.position import Position
from chessarbiter.engines.builtin import BuiltinEngine
from chessarbiter.engines.timeman import Budget
from chessarbiter.server import background
from chessarbiter.session.players import BuiltinPlayer

JOB: Final = "engine"
KEPT: Final = 4
"""Games whose engines a search process keeps (the least recently searched go)."""
LOOK_S: Final = 0.05
"""How often a waiting search looks whether its game asks it to stop, in seconds."""

_STOPS: Any = None
"""The stop flags, one per search slot: made in the server, inherited by the processes."""
_SLOTS: queue.Queue[int] = queue.Queue()
"""The server's free search slots (one per process of the pool)."""
_POOL_LOCK = threading.Lock()
_ENGINES: OrderedDict[str, BuiltinEngine] = OrderedDict()
"""In a search process: the engines of its last games, by game."""
_NAMES = itertools.count()


class _Flag(threading.Event):
    """A search slot's stop flag, as the search asks it (``is_set``)."""

    def __init__(self, slot: int) -> None:
        super().__init__()
        self.slot = slot

    def is_set(self) -> bool:
        return bool(_STOPS[self.slot])


def _inherit(stops: Any) -> None:
    global _STOPS
    _STOPS = stops


def _pool(workers: int) -> ProcessPoolExecutor:
    """The search processes (``workers`` of them at the first call: one per slot)."""
    global _STOPS
    with _POOL_LOCK:
        if _STOPS is None:
            _STOPS = get_context("spawn").RawArray("b", workers)
            for slot in range(workers):
                _SLOTS.put(slot)
        return background.pool(JOB, len(_STOPS), _inherit, (_STOPS,), idle=True)


def search(game: str, level: int, fen: str, chess960: bool, moves: Sequence[int],
           budget: Budget | None, slot: int) -> tuple[int | None, int]:
    """In a search process: the move of ``game``'s engine at ``level`` in the position
    ``fen`` then ``moves`` (the game's history, for repetitions), and its score."""
    engine = _ENGINES.pop(game, None) or BuiltinEngine(level)
    _ENGINES[game] = engine
    while len(_ENGINES) > KEPT:
        _ENGINES.popitem(last=False)
    pos = Position(fen, chess960=chess960)
    for move in moves:
        pos.push(move)
    result = engine.choose(pos, budget=budget, stop=_Flag(slot))
    return result.move, result.score


class BackgroundBuiltin(BuiltinPlayer):
    """The built-in engine at ``level``, searching in the server's search processes
    (``workers`` of them: the first engine's count is the server's)."""

    def __init__(self, level: int, workers: int) -> None:
        super().__init__(level)
        self.workers = workers
        self.key = f"{id(self)}-{next(_NAMES)}"

    def search(self, pos: Position, budget: Budget | None,
               stop: threading.Event) -> tuple[int | None, int]:
        """The search in a search process, once a slot is free; ``stop`` set meanwhile
        stops it there."""
        root = pos.copy()
        moves = [root.pop() for _ in range(len(root.move_stack))][::-1]
        _pool(self.workers)  # started, with its slots
        slot = _SLOTS.get()
        try:
            for attempt in (1, 2):  # a search process killed: once more, in a new one
                _STOPS[slot] = 0
                job = _pool(self.workers).submit(search, self.key, self.engine.level,
                                                 root.fen(), pos.chess960, moves, budget, slot)
                try:
                    return self._awaited(job, slot, stop)
                except BrokenProcessPool:
                    background.forget(JOB)
                    if attempt == 2:
                        raise
            raise AssertionError("unreachable")
        finally:
            _SLOTS.put(slot)

    @staticmethod
    def _awaited(job: Future[tuple[int | None, int]], slot: int,
                 stop: threading.Event) -> tuple[int | None, int]:
        while True:
            try:
                return job.result(timeout=LOOK_S)
            except NotYet:
                if stop.is_set():
                    _STOPS[slot] = 1
