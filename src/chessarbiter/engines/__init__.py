"""Engines: the built-in alpha-beta engine (as a player and as a UCI engine) and external UCI
engines as players.

Quick tour::

    from chessarbiter.engines import BuiltinEngine, budget
    engine = BuiltinEngine(level=5, seed=1)
    move = engine.play(pos, budget(60_000))        # about 2 s of a 60 s sudden-death clock

    with UciEngine.start(["stockfish"]) as sf:      # an external engine as a player
        outcome = sf.play(start, moves, ClockTimes(60_000, 60_000))
"""

from chessarbiter.engines.builtin import LEVELS, BuiltinEngine, Level, earlier_keys
from chessarbiter.engines.evaluation import evaluate
from chessarbiter.engines.search import Limits, Searcher, SearchInfo, SearchResult
from chessarbiter.engines.timeman import Budget, budget, budget_for
from chessarbiter.engines.uci_client import ClockTimes, EngineFailure, EngineMove, UciEngine
from chessarbiter.engines.uci_server import UciServer

__all__ = [
    "LEVELS",
    "Budget",
    "BuiltinEngine",
    "ClockTimes",
    "EngineFailure",
    "EngineMove",
    "Level",
    "Limits",
    "SearchInfo",
    "SearchResult",
    "Searcher",
    "UciEngine",
    "UciServer",
    "budget",
    "budget_for",
    "earlier_keys",
    "evaluate",
]
