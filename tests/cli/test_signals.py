"""Signals to the long-running commands, sent as users send them: SIGINT (Ctrl-C) stops a
command with exit code 130, SIGTERM with 143; what was done so far is written and no process
of the command's is left behind. The Ctrl-C *key* in a real terminal is tested through tmux.

The default run has here what the acceptance suite (``tests/acceptance/test_signals.py``,
the installed command) does not: matches whose workers run external engines. The same
stops of ``perft``, ``serve`` and ``play`` from the sources are in the long run
(:data:`COVERED`).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from chessarbiter.core.perft import perft
from chessarbiter.core.position import Position
from chessarbiter.notation.pgn_reader import read_pgn_text
from tests.tui.test_terminal import Terminal as Tmux

WAIT_S = 30.0
"""The bound on every wait for something to show (it shows in well under a second unless
the machine is very busy)."""
STOP_S = 10.0
"""A signalled command must have ended within this (it takes a fraction of a second)."""
COVERED = pytest.mark.long
"""A stop the acceptance suite tests in the default run, on the installed command."""
CODES: dict[int, int] = {signal.SIGINT: 130, signal.SIGTERM: 143}
WORDS: dict[int, str] = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated"}


def poll(what: str, ready: Callable[[], bool], timeout_s: float = WAIT_S) -> None:
    """Wait until ``ready()`` holds (a bounded deadline: an observable, not a clock)."""
    deadline = time.monotonic() + timeout_s
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.05)


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name (state is [0], ppid [1],
    session [3], utime [11], stime [12]); ``None`` once the process is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return text[text.rindex(")") + 2:].split()


def in_session(sid: int) -> list[int]:
    """The live processes of session ``sid`` (the command's and all it started)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None and fields[3] == str(sid) and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def children(pid: int, sid: int) -> list[int]:
    """The live children of ``pid`` in session ``sid``."""
    return [p for p in in_session(sid) if (f := _stat(p)) is not None and f[1] == str(pid)]


def cpu_s(pid: int) -> float:
    fields = _stat(pid)
    assert fields is not None, f"process {pid} is gone"
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def catches(pid: int, signum: int) -> bool:
    """Whether the process has a handler for ``signum`` (``SigCgt`` of its status)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) >> (signum - 1) & 1)
    return False


def _as_a_shell() -> None:
    """Ctrl-C as a shell leaves it to a command it starts, even if ours ignores it (as a
    background job does)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Command:
    """``chessarbiter ARGS`` as a process of its own session (so everything it starts can be
    found), its output collected as it comes."""

    def __init__(self, *args: str, cwd: Path, stdin: bool = False) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "chessarbiter.cli.main", *args], cwd=cwd,
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, start_new_session=True, preexec_fn=_as_a_shell,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
        self.out: list[str] = []
        self.err: list[str] = []
        self.readers = [threading.Thread(target=self._read, args=(stream, into), daemon=True)
                        for stream, into in ((self.process.stdout, self.out),
                                             (self.process.stderr, self.err))]
        for reader in self.readers:
            reader.start()

    @staticmethod
    def _read(stream: object, into: list[str]) -> None:
        assert hasattr(stream, "read")
        while chunk := stream.read(1):
            into.append(chunk)

    @property
    def pid(self) -> int:
        return self.process.pid

    def wait_for(self, text: str, *, err: bool = False) -> None:
        poll(f"{text!r} in the output", lambda: text in "".join(self.err if err else self.out))

    def stop(self, signum: int) -> tuple[int, str, str]:
        """Send ``signum``; the exit code, stdout and stderr once it has ended, and nothing
        of its session left."""
        os.kill(self.pid, signum)
        try:
            code = self.process.wait(STOP_S)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"still running {STOP_S} s after signal {signum}") from None
        poll("every process the command started has ended", lambda: not in_session(self.pid),
             STOP_S)
        for reader in self.readers:
            reader.join(STOP_S)
        return code, "".join(self.out), "".join(self.err)

    def kill(self) -> None:
        for pid in in_session(self.pid):
            os.kill(pid, signal.SIGKILL)
        self.process.wait()


@pytest.fixture
def commands() -> Iterator[list[Command]]:
    started: list[Command] = []
    yield started
    for command in started:
        if command.process.poll() is None or in_session(command.pid):
            command.kill()


# -- perft ------------------------------------------------------------------------------------


@COVERED
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_perft_stops_while_counting(signum: int, tmp_path: Path,
                                    commands: list[Command]) -> None:
    command = Command("perft", "startpos", "8", cwd=tmp_path)
    commands.append(command)
    poll("Python has started", lambda: catches(command.pid, signal.SIGINT))
    started = cpu_s(command.pid)  # the command starts in a fraction of this, then counts:
    poll("perft has counted for a while", lambda: cpu_s(command.pid) > started + 0.6)
    code, out, err = command.stop(signum)
    assert code == CODES[signum], err
    assert err.strip().splitlines() == [f"chessarbiter perft: {WORDS[signum]}"]
    assert out == ""  # no count: the count was not finished



def test_the_count_calls_back_before_each_deep_subtree() -> None:
    """The call a compiled count makes into the interpreter, where signals are handled:
    before the root and each of its 20 subtrees of 3 plies (not below), the count unchanged."""
    calls: list[None] = []
    assert perft(Position(), 4, every=lambda: calls.append(None)) == 197_281
    assert len(calls) == 1 + 20

class Terminal(Tmux):
    """A tmux session running one command (through a shell, its session's leader)."""

    def shell(self) -> int:
        return int(subprocess.run(["tmux", "list-panes", "-t", self.name, "-F", "#{pane_pid}"],
                                  capture_output=True, text=True, check=True).stdout)

    def session(self) -> int:
        fields = _stat(self.shell())
        assert fields is not None
        return int(fields[3])


TMUX = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


# -- match ------------------------------------------------------------------------------------


STOCKFISH = pytest.mark.skipif(
    shutil.which("stockfish", path="/usr/games:" + os.environ.get("PATH", "")) is None,
    reason="Debian's stockfish is not installed")


@STOCKFISH
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_match_stops_every_worker_and_engine(signum: int, tmp_path: Path,
                                             commands: list[Command]) -> None:
    pgn = tmp_path / "m.pgn"
    command = Command("match", "--games", "8", "--concurrency", "2", "--tc", "0.01+0",
                      "--engine", "stockfish", "--engine", "engine:1", "--pgn", str(pgn),
                      cwd=tmp_path)
    commands.append(command)
    command.wait_for("game 1/8", err=True)  # a game is written; the next ones are under way
    workers = children(command.pid, command.pid)
    assert len(workers) == 2
    poll("each worker runs its stockfish",
         lambda: all(children(w, command.pid) for w in workers))
    code, _, err = command.stop(signum)
    assert code == CODES[signum], err
    assert err.strip().splitlines()[-1] == f"chessarbiter match: {WORDS[signum]}"
    games = read_pgn_text(pgn.read_text(encoding="utf-8"), strict=True)
    assert 1 <= len(games) < 8
    assert all(game.error is None and game.result != "*" for game in games)



@STOCKFISH
def test_a_tournament_stops_every_worker_and_engine(tmp_path: Path,
                                                   commands: list[Command]) -> None:
    pgn = tmp_path / "t.pgn"
    engines = [arg for spec in ("stockfish", "engine:1") * 2 for arg in ("--engine", spec)]
    command = Command("match", "--tournament", "roundrobin", *engines, "--concurrency", "2",
                      "--tc", "0.01+0", "--pgn", str(pgn), cwd=tmp_path)
    commands.append(command)
    command.wait_for("1 games played", err=True)

    def engines_playing() -> bool:
        return any(children(worker, command.pid)
                   for worker in children(command.pid, command.pid))

    poll("a worker runs its stockfish", engines_playing)
    code, _, err = command.stop(signal.SIGTERM)
    assert code == 143, err
    assert err.strip().splitlines()[-1] == "chessarbiter match: terminated"
    games = read_pgn_text(pgn.read_text(encoding="utf-8"), strict=True)
    assert 1 <= len(games) < 12
    assert all(game.error is None and game.result != "*" for game in games)


def alive(pid: int) -> bool:
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


@STOCKFISH
@TMUX
def test_the_ctrl_c_key_stops_a_match_and_all_it_started(tmp_path: Path) -> None:
    """The key sends SIGINT to every process of the terminal's job, workers and engines
    too: the match stops them in order, none is killed in the middle of writing."""
    pgn = tmp_path / "m.pgn"
    terminal = Terminal([sys.executable, "-m", "chessarbiter.cli.main", "match", "--games",
                         "40", "--concurrency", "2", "--tc", "0.01+0", "--engine", "stockfish",
                         "--engine", "engine:1", "--pgn", str(pgn)], tmp_path)
    try:
        terminal.wait_for("/40: ")  # a game is written (the line shows the latest)
        match, = children(terminal.shell(), terminal.session())
        started: list[int] = []

        def engines_playing() -> bool:
            started[:] = [p for w in children(match, terminal.session())
                          for p in (w, *children(w, terminal.session()))]
            return len(started) == 4  # two workers, each with its stockfish

        poll("each worker runs its stockfish", engines_playing)
        subprocess.run(["tmux", "send-keys", "-t", terminal.name, "C-c"], check=True)
        screen = terminal.wait_for("[exited 130]")
    finally:
        terminal.close()
    assert "chessarbiter match: interrupted" in screen
    poll("every worker and engine has ended", lambda: not any(map(alive, started)), STOP_S)
    games = read_pgn_text(pgn.read_text(encoding="utf-8"), strict=True)
    assert games and all(game.error is None and game.result != "*" for game in games)

# -- serve ------------------------------------------------------------------------------------


@COVERED
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_serve_stops(signum: int, tmp_path: Path, commands: list[Command]) -> None:
    command = Command("serve", "--port", "0", "--db", str(tmp_path / "games.sqlite"),
                      cwd=tmp_path)
    commands.append(command)
    command.wait_for("chessarbiter serving on")
    code, _, err = command.stop(signum)
    assert code == CODES[signum], err
    assert err.strip().splitlines() == [f"chessarbiter serve: {WORDS[signum]}"]


# -- play -------------------------------------------------------------------------------------


def saved_moves(folder: Path) -> list[str]:
    """The moves of the one PGN saved in ``folder``, an unfinished game."""
    pgns = list(folder.glob("*.pgn"))
    assert len(pgns) == 1, pgns
    game, = read_pgn_text(pgns[0].read_text(encoding="utf-8"), strict=True)
    assert game.error is None and game.result == "*"
    return [record.san for record in game.moves]


@COVERED
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_accessible_play_saves_and_stops(signum: int, tmp_path: Path,
                                         commands: list[Command]) -> None:
    command = Command("play", "--accessible", "--white", "human", "--black", "human",
                      "--dir", str(tmp_path), cwd=tmp_path, stdin=True)
    commands.append(command)
    command.wait_for("white> ")
    assert command.process.stdin is not None
    command.process.stdin.write("e4\n")
    command.process.stdin.flush()
    command.wait_for("black> ")
    code, out, err = command.stop(signum)
    assert code == CODES[signum], err
    assert err.strip().splitlines() == [f"chessarbiter play: {WORDS[signum]}"]
    assert "game saved to" in out
    assert saved_moves(tmp_path) == ["e4"]




@contextmanager
def full_screen(tmp_path: Path) -> Iterator[Terminal]:
    terminal = Terminal([sys.executable, "-m", "chessarbiter.cli.main", "play", "--white",
                         "human", "--black", "human", "--ascii", "--dir", str(tmp_path)],
                        tmp_path)
    try:
        terminal.wait_for("type help")
        terminal.type("e4")
        terminal.wait_for("1. e4")
        yield terminal
    finally:
        terminal.close()


@COVERED
@TMUX
def test_the_ctrl_c_key_saves_and_stops_the_full_screen_game(tmp_path: Path) -> None:
    with full_screen(tmp_path) as terminal:
        subprocess.run(["tmux", "send-keys", "-t", terminal.name, "C-c"], check=True)
        screen = terminal.wait_for("[exited 130]")
    assert "game saved to" in screen and "chessarbiter play: interrupted" in screen
    assert saved_moves(tmp_path) == ["e4"]


@COVERED
@TMUX
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_saves_and_stops_the_full_screen_game(signum: int, tmp_path: Path) -> None:
    with full_screen(tmp_path) as terminal:
        game, = children(terminal.shell(), terminal.session())
        os.kill(game, signum)
        screen = terminal.wait_for(f"[exited {CODES[signum]}]")
    assert "game saved to" in screen and f"chessarbiter play: {WORDS[signum]}" in screen
    assert saved_moves(tmp_path) == ["e4"]
