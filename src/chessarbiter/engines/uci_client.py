"""External UCI engines as players: a subprocess driven over its stdin and stdout.

Every wait has a deadline. Whatever the engine does (crash, hang, write nonsense, play an
illegal move) the caller gets an :class:`EngineFailure`, never an exception, and the process
is killed: a failed engine is closed for good.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import shutil
import subprocess
import threading
import time
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import IO, Final, Literal

from chessarbiter.core.errors import IllegalMoveError, InvalidMoveError
from chessarbiter.core.moves import Move, uci
from chessarbiter.core.position import STARTING_FEN, Position
from chessarbiter.engines.uci_options import (
    DeclaredOption,
    OptionError,
    checked_settings,
    read_option,
)

FailureKind = Literal["start", "crash", "timeout", "illegal", "malformed"]

HANDSHAKE_TIMEOUT_S: Final = 10.0
GRACE_S: Final = 1.0
"""Allowed beyond the engine's clock time before it counts as hanging."""
UNTIMED_TIMEOUT_S: Final = 60.0
"""The deadline of a search given no clock and no move time."""
QUIT_WAIT_S: Final = 1.0
MAX_LINE: Final = 1 << 16
STDERR_SHOWN: Final = 300
"""Characters of a crashed engine's last stderr lines kept in its failure's detail."""
GAMES_DIR: Final = "/usr/games"
"""Where Debian installs engines such as stockfish, off many users' ``PATH``."""


@dataclass(frozen=True, slots=True)
class EngineFailure:
    """What went wrong: ``start`` (could not be started or failed the handshake),
    ``crash`` (the process ended or closed its pipes), ``timeout`` (no answer in time),
    ``illegal`` (an illegal move or none) or ``malformed`` (unreadable output)."""

    kind: FailureKind
    detail: str


@dataclass(frozen=True, slots=True)
class EngineMove:
    """The engine's move, its last ``info`` line with a score (else its last ``info`` line)
    and the seconds it took to answer."""

    move: Move
    info: str
    elapsed_s: float


@dataclass(frozen=True, slots=True)
class ClockTimes:
    """The clocks sent with ``go`` (milliseconds). Delay controls are best passed with the
    delay as increment, which UCI cannot express otherwise."""

    wtime: int
    btime: int
    winc: int = 0
    binc: int = 0
    movestogo: int | None = None

    def go_args(self) -> str:
        """The ``go`` arguments."""
        text = f"wtime {self.wtime} btime {self.btime} winc {self.winc} binc {self.binc}"
        return text + (f" movestogo {self.movestogo}" if self.movestogo else "")

    def remaining_s(self, turn: int) -> float:
        """The mover's time in seconds (never negative)."""
        return max(self.wtime if turn == 0 else self.btime, 0) / 1000


def resolve_command(command: Sequence[str]) -> list[str]:
    """``command`` with a bare program name not found on ``PATH`` looked up in
    :data:`GAMES_DIR` (unchanged when it is not there either)."""
    argv = list(command)
    if argv and os.sep not in argv[0] and shutil.which(argv[0]) is None:
        found = shutil.which(argv[0], path=GAMES_DIR)
        if found is not None:
            argv[0] = found
    return argv


def position_command(pos: Position, chess960: bool = False) -> str:
    """The ``position`` command for ``pos``: its starting position and its move stack."""
    root = pos.copy()
    moves = pos.move_stack
    for _ in moves:
        root.pop()
    fen = root.fen()
    text = "position startpos" if fen == STARTING_FEN else f"position fen {fen}"
    if moves:
        text += " moves " + " ".join(uci(m, chess960) for m in moves)
    return text


class UciEngine:
    """A running UCI engine. Build with :meth:`start`; use as a context manager or call
    :meth:`close`. ``failure`` is set once the engine has failed and is closed."""

    def __init__(self, process: subprocess.Popen[str], chess960: bool) -> None:
        self.name = ""
        self.settings: dict[str, str] = {}
        """The options set, by their declared names, with the values sent."""
        self.chess960 = chess960
        self.failure: EngineFailure | None = None
        self._process = process
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=10)
        assert process.stdout is not None and process.stderr is not None
        threading.Thread(target=self._read_stdout, args=(process.stdout,), daemon=True).start()
        self._stderr_reader = threading.Thread(
            target=self._read_stderr, args=(process.stderr,), daemon=True
        )
        self._stderr_reader.start()

    @classmethod
    def start(
        cls,
        command: Sequence[str],
        *,
        options: Mapping[str, str | int | bool] | None = None,
        chess960: bool = False,
        timeout_s: float = HANDSHAKE_TIMEOUT_S,
    ) -> UciEngine | EngineFailure:
        """Start an engine (a bare name is also looked for in :data:`GAMES_DIR`) and
        complete the handshake (``uci``/``uciok``, options, ``isready``/``readyok``) within
        ``timeout_s`` per step. Each option is checked against the engine's declaration
        (:mod:`~chessarbiter.engines.uci_options`) and set alone: a refused one is a
        ``start`` failure naming it."""
        if not command:
            return EngineFailure("start", "no engine command")
        try:
            process = subprocess.Popen(
                resolve_command(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, errors="replace", bufsize=1,
            )
        except (OSError, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            return EngineFailure("start", f"cannot run {shlex.join(command)!r}: {reason}")
        engine = cls(process, chess960)
        failure = engine._handshake(dict(options or {}), timeout_s)
        if failure is not None:
            engine.close()
            if failure.kind == "start":  # a setting refused
                return failure
            return EngineFailure("start", f"{failure.kind}: {failure.detail}")
        return engine

    @property
    def running(self) -> bool:
        """Whether the engine's process is still alive."""
        return self._process.poll() is None

    def __enter__(self) -> UciEngine:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # -- playing -----------------------------------------------------------------------------

    def new_game(self, timeout_s: float = HANDSHAKE_TIMEOUT_S) -> EngineFailure | None:
        """Tell the engine a new game starts and wait until it is ready."""
        if self.failure is None:
            self._send("ucinewgame")
        return self._sync(timeout_s)

    def play(
        self,
        pos: Position,
        clock: ClockTimes | None = None,
        *,
        movetime_ms: int | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        timeout_s: float | None = None,
    ) -> EngineMove | EngineFailure:
        """Ask for a move in ``pos`` (sent as its starting position and move stack) and
        check it is legal. Without ``timeout_s`` the deadline is the mover's clock time (or
        the move time) plus a grace period."""
        if self.failure is not None:
            return self.failure
        go = "go"
        if clock is not None:
            go += " " + clock.go_args()
        for word, value in (("movetime", movetime_ms), ("depth", depth), ("nodes", nodes)):
            if value is not None:
                go += f" {word} {value}"
        if timeout_s is None:
            if clock is not None:
                timeout_s = clock.remaining_s(pos.turn) + GRACE_S
            elif movetime_ms is not None:
                timeout_s = movetime_ms / 1000 + GRACE_S
            else:
                timeout_s = UNTIMED_TIMEOUT_S
        started = time.monotonic()
        self._send(position_command(pos, self.chess960))
        self._send(go)
        deadline = started + timeout_s
        last_info = ""
        while True:
            line = self._next_line(deadline, "bestmove")
            if isinstance(line, EngineFailure):
                return line
            words = line.split()
            if words and words[0] == "info" and (
                "score" in words or "score" not in last_info.split()
            ):
                last_info = line
            elif words and words[0] == "bestmove":
                return self._check_move(pos, words, last_info, time.monotonic() - started)

    def close(self) -> None:
        """Ask the engine to quit, kill it if it does not, and release its pipes."""
        process = self._process
        if process.poll() is None:
            self._send("quit", quiet=True)
            try:
                process.wait(QUIT_WAIT_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        if self.failure is None:
            self.failure = EngineFailure("crash", "the engine was closed")

    # -- internals ---------------------------------------------------------------------------

    def _handshake(self, options: dict[str, str | int | bool], timeout_s: float) -> (
        EngineFailure | None
    ):
        self._send("uci")
        deadline = time.monotonic() + timeout_s
        declared: dict[str, DeclaredOption] = {}
        while True:
            line = self._next_line(deadline, "uciok")
            if isinstance(line, EngineFailure):
                return line
            if line.startswith("id name "):
                self.name = line[8:].strip()
            elif (option := read_option(line)) is not None:
                declared[option.name.lower()] = option
            elif line.strip() == "uciok":
                break
        if self.chess960 and "uci_chess960" in declared:
            options.setdefault("UCI_Chess960", True)
        try:
            settings = checked_settings(declared, options)
        except OptionError as exc:
            return self._fail("start", str(exc))
        for name, value in settings.items():
            failure = self._set(name, value, declared[name.lower()].type, timeout_s)
            if failure is not None:
                return failure
            self.settings[name] = value
        return self._sync(timeout_s)

    def _set(self, name: str, value: str, kind: str, timeout_s: float) -> EngineFailure | None:
        """Send one ``setoption`` and wait for ``readyok``: an engine's answer in between
        (a line other than ``info``, or an ``info string`` naming an error, such as
        stockfish's "No such option") refuses the setting."""
        command = f"setoption name {name}" + ("" if kind == "button" else f" value {value}")
        self._send(command)
        self._send("isready")
        deadline = time.monotonic() + timeout_s
        while True:
            line = self._next_line(deadline, "readyok")
            if isinstance(line, EngineFailure):
                return line
            text = line.strip()
            if text == "readyok":
                return None
            if text and (not text.startswith("info") or (
                    text.startswith("info string") and "error" in text.lower())):
                return self._fail("start", f"answered {command!r} with {text[:200]!r}")

    def _sync(self, timeout_s: float) -> EngineFailure | None:
        if self.failure is not None:
            return self.failure
        self._send("isready")
        deadline = time.monotonic() + timeout_s
        while True:
            line = self._next_line(deadline, "readyok")
            if isinstance(line, EngineFailure):
                return line
            if line.strip() == "readyok":
                return None

    def _check_move(
        self, pos: Position, words: list[str], info: str, elapsed: float
    ) -> EngineMove | EngineFailure:
        if len(words) < 2:
            return self._fail("malformed", "'bestmove' without a move")
        text = words[1]
        if text in ("0000", "(none)"):
            return self._fail("illegal", f"bestmove {text}: no move, but the position has "
                              f"{pos.count_legal_moves()} legal moves ({pos.fen()})")
        try:
            move = pos.parse_uci(text)
        except InvalidMoveError as exc:
            return self._fail("malformed", f"bestmove {text!r}: {exc}")
        except IllegalMoveError:
            return self._fail("illegal", f"bestmove {text}: illegal in {pos.fen()}")
        return EngineMove(move, info, elapsed)

    def _next_line(self, deadline: float, waiting_for: str) -> str | EngineFailure:
        if self.failure is not None:
            return self.failure
        try:
            line = self._lines.get(timeout=max(deadline - time.monotonic(), 0))
        except queue.Empty:
            return self._fail("timeout", f"no {waiting_for!r} before the deadline")
        if line is None:
            try:
                code = self._process.wait(QUIT_WAIT_S)
            except subprocess.TimeoutExpired:  # it closed its output but lives on
                self._kill()
                code = self._process.wait()
            self._stderr_reader.join(QUIT_WAIT_S)
            tail = " | ".join(self._stderr)
            if len(tail) > STDERR_SHOWN:  # the end says most; the report stays one line
                tail = "..." + tail[-STDERR_SHOWN:]
            tail = "".join(c if c.isprintable() else " " for c in tail)
            return self._fail("crash", f"the engine exited (code {code}) while we waited for "
                              f"{waiting_for!r}" + (f"; stderr: {tail}" if tail else ""))
        return line

    def _fail(self, kind: FailureKind, detail: str) -> EngineFailure:
        name = f"{self.name}: " if self.name else ""
        failure = EngineFailure(kind, name + detail)
        self.failure = failure
        self._kill()
        return failure

    def _kill(self) -> None:
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait()

    def _send(self, line: str, quiet: bool = False) -> None:
        stdin = self._process.stdin
        try:
            assert stdin is not None
            stdin.write(line + "\n")
            stdin.flush()
        except (OSError, ValueError):  # a closed pipe: the crash shows when reading
            if not quiet and self.failure is None:
                self._kill()

    def _read_stdout(self, stream: IO[str]) -> None:
        try:
            while line := stream.readline(MAX_LINE):
                self._lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def _read_stderr(self, stream: IO[str]) -> None:
        try:
            while line := stream.readline(MAX_LINE):
                self._stderr.append(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
