"""A game at the table: people type, engines think, the program arbitrates. The terminal's
full-screen and accessible modes (and later the server) drive this one object."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from pathlib import Path

from chessarbiter.arbiter.errors import ArbiterError
from chessarbiter.arbiter.scoresheet import to_pgn
from chessarbiter.clock.records import Side
from chessarbiter.engines.uci_client import EngineFailure
from chessarbiter.present.moves import move_words
from chessarbiter.present.wording import control_words
from chessarbiter.session.controller import Controller, Reply
from chessarbiter.session.live import LiveGame
from chessarbiter.session.players import EnginePlayer, failure_event


class Play:
    """A live game with its players: ``engines`` maps a side to the engine playing it (the
    other sides are people). Safe to call from an interface thread and an engine thread."""

    def __init__(
        self,
        live: LiveGame,
        engines: Mapping[Side, EnginePlayer],
        *,
        spoken: bool = False,
        unicode: bool = True,
        pgn_path: Path | None = None,
    ) -> None:
        self.live = live
        self.engines = dict(engines)
        self.controller = Controller(live, spoken=spoken, unicode=unicode)
        self.pgn_path = pgn_path
        self.lock = threading.RLock()
        self.stop = threading.Event()

    @property
    def over(self) -> bool:
        return self.live.game.is_over

    def humans(self) -> list[Side]:
        """The sides people play."""
        return [side for side in (Side.WHITE, Side.BLACK) if side not in self.engines]

    def human_side(self) -> Side | None:
        """The side a typed line speaks for: the person to move, else the only person."""
        people = self.humans()
        to_move = self.live.game.to_move
        if to_move in people:
            return to_move
        return people[0] if people else None

    def engine_to_move(self) -> EnginePlayer | None:
        """The engine that must move now, if any."""
        if self.over:
            return None
        return self.engines.get(self.live.game.to_move)

    def introduction(self) -> str:
        """Who plays which side, and the time control, in one sentence."""
        people = self.humans()
        control = control_words(self.live.game.setup.control)
        if len(people) == 2:
            return f"two people play, white and black, at this keyboard; {control}"
        if len(people) == 1:
            side = people[0]
            opponent = self.engines[side.opponent].name
            return f"you play {side.name.lower()} against {opponent}; {control}"
        white, black = self.engines[Side.WHITE].name, self.engines[Side.BLACK].name
        return f"{white} plays white against {black}; {control}"

    def start(self) -> list[str]:
        """Start the clocks (Art. 6.5) if the game has not started yet; a game resumed from
        its journal is announced with whose move it is and both clocks."""
        with self.lock:
            game = self.live.game
            if game.log:
                pos = game.position()
                if pos.move_stack:
                    last = pos.move_stack[-1]
                    pos.pop()
                    after = "after " + move_words(pos, last, spoken=self.controller.spoken)
                else:
                    after = "before the first move"
                return [f"game resumed {after}; {self.controller.status()}; "
                        f"{self.controller.clock_text()}"]
            return self.controller.report(self.live.start())

    def type_line(self, line: str) -> Reply:
        """A person's line: a move or a command."""
        with self.lock:
            lines = self.tick()
            reply = self.controller.handle(line, self.human_side())
            reply.lines[:0] = lines
            self._finish_if_over()
            return reply

    def tick(self) -> list[str]:
        """Look at the clocks: a fallen flag is recorded (Art. 6.8)."""
        with self.lock:
            if self.over:
                return []
            decisions = self.live.observe_flag()
            self._finish_if_over()
            return self.controller.report(decisions) if decisions else []

    def engine_move(self) -> list[str]:
        """Let the engine to move think (blocking, outside the lock) and play its move; an
        engine that fails loses as :func:`failure_event` says."""
        engine = self.engine_to_move()
        if engine is None:
            return []
        with self.lock:
            game = self.live.game
            side = game.to_move
            clocks = self.live.clocks()
            pos = game.position()
        answer = engine.think(pos, game.setup.control, clocks, self.stop)
        with self.lock:
            if self.stop.is_set() or self.over or game.to_move is not side:
                return self.tick()
            lines = self.tick()
            if self.over:
                return lines
            if isinstance(answer, str):
                pos = game.position()
                try:
                    move = pos.parse_uci(answer)
                    words = move_words(pos, move, spoken=self.controller.spoken)
                    decisions = self.live.move(side, answer)
                    lines += [words, *(self.controller.readable(str(d)) for d in decisions)]
                except (ArbiterError, ValueError) as exc:
                    said = self.controller.readable(f"{answer}: {exc}")
                    lines.append(f"{engine.name} played {said}")
                    failure = EngineFailure("illegal", f"illegal move {answer!r}")
                    self.live.apply(failure_event(game, side, failure, self.live.time()))
            else:
                lines.append(f"{engine.name} failed: {answer.kind}: {answer.detail}")
                self.live.apply(failure_event(game, side, answer, self.live.time()))
            if self.over:
                lines.append(self.controller.readable(f"game over: {game.outcome}"))
            self._finish_if_over()
            return lines

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
