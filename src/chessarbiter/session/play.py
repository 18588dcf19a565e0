"""A game at the table: people act through typed commands, engines think, the program
arbitrates. Every action answers with a typed result (:mod:`chessarbiter.session.results`);
the terminal's full-screen and accessible modes render them, a match only plays."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from chessarbiter.arbiter.decisions import Decision
from chessarbiter.arbiter.errors import ArbiterError
from chessarbiter.arbiter.events import ClaimKind
from chessarbiter.arbiter.scoresheet import to_pgn
from chessarbiter.clock.records import Side
from chessarbiter.engines.uci_client import EngineFailure
from chessarbiter.laws.repetition import FIFTY_MOVE_PLIES
from chessarbiter.session.commands import ACTIONS, Command, Verb, side_named
from chessarbiter.session.interrupts import interrupts_held
from chessarbiter.session.live import LiveGame, RecordingError, read_move
from chessarbiter.session.players import EnginePlayer, failure_event
from chessarbiter.session.results import (
    EngineFailed,
    Played,
    Refused,
    Resumed,
    Ruling,
    Situation,
)


@dataclass(frozen=True, slots=True)
class Thought:
    """An engine's answer for ``side``, not yet played: a move in UCI or its failure."""

    engine: EnginePlayer
    side: Side
    moves: int
    """The moves played when it began to think (its answer is for that position)."""
    answer: str | EngineFailure


class Play:
    """A live game with its players: ``engines`` maps a side to the engine playing it (the
    other sides are people). Safe to call from an interface thread and an engine thread;
    ``lock`` is held by each call (an interface holds it to look and act at one instant).
    When the game's record fails, the action that found it raises :class:`RecordingError`
    (never a refusal nor an engine's fault) and the game stops: :attr:`failure` says why."""

    def __init__(
        self,
        live: LiveGame,
        engines: Mapping[Side, EnginePlayer],
        *,
        pgn_path: Path | None = None,
    ) -> None:
        self.live = live
        self.engines = dict(engines)
        self.pgn_path = pgn_path
        self.lock = threading.RLock()
        self.stop = threading.Event()

    @property
    def over(self) -> bool:
        return self.live.game.is_over

    @property
    def failure(self) -> RecordingError | None:
        """Why the game stopped before its end: its record failed."""
        return self.live.failure

    def humans(self) -> list[Side]:
        """The sides people play."""
        return [side for side in (Side.WHITE, Side.BLACK) if side not in self.engines]

    def human_side(self) -> Side | None:
        """The side a typed command speaks for: the person to move, else the only person."""
        people = self.humans()
        to_move = self.live.game.to_move
        if to_move in people:
            return to_move
        return people[0] if people else None

    def engine_to_move(self) -> EnginePlayer | None:
        """The engine that must move now, if any (none once the game has stopped)."""
        if self.over or self.failure is not None:
            return None
        return self.engines.get(self.live.game.to_move)

    def situation(self) -> Situation:
        """The game now."""
        with self.lock:
            game = self.live.game
            return Situation(game.position(), game.to_move, game.pending_offer, game.outcome,
                             self.live.clocks())

    def start(self) -> Ruling | Resumed:
        """Start the clocks (Art. 6.5) if the game has not started yet; a game resumed from
        its log answers with its last move."""
        with self.lock:
            game = self.live.game
            if game.log:
                pos = game.position()
                last = None
                if pos.move_stack:
                    move = pos.move_stack[-1]
                    pos.pop()
                    last = Played(Side(pos.turn), pos, move)
                return Resumed(last, self.situation())
            return Ruling(None, self.live.start(), self.situation())

    def act(self, command: Command, side: Side | None = None) -> Ruling | Refused:
        """Carry out one of the :data:`~chessarbiter.session.commands.ACTIONS` for ``side``
        (default: the player having the move); a refused action changes nothing."""
        if command.name not in ACTIONS:
            raise ValueError(f"{command.name}: not an action on the game")
        with self.lock:
            if self.failure is not None:
                raise self.failure
            actor = side if side is not None else self.live.game.to_move
            try:
                ruling = self._act(command, actor)
            except (ArbiterError, ValueError) as exc:  # a ChessError is a ValueError
                return Refused(command.name, f"{exc}", self.situation())
            self._finish_if_over()
            return ruling

    def _act(self, command: Command, side: Side) -> Ruling:
        live = self.live
        name = command.name
        decisions: tuple[Decision, ...]
        if name is Verb.MOVE:
            pos = live.game.position()
            move = read_move(pos, command.args[0])
            plies = len(live.game.records)
            decisions = live.move(side, pos.uci(move), offer_draw=command.offer_draw)
            played = None
            if len(live.game.records) > plies:  # not when a flag had fallen first
                played = Played(side, pos, move, command.offer_draw)
            return Ruling(name, decisions, self.situation(), played)
        if name is Verb.OFFER:
            decisions = live.offer(self._side(command, side))
        elif name is Verb.ACCEPT or name is Verb.DECLINE:
            offerer = live.game.pending_offer
            answering = offerer.opponent if offerer is not None else side
            decisions = (live.accept if name is Verb.ACCEPT else live.decline)(answering)
        elif name is Verb.CLAIM:
            kind_text, intended = command.args
            if kind_text:
                kind = ClaimKind(kind_text)
            else:  # the 50-move rule when its count is reached (by the intended move too)
                halfmoves = live.game.position().halfmove_clock
                kind = (ClaimKind.FIFTY_MOVES if halfmoves >= FIFTY_MOVE_PLIES - 1
                        else ClaimKind.THREEFOLD)
            decisions = live.claim(side, kind, intended or None)
        else:
            decisions = live.resign(self._side(command, side))
        return Ruling(name, decisions, self.situation())

    @staticmethod
    def _side(command: Command, default: Side) -> Side:
        return side_named(command.args[0]) if command.args else default

    def tick(self) -> Ruling | None:
        """Look at the clocks: a fallen flag is recorded (Art. 6.8)."""
        with self.lock:
            if self.over:
                return None
            decisions = self.live.observe_flag()
            if not decisions:
                return None
            self._finish_if_over()
            return Ruling(None, decisions, self.situation())

    def engine_move(self) -> tuple[Ruling | EngineFailed, ...]:
        """Let the engine to move think and play its move (:meth:`think` then
        :meth:`play_thought`, in the calling thread)."""
        thought = self.think()
        return () if thought is None else self.play_thought(thought)

    def think(self) -> Thought | None:
        """Let the engine to move think (blocking, outside the lock): its answer, to be
        played by :meth:`play_thought` (in the thread that records the game); ``None``
        when no engine is to move."""
        if self.failure is not None:
            raise self.failure
        engine = self.engine_to_move()
        if engine is None:
            return None
        with self.lock:
            game = self.live.game
            side = game.to_move
            clocks = self.live.clocks()
            pos = game.position()
            moves = len(game.records)
        # an interrupt while the compiled search runs in this thread would be raised inside
        # its big-integer arithmetic, which cannot fail (the process aborts): it asks the
        # engine to stop instead, and is raised once the engine has answered
        with interrupts_held(self.stop.set):
            answer = engine.think(pos, game.setup.control, clocks, self.stop)
        return Thought(engine, side, moves, answer)

    def play_thought(self, thought: Thought) -> tuple[Ruling | EngineFailed, ...]:
        """Play an engine's answer: a flag seen meanwhile, then the move, or the engine's
        failure and the arbiter's answer (:func:`~chessarbiter.session.players.failure_event`);
        nothing if the game moved on meanwhile. A store that fails raises
        :class:`RecordingError`: never taken for the engine's fault."""
        side, answer = thought.side, thought.answer
        with self.lock:
            if self.stop.is_set():  # closed meanwhile: nothing more is recorded
                return ()
            flagged = self.tick()
            seen = (flagged,) if flagged is not None else ()
            game = self.live.game
            if self.over or game.to_move is not side or len(game.records) != thought.moves:
                return seen
            move, reason = None, ""
            if isinstance(answer, str):
                pos = game.position()
                try:
                    legal = pos.parse_uci(answer)
                    decisions = self.live.move(side, answer)
                except (ArbiterError, ValueError) as exc:  # not a RecordingError
                    move, reason = answer, f"{exc}"
                    failure = EngineFailure("illegal", f"illegal move {answer!r}")
                else:
                    self._finish_if_over()
                    played = Played(side, pos, legal)
                    return (*seen, Ruling(Verb.MOVE, decisions, self.situation(), played))
            else:
                failure = answer
            decisions = self.live.apply(failure_event(game, side, failure, self.live.time()))
            self._finish_if_over()
            return (*seen, EngineFailed(thought.engine.name, failure, move, reason, decisions,
                                        self.situation()))

    def save_pgn(self) -> Path | None:
        """Write the scoresheet (finished or interrupted) as PGN."""
        if self.pgn_path is None:
            return None
        with self.lock:
            self.pgn_path.write_text(to_pgn(self.live.game), encoding="utf-8")
        return self.pgn_path

    def _finish_if_over(self) -> None:
        if self.over:
            self.save_pgn()

    def close(self) -> None:
        """Stop engines, save the scoresheet, close the journal."""
        self.stop.set()
        for engine in self.engines.values():
            engine.close()
        self.save_pgn()
        self.live.close()
