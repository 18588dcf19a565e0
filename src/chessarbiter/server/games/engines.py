"""Engines playing on the server: the built-in engine at a level or a configured UCI engine,
searching in a worker thread; the answer is turned into the arbiter's event on the loop."""

from __future__ import annotations

import threading
from collections.abc import Callable

from chessarbiter.arbiter.events import Event, Moved
from chessarbiter.arbiter.game import Game
from chessarbiter.clock.controls import TimeControl
from chessarbiter.clock.correspondence import deadline_ms
from chessarbiter.clock.records import Side
from chessarbiter.core.position import Position
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.games.meta import Seat
from chessarbiter.session.players import EnginePlayer, failure_event, player_from_spec

Answer = Callable[[Game, int], Event]
"""The engine's event at a game time: its move, or the arbiter's answer to its failure."""


def engine_for(seat: Seat, config: ServerConfig, chess960: bool) -> EnginePlayer:
    """The engine of ``seat``: a configured engine by name, else its spec
    (``engine:LEVEL``)."""
    spec = seat.engine or "engine"
    player = player_from_spec(config.engines.get(spec, spec), chess960=chess960)
    if player is None:
        raise ValueError(f"engine {spec!r}: not an engine")
    return player


def think(player: EnginePlayer, pos: Position, control: TimeControl | None,
          clocks: tuple[int, int] | None, stop: threading.Event) -> Answer:
    """Search ``pos`` (blocking: run it in a worker thread)."""
    side = Side.WHITE if pos.turn == Side.WHITE.value else Side.BLACK
    if deadline_ms(control) is not None:  # days are no budget: its level's own limits
        control, clocks = None, None
    answer = player.think(pos, control, clocks, stop)
    if isinstance(answer, str):
        move = answer
        return lambda game, at: Moved(at, side, move)
    return lambda game, at: failure_event(game, side, answer, at)
