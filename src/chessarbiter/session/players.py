"""Engines as players: the built-in engine or an external UCI engine, asked for a move with
the game's clocks. A player returns the move in UCI, or the engine's failure; it never raises.
"""

from __future__ import annotations

import shlex
import threading
from collections.abc import Sequence
from typing import Protocol

from chessarbiter.arbiter.events import Event, FlagObserved, Forfeited
from chessarbiter.arbiter.game import Game
from chessarbiter.clock.controls import BonusMode, TimeControl
from chessarbiter.clock.records import Side
from chessarbiter.core.position import Position
from chessarbiter.engines.builtin import BuiltinEngine
from chessarbiter.engines.search import mate_in
from chessarbiter.engines.timeman import Budget, Timekeeper
from chessarbiter.engines.uci_client import ClockTimes, EngineFailure, UciEngine
from chessarbiter.engines.uci_options import playing_name
from chessarbiter.engines.uci_protocol import mate_score, read_score


class EnginePlayer(Protocol):
    """Something that chooses moves on its own; ``score_cp`` is its last move's evaluation
    for itself, in centipawns (mates as +-100,000 less the moves to mate), if it gave one."""

    name: str
    score_cp: int | None

    def think(
        self,
        pos: Position,
        control: TimeControl | None,
        clocks: tuple[int, int] | None,
        stop: threading.Event,
    ) -> str | EngineFailure:
        """The move to play in ``pos`` (the engine's own copy, with the game's moves in its
        move stack) in UCI, or why there is none. Blocks while thinking."""
        ...

    def close(self) -> None:
        """Release the engine."""
        ...


def moves_made(pos: Position) -> int:
    """How many moves the player having the move has made since the game's start."""
    return len(pos.move_stack) // 2


class BuiltinPlayer:
    """The built-in engine at a strength level (1-10)."""

    def __init__(self, level: int = 3, *, seed: int | None = None) -> None:
        self.engine = BuiltinEngine(level, seed=seed)
        self.name = f"chessarbiter level {level}"
        self.score_cp: int | None = None
        self.clock = Timekeeper()

    def think(
        self,
        pos: Position,
        control: TimeControl | None,
        clocks: tuple[int, int] | None,
        stop: threading.Event,
    ) -> str | EngineFailure:
        budget = None
        if control is not None and clocks is not None:
            remaining = max(clocks[pos.turn], 0)
            budget = self.clock.budget_for(control, moves_made(pos), remaining)
        move, score = self.search(pos, budget, stop)
        self.clock.moved()
        mate = mate_in(score)
        self.score_cp = score if mate is None else mate_score(mate)
        if move is None:
            return EngineFailure("illegal", "the built-in engine found no move")
        return pos.uci(move)

    def search(self, pos: Position, budget: Budget | None,
               stop: threading.Event) -> tuple[int | None, int]:
        """The engine's move in ``pos`` (``None`` without a legal move) and its score, found
        within ``budget`` in this thread (a server searches in a process of its own)."""
        result = self.engine.choose(pos, budget=budget, stop=stop)
        return result.move, result.score

    def close(self) -> None:
        return None


class UciPlayer:
    """An external engine speaking UCI, started by :meth:`start` or on first use."""

    def __init__(self, command: Sequence[str], *, chess960: bool = False,
                 options: dict[str, str | int | bool] | None = None) -> None:
        self.command = list(command)
        self.name = " ".join(self.command)
        self.chess960 = chess960
        self.options = options or {}
        self.score_cp: int | None = None
        self._engine: UciEngine | None = None

    def _started(self) -> UciEngine | EngineFailure:
        if self._engine is None:
            engine = UciEngine.start(self.command, options=self.options, chess960=self.chess960)
            if isinstance(engine, EngineFailure):
                return engine
            self._engine = engine
            self.name = playing_name(engine.name or self.name, engine.settings)
        return self._engine

    def start(self) -> EngineFailure | None:
        """Start the engine through the UCI handshake unless it runs (``name`` becomes its
        ``id name`` with the settings that change its play, ``Stockfish 15.1 (Skill
        Level=3)``); why it cannot (a setting it does not declare or allow among them), or
        ``None``."""
        engine = self._started()
        return engine if isinstance(engine, EngineFailure) else None

    def think(
        self,
        pos: Position,
        control: TimeControl | None,
        clocks: tuple[int, int] | None,
        stop: threading.Event,
    ) -> str | EngineFailure:
        engine = self._started()
        if isinstance(engine, EngineFailure):
            return engine
        times = None
        if control is not None and clocks is not None:
            index, made = control.period_index(moves_made(pos))
            period = control.periods[index]
            inc = period.bonus_ms if period.mode is not BonusMode.HOURGLASS else 0
            togo = None if period.moves is None else period.moves - made
            times = ClockTimes(max(clocks[0], 0), max(clocks[1], 0), inc, inc, togo)
        answer = engine.play(pos, times, depth=None if times else 8)
        if isinstance(answer, EngineFailure):
            return answer
        self.score_cp = read_score(answer.info)
        return pos.uci(answer.move)

    def close(self) -> None:
        if self._engine is not None:
            self._engine.close()


def start_player(player: EnginePlayer) -> EngineFailure | None:
    """Make ``player`` ready to move now rather than at its first move (an external engine
    is started); why it cannot be, or ``None``."""
    return player.start() if isinstance(player, UciPlayer) else None


def engine_spec(text: str) -> str:
    """An engine named on a command line as a player spec: ``engine[:LEVEL]`` and
    ``uci:COMMAND[;OPTION=VALUE...]`` as they are, anything else a UCI command
    (``stockfish -x`` is ``uci:stockfish -x``)."""
    if text == "engine" or text.startswith(("engine:", "uci:")):
        return text
    return f"uci:{text}"


def player_from_spec(spec: str, *, seed: int | None = None,
                     chess960: bool = False) -> EnginePlayer | None:
    """``human`` (``None``), ``engine`` / ``engine:LEVEL`` (the built-in engine, level 1-10,
    default 3) or ``uci:COMMAND[;OPTION=VALUE...]`` (an external engine and the UCI options
    to set, e.g. ``uci:stockfish;Skill Level=0``); ``ValueError`` for anything else."""
    if spec == "human":
        return None
    if spec == "engine" or spec.startswith("engine:"):
        level = spec.partition(":")[2] or "3"
        if not (level.isascii() and level.isdigit() and len(level) <= 2):
            raise ValueError(f"engine level {level[:20]!r}: expected a number 1-10")
        return BuiltinPlayer(int(level), seed=seed)
    if spec.startswith("uci:") and spec[4:].strip():
        command, *settings = spec[4:].split(";")
        options: dict[str, str | int | bool] = {}
        for setting in settings:
            name, equals, value = setting.partition("=")
            if not equals or not name.strip():
                raise ValueError(f"engine option {setting!r}: expected NAME=VALUE")
            options[name.strip()] = value.strip()
        return UciPlayer(shlex.split(command), chess960=chess960, options=options)
    raise ValueError(f"player {spec!r}: expected human, engine[:LEVEL] or uci:COMMAND")


def failure_event(game: Game, side: Side, failure: EngineFailure, at_ms: int) -> Event:
    """The arbiter's answer to an engine that failed: a hang on a clock is its flag (lost,
    or drawn if the opponent cannot checkmate, Art. 6.9); a crash, an illegal or unreadable
    move, or a hang without a clock forfeits the game (Art. 11.7 / 12.9 as the arbiter's
    decision)."""
    if failure.kind == "timeout" and game.time_to_flag() is not None:
        return FlagObserved(max(at_ms, game.log[-1].at_ms + (game.time_to_flag() or 0)))
    return Forfeited(at_ms, side, f"engine {failure.kind}: {failure.detail}")
