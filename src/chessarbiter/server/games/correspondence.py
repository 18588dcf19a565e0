"""Correspondence games on the server (``days`` per move): their time source, their first
moves, and the lichess fields that describe them.

A correspondence game runs on the calendar (:attr:`ServerConfig.calendar_ms`), dated from
its creation: its deadlines are dates, so the time the server is down counts and a restart
does not move them (a clock game instead goes on from its last event). Its one flag timer
is the hub's, as for any game: a handle on the event loop's heap, nothing else per game.
"""

from __future__ import annotations

from typing import Any

from chessarbiter.arbiter.game import Game
from chessarbiter.clock.controls import TimeControl
from chessarbiter.clock.correspondence import days_per_turn, deadline_ms
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.games.meta import GameMeta
from chessarbiter.session.live import LiveGame


def live_game(game: Game, meta: GameMeta, config: ServerConfig) -> LiveGame:
    """``game`` on its time source: the calendar from the game's creation for a
    correspondence game, else the monotonic clock going on from its last event."""
    if deadline_ms(game.setup.control) is None:
        return LiveGame(game, config.now_ms)
    return LiveGame(game, config.calendar_ms, epoch=meta.created_ms)


def first_move_overdue(live: LiveGame) -> bool | None:
    """For a correspondence game whose side to move has not made its first move: whether
    the days per move have passed since the game's start (White) or White's first move
    (Black), on the game's dated time; ``None`` for any other game."""
    per_move = deadline_ms(live.game.setup.control)
    if per_move is None:
        return None
    return live.time() - live.last_at() >= per_move


def time_control(control: TimeControl | None) -> dict[str, Any] | None:
    """lichess' ``timeControl`` of a correspondence challenge, ``None`` for another."""
    days = days_per_turn(control)
    return None if days is None else {"type": "correspondence", "daysPerTurn": days}

