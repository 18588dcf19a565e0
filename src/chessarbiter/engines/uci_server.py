"""Our engine speaking UCI: one command line in, zero or more lines out.

The search runs in a thread so that ``stop``, ``ponderhit``, ``isready`` and ``quit`` are
answered while it thinks. A malformed or unknown command is answered with
``info string error: ...`` and otherwise ignored.

In a game (``go`` with a clock or ``movetime``) the engine answers a book move at once
while ``OwnBook`` is on (the default) and the opening book has one; an analysis (``go``
with ``depth``, ``nodes``, ``mate`` or ``infinite`` alone) always searches.

``go ponder`` searches without a time limit until ``ponderhit`` (then the search goes on
as a normal ``go`` with the same parameters, its time counted from the hit) or ``stop``
(then ``bestmove`` at once), as the UCI protocol describes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import ClassVar

from chessarbiter.clock.clock import monotonic_ms
from chessarbiter.clock.controls import BonusMode
from chessarbiter.core.moves import Move, uci
from chessarbiter.core.position import Position
from chessarbiter.engines.builtin import MAX_LEVEL, MIN_LEVEL, BuiltinEngine
from chessarbiter.engines.search import Limits, SearchInfo
from chessarbiter.engines.timeman import MOVE_OVERHEAD_MS, Budget, Timekeeper
from chessarbiter.engines.tt import entries_for_megabytes
from chessarbiter.engines.uci_protocol import (
    Go,
    UciError,
    format_info,
    parse_go,
    parse_position,
)

ENGINE_NAME = "chessarbiter"
ENGINE_AUTHOR = "the chessarbiter authors"
DEFAULT_HASH_MB = 48
MAX_MULTIPV = 256
_SPIN_OPTIONS = {
    "skill level": (MIN_LEVEL, MAX_LEVEL),
    "level": (MIN_LEVEL, MAX_LEVEL),
    "hash": (1, 1024),
    "move overhead": (0, 5000),
    "multipv": (1, MAX_MULTIPV),
}
_CHECK_OPTIONS = ("uci_chess960", "ponder", "ownbook")


def think_budget(go: Go, turn: int, keeper: Timekeeper, move_number: int) -> Budget | None:
    """The time budget a ``go`` command allows (``None``: no time limit): ``movetime``
    less the Move Overhead, or the clock's budget from the game's ``keeper`` for the
    engine's move ``move_number`` (its moves made since the game's start: the position's
    fullmove number less one, right whether the game came from its start or a FEN)."""
    if go.movetime is not None:
        spend = max(go.movetime - keeper.floor_ms, 1)
        return Budget(spend, spend)
    remaining = go.wtime if turn == 0 else go.btime
    if remaining is None:
        return None
    inc = go.winc if turn == 0 else go.binc
    mode = BonusMode.INCREMENT if inc > 0 else BonusMode.NONE
    return keeper.budget(remaining, mode, inc, go.movestogo, move_number=move_number)


class UciServer:
    """The UCI state machine. ``write`` receives each output line (without newline);
    :meth:`handle` takes one input line and returns ``False`` after ``quit``."""

    def __init__(
        self, write: Callable[[str], None], now: Callable[[], int] = monotonic_ms
    ) -> None:
        self._write_line = write
        self._write_lock = threading.Lock()
        self._now = now
        self.engine = BuiltinEngine(now=now, tt_entries=entries_for_megabytes(DEFAULT_HASH_MB))
        self.chess960 = False
        self.keeper = Timekeeper(MOVE_OVERHEAD_MS, now)
        self.multipv = 1
        self.position = Position()
        self.history: list[int] = []
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._searching = False
        self._ponder: tuple[Go, Position, list[int]] | None = None
        self._ponder_hit = False

    # -- the loop ----------------------------------------------------------------------------

    def run(self, lines: Iterable[str]) -> None:
        """Handle lines until ``quit`` or the end of input (then any search is stopped)."""
        for line in lines:
            if not self.handle(line):
                return
        self.stop()

    def handle(self, line: str) -> bool:
        """Handle one command line; ``False`` once the engine should exit."""
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        if command == "quit":
            self.stop()
            return False
        handler = self._handlers.get(command)
        if handler is None:
            self._error(f"unknown command {command!r}")
            return True
        try:
            handler(self, args)
        except UciError as exc:
            self._error(str(exc))
        return True

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the running search to end; ``True`` if none runs any more."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
            return not thread.is_alive()
        return True

    def stop(self) -> None:
        """End the running search (its ``bestmove`` is sent) and wait for it."""
        self._stop.set()
        self.wait()

    @property
    def searching(self) -> bool:
        """Whether a search runs (until its ``bestmove`` is sent)."""
        return self._searching

    # -- commands ----------------------------------------------------------------------------

    def _uci(self, args: list[str]) -> None:
        self._send(f"id name {ENGINE_NAME}")
        self._send(f"id author {ENGINE_AUTHOR}")
        self._send(f"option name Skill Level type spin default {MAX_LEVEL} "
                   f"min {MIN_LEVEL} max {MAX_LEVEL}")
        self._send(f"option name Hash type spin default {DEFAULT_HASH_MB} min 1 max 1024")
        self._send(f"option name Move Overhead type spin default {MOVE_OVERHEAD_MS} "
                   "min 0 max 5000")
        self._send(f"option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}")
        self._send("option name OwnBook type check default true")
        self._send("option name Ponder type check default false")
        self._send("option name UCI_Chess960 type check default false")
        self._send("uciok")

    def _isready(self, args: list[str]) -> None:
        self._send("readyok")

    def _debug(self, args: list[str]) -> None:
        if args not in (["on"], ["off"]):
            raise UciError("debug: expected 'on' or 'off'")

    def _ucinewgame(self, args: list[str]) -> None:
        self._refuse_while_searching("ucinewgame")
        self.engine.new_game()
        self.keeper = Timekeeper(self.keeper.floor_ms, self._now)
        self.position, self.history = Position(), []

    def _position(self, args: list[str]) -> None:
        self.position, self.history = parse_position(args, self.chess960)

    def _setoption(self, args: list[str]) -> None:
        self._refuse_while_searching("setoption")
        text = " ".join(args)
        if not text.startswith("name ") or " value " not in text:
            raise UciError("setoption: expected 'setoption name <id> value <x>'")
        name, value = text[5:].split(" value ", 1)
        name, value = name.strip().lower(), value.strip()
        if name in _CHECK_OPTIONS:
            if value not in ("true", "false"):
                raise UciError(f"setoption {name}: {value!r}: expected true or false")
            if name == "uci_chess960":
                self.chess960 = value == "true"
            elif name == "ownbook":
                self.engine.own_book = value == "true"
            return  # Ponder only tells whether the GUI will send `go ponder`
        if name not in _SPIN_OPTIONS:
            raise UciError(f"setoption: unknown option {name!r}")
        low, high = _SPIN_OPTIONS[name]
        try:
            number = int(value)
        except ValueError:
            raise UciError(f"setoption {name}: {value!r}: expected an integer") from None
        if not low <= number <= high:
            raise UciError(f"setoption {name}: {number}: expected {low} to {high}")
        if name in ("skill level", "level"):
            self.engine.level = number
        elif name == "multipv":
            self.multipv = number
        elif name == "hash":
            self.engine.searcher.tt.max_entries = entries_for_megabytes(number)
            self.engine.searcher.tt.clear()
        else:
            self.keeper.floor_ms = number

    def _go(self, args: list[str]) -> None:
        self._refuse_while_searching("go")
        go = parse_go(args)
        pos, history = self.position.copy(), list(self.history)
        self._ponder = (go, pos, history) if go.ponder else None
        self._start(go, pos, history)

    def _stop_command(self, args: list[str]) -> None:
        self._ponder = None
        self.stop()

    def _ponderhit(self, args: list[str]) -> None:
        if self._ponder is None or not self.searching:
            raise UciError("ponderhit: no `go ponder` search runs")
        go, pos, history = self._ponder
        self._ponder, self._ponder_hit = None, True
        self._stop.set()
        self.wait()  # the ponder search ends without `bestmove`
        self._ponder_hit = False
        self._start(replace(go, ponder=False), pos, history)

    _handlers: ClassVar[dict[str, Callable[[UciServer, list[str]], None]]] = {
        "uci": _uci,
        "isready": _isready,
        "debug": _debug,
        "ucinewgame": _ucinewgame,
        "position": _position,
        "setoption": _setoption,
        "go": _go,
        "stop": _stop_command,
        "ponderhit": _ponderhit,
    }

    # -- helpers -----------------------------------------------------------------------------

    def _start(self, go: Go, pos: Position, history: list[int]) -> None:
        """Search in a thread as ``go`` asks (pondering: with no time limit)."""
        limits = Limits(depth=2 * go.mate if go.mate is not None else go.depth, nodes=go.nodes)
        time_budget = None if go.ponder else think_budget(go, pos.turn, self.keeper,
                                                          pos.fullmove_number - 1)
        # An analysis (depth, nodes, mate, infinite) goes as far as asked at any level;
        # a game's clock or move time keeps the level's caps.
        analysis = go.infinite or (go.movetime is None and go.wtime is None and go.btime is None
                                   and (go.depth, go.nodes, go.mate) != (None, None, None))
        self._stop = threading.Event()
        self._searching = True
        self._thread = threading.Thread(
            target=self._think,
            args=(pos.copy(), list(history), limits, time_budget, go.infinite or go.ponder,
                  not analysis),
            daemon=True,
        )
        self._thread.start()

    def _think(
        self,
        pos: Position,
        history: list[int],
        limits: Limits,
        time_budget: Budget | None,
        wait_for_stop: bool,
        level_caps: bool,
    ) -> None:
        def on_info(info: SearchInfo) -> None:
            self._send(format_info(info, self.chess960))

        pv: tuple[Move, ...] = ()
        clock = self.engine.searcher.now
        began = clock()
        try:
            result = self.engine.choose(pos, budget=time_budget, limits=limits,
                                        history=history, stop=self._stop, on_info=on_info,
                                        multipv=self.multipv, level_caps=level_caps)
            move, pv = result.move, result.pv
            elapsed = clock() - began  # the whole search, cut short or not (or none at all)
            nps = result.nodes * 1000 // elapsed if elapsed > 0 else 0
            self._send(f"info nodes {result.nodes} nps {nps} time {elapsed}")
        except Exception as exc:  # a bug must not leave the GUI waiting for bestmove
            self._error(f"search failed: {exc!r}")
            legal = pos.legal_moves()
            move = legal[0] if legal else None
        if wait_for_stop:
            self._stop.wait()
        if self._ponder_hit:
            return  # `ponderhit` goes on with a normal search
        if time_budget is not None:
            self.keeper.moved()
        answer = "0000" if move is None else uci(move, self.chess960)
        if move is not None and len(pv) >= 2 and pv[0] == move:
            answer += f" ponder {uci(pv[1], self.chess960)}"
        with self._write_lock:  # the next `go` may come as soon as `bestmove` is out
            self._searching = False
            self._write_line(f"bestmove {answer}")

    def _refuse_while_searching(self, command: str) -> None:
        if self.searching:
            raise UciError(f"{command}: not allowed while searching (send stop first)")

    def _error(self, message: str) -> None:
        self._send(f"info string error: {message}")

    def _send(self, line: str) -> None:
        with self._write_lock:
            self._write_line(line)
