"""Engines playing on the server: the built-in engine at a level or a configured UCI engine,
waited for in a worker thread when it has the move (:class:`Engines`; the built-in engine's
search itself runs in a process of its own, :mod:`~.searching`, an external engine is one);
the answer is turned into the arbiter's event on the loop and played through the game
room."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from chessarbiter.arbiter.events import Event, Moved
from chessarbiter.arbiter.game import Game
from chessarbiter.clock.controls import TimeControl
from chessarbiter.clock.correspondence import deadline_ms
from chessarbiter.clock.records import Side
from chessarbiter.core.position import Position
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.errors import ApiError
from chessarbiter.server.games.meta import Seat
from chessarbiter.server.games.table import HubGame

if TYPE_CHECKING:
    from chessarbiter.session.players import EnginePlayer

log = logging.getLogger(__name__)

Answer = Callable[[Game, int], Event]
"""The engine's event at a game time: its move, or the arbiter's answer to its failure."""
Play = Callable[[HubGame, Side, Callable[[int], Event]], Awaitable[object]]
"""Plays a side's event in a game (the game room's ``act``)."""


def engine_for(seat: Seat, config: ServerConfig, chess960: bool) -> EnginePlayer:
    """The engine of ``seat``: a configured engine by name, else its spec
    (``engine:LEVEL``); the built-in engine searches in the server's search processes
    (:mod:`~.searching`), an external engine is a process of its own."""
    from chessarbiter.server.games.searching import BackgroundBuiltin  # on an engine's turn
    from chessarbiter.session.players import BuiltinPlayer, player_from_spec

    spec = seat.engine or "engine"
    player = player_from_spec(config.engines.get(spec, spec), chess960=chess960)
    if player is None:
        raise ValueError(f"engine {spec!r}: not an engine")
    if isinstance(player, BuiltinPlayer):
        return BackgroundBuiltin(player.engine.level, config.engine_workers)
    return player


def think(player: EnginePlayer, pos: Position, control: TimeControl | None,
          clocks: tuple[int, int] | None, stop: threading.Event) -> Answer:
    """Search ``pos`` (blocking: run it in a worker thread)."""
    from chessarbiter.session.players import failure_event

    side = Side.WHITE if pos.turn == Side.WHITE.value else Side.BLACK
    if deadline_ms(control) is not None:  # days are no budget: its level's own limits
        control, clocks = None, None
    answer = player.think(pos, control, clocks, stop)
    if isinstance(answer, str):
        move = answer
        return lambda game, at: Moved(at, side, move)
    return lambda game, at: failure_event(game, side, answer, at)


class Engines:
    """The engines' turns: each search in a worker thread (``config.engine_workers`` at
    once), its answer played through ``play``; :meth:`start` and :meth:`stop` with the
    hub."""

    def __init__(self, config: ServerConfig, play: Play) -> None:
        self.config = config
        self.play = play
        self._pool: ThreadPoolExecutor | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        self._pool = ThreadPoolExecutor(self.config.engine_workers,
                                        thread_name_prefix="chessarbiter-engine")

    def stop(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    def turn(self, entry: HubGame) -> None:
        """Start the engine's search when it has the move (in a worker thread)."""
        game = entry.game
        if entry.over or entry.thinking or game.pending_ruling is not None:
            return
        side = game.to_move
        seat = entry.meta.seat(side)
        if seat.engine is None or self._pool is None:
            return
        if entry.engine is None:
            entry.engine = engine_for(seat, self.config, game.setup.chess960)
        entry.thinking = True
        loop = asyncio.get_running_loop()
        job = loop.run_in_executor(self._pool, think, entry.engine, game.position(),
                                   game.setup.control, entry.live.clocks(), entry.stop)
        task = loop.create_task(self._moved(entry, side, job))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _moved(self, entry: HubGame, side: Side, job: asyncio.Future[Answer]) -> None:
        try:
            answer = await job
        except (asyncio.CancelledError, RuntimeError):
            return
        finally:
            entry.thinking = False
        if entry.over or entry.game.to_move is not side:
            return
        try:
            await self.play(entry, side, lambda at: answer(entry.game, at))
        except ApiError as exc:
            log.error("game %s: the engine's move was refused: %s", entry.id, exc.message)

    def close(self, entry: HubGame) -> None:
        """The game has ended: its engine too (an external process ends)."""
        if entry.engine is not None and self._pool is not None:
            engine, entry.engine = entry.engine, None
            asyncio.get_running_loop().run_in_executor(self._pool, engine.close)
