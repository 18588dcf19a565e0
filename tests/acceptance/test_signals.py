"""Ctrl-C (SIGINT, the key or the signal) and SIGTERM to every long-running command: exit
code 130 or 143 (128 + the signal), the files the README promises written, and no process
left behind (read from ``/proc``: the processes of the command's session, or of the
terminal's)."""

from __future__ import annotations

import os
import re
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.acceptance.games import agree, read_games, stored_games
from tests.acceptance.processes import Running, cpu_s, no_orphans, wait_until
from tests.acceptance.terminal import Terminal
from tests.acceptance.test_commands import answering, free_port
from tests.acceptance.venvs import Venv

SIGNALS = [pytest.param(signal.SIGINT, id="SIGINT"), pytest.param(signal.SIGTERM, id="SIGTERM")]


def code_for(signum: int) -> int:
    """The exit code of a command stopped by ``signum``: 130 for Ctrl-C, 143 for SIGTERM."""
    return 128 + signum


def stopped_line(command: str, signum: int) -> str:
    """The one line a command stopped by ``signum`` says on stderr."""
    return f"chessarbiter {command}: " + ("interrupted" if signum == signal.SIGINT
                                          else "terminated")


@pytest.fixture
def running() -> Iterator[list[Running]]:
    """Commands started by a test, killed at its end whatever happened."""
    started: list[Running] = []
    yield started
    for command in started:
        command.close()


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM", "the Ctrl-C key"])
@pytest.mark.parametrize("mode", ["full-screen", "--accessible"])
def test_play(plain: Venv, cwd: Path, mode: str, how: str) -> None:
    accessible = mode == "--accessible"
    command = [str(plain.command), "play", *(["--accessible"] if accessible else [])]
    terminal = Terminal(command, cwd, plain.env())
    try:
        if accessible:
            terminal.wait_for("(?m)^white> ")
            terminal.type("e4")
            terminal.wait_for("(?m)^white: pawn e4")
        else:
            terminal.wait_for("type help")
            terminal.type("e4", echo=re.escape("▊  e4"))
            terminal.wait_for(r"1\. e4")
        program = terminal.program_process()
        if how == "the Ctrl-C key":
            terminal.keys("C-c")
        else:
            os.kill(program.pid, getattr(signal, how))
        code = terminal.exit_code(timeout_s=20)
        screen = terminal.screen()
        no_orphans(terminal.left_behind, "play")
    finally:
        terminal.close()
    assert code == (143 if how == "SIGTERM" else 130)
    signum = signal.SIGTERM if how == "SIGTERM" else signal.SIGINT
    assert "game saved to games/games-1.pgn" in screen and stopped_line("play", signum) in screen
    assert "Traceback" not in screen, screen
    game, kept = agree(cwd / "games" / "games-1.pgn", cwd / "games" / "games.sqlite")
    assert kept.moves[:1] == ["e2e4"] and game.headers["Result"] == "*"


@pytest.mark.parametrize("signum", SIGNALS)
def test_match(plain: Venv, cwd: Path, running: list[Running], signum: int) -> None:
    match = Running([str(plain.command), "match", "--pgn", "m.pgn", "--games", "6", "--tc",
                     "0.02+0", "--concurrency", "2"], cwd, plain.env())
    running.append(match)
    pgn = cwd / "m.pgn"
    wait_until(lambda: pgn.is_file() and "[Result" in pgn.read_text(), "a first game finished")
    assert match.process.poll() is None, "the match ended before it was interrupted"
    assert match.stop(signum) == code_for(signum), match.stderr
    assert match.stderr.strip().splitlines()[-1] == stopped_line("match", signum), match.stderr
    assert "Traceback" not in match.stderr, match.stderr
    games = read_games(pgn)
    assert 1 <= len(games) < 6
    assert all(game.headers["Result"] != "*" for game in games)
    finished = [game for game in stored_games(cwd / "games.sqlite") if game.outcome is not None]
    assert len(finished) == len(games), "every finished game is in the PGN and the store"


@pytest.mark.parametrize("signum", SIGNALS)
def test_serve(plain: Venv, cwd: Path, running: list[Running], signum: int) -> None:
    port = free_port()
    server = Running([str(plain.command), "serve", "--port", str(port)], cwd, plain.env())
    running.append(server)
    server.wait_for(f"http://127.0.0.1:{port}/")
    answering(server, f"http://127.0.0.1:{port}/")
    assert server.stop(signum) == code_for(signum), server.stderr
    assert server.stderr.strip().splitlines() == [stopped_line("serve", signum)], server.stderr
    assert "Traceback" not in server.stderr, server.stderr
    assert (cwd / "games.sqlite").is_file()


@pytest.mark.parametrize("signum", SIGNALS)
def test_perft(plain: Venv, cwd: Path, running: list[Running], signum: int) -> None:
    perft = Running([str(plain.command), "perft", "startpos", "7"], cwd, plain.env())
    running.append(perft)
    wait_until(lambda: cpu_s(perft.pid) >= 1.0, "perft counting for a second of CPU")
    assert perft.stop(signum) == code_for(signum), perft.stderr
    assert perft.stderr.strip().splitlines() == [stopped_line("perft", signum)], perft.stderr
    assert "3195901860" not in perft.stdout
    assert "Traceback" not in perft.stderr, perft.stderr


@pytest.mark.parametrize("signum", SIGNALS)
def test_uci(plain: Venv, cwd: Path, running: list[Running], signum: int) -> None:
    engine = Running([str(plain.command), "uci"], cwd, plain.env(), stdin=True)
    running.append(engine)
    engine.send("uci")
    engine.wait_for("uciok")
    engine.send("go infinite")
    engine.wait_for("info depth")
    assert engine.stop(signum) == code_for(signum), engine.stderr
    assert engine.stderr.strip().splitlines()[-1:] == [stopped_line("uci", signum)], engine.stderr
    assert "Traceback" not in engine.stderr, engine.stderr
