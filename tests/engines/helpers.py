"""Shared helpers of the engine tests: ticking and node-driven time sources, random
positions, games against a random mover."""

from __future__ import annotations

import random

from chessarbiter.core.position import Position
from chessarbiter.engines.builtin import BuiltinEngine
from chessarbiter.engines.evaluation import insufficient_material
from chessarbiter.engines.search import Limits, Searcher


class TickingTime:
    """A time source (ms) that moves on by ``step`` each time it is read: searches see time
    pass without any sleeping, the same way on every machine."""

    def __init__(self, step: int = 1) -> None:
        self.ms = 0
        self.step = step

    def __call__(self) -> int:
        self.ms += self.step
        return self.ms


def random_positions(count: int, seed: int, max_plies: int = 80) -> list[Position]:
    """Positions reached by random play from the start (none without legal moves)."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        pos = Position()
        for _ in range(rng.randrange(max_plies)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
        if pos.legal_moves():
            out.append(pos)
    return out


def random_mover_game(engine: BuiltinEngine, engine_white: bool, depth: int, seed: int,
                      max_plies: int = 300) -> str:
    """A game of ``engine`` (searching to ``depth``) against uniformly random moves: the
    result as ``"engine"``, ``"random"`` (the winner) or ``"draw"``."""
    rng = random.Random(seed)
    pos = Position()
    seen: dict[int, int] = {}
    for _ in range(max_plies):
        key = pos.key()
        seen[key] = seen.get(key, 0) + 1
        moves = pos.legal_moves()
        if not moves:
            if not pos.is_check():
                return "draw"
            return "random" if (pos.turn == 0) == engine_white else "engine"
        if seen[key] >= 3 or pos.halfmove_clock >= 100 or insufficient_material(pos):
            return "draw"
        if (pos.turn == 0) == engine_white:
            move = engine.choose(pos, limits=Limits(depth=depth)).move
            assert move in moves
        else:
            move = rng.choice(moves)
        pos.push(move)
    return "draw"


class NodeTime:
    """A time source (ms) for a slow machine: time passes only as a searcher works,
    ``ms_per_node`` for each node it searches (``attach`` names the searcher)."""

    def __init__(self, ms_per_node: float) -> None:
        self.ms_per_node = ms_per_node
        self.ms = 0.0
        self.extra = 0
        self._counted = 0
        self._searcher: Searcher | None = None

    def attach(self, searcher: Searcher) -> None:
        self._searcher = searcher

    def wait(self, ms: int) -> None:
        """Time passing outside the search (communication, a busy machine)."""
        self.ms += ms

    def __call__(self) -> int:
        nodes = self._searcher.nodes if self._searcher is not None else 0
        if nodes < self._counted:  # a new search began counting afresh
            self._counted = 0
        self.ms += (nodes - self._counted) * self.ms_per_node
        self._counted = nodes
        return int(self.ms)
