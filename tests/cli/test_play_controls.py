"""``play`` takes the seconds form of a time control and says the control back in words
before the first move, in the full-screen game (through a real terminal) and in the
accessible mode (a process reading its standard input)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import chessarbiter
from tests.tui.test_terminal import Terminal

SOURCE = str(Path(chessarbiter.__file__).parents[1])


@pytest.mark.parametrize(("tc", "words"), [
    ("10s+0.1s", "10 seconds + 0.1 seconds per move"),
    ("5+3", "5 minutes + 3 seconds per move"),
    ("G/30s;d2s", "30 seconds with a delay of 2 seconds per move"),
])
def test_the_accessible_game_opens_with_the_control_in_words(
    tmp_path: Path, tc: str, words: str
) -> None:
    out = subprocess.run([sys.executable, "-m", "chessarbiter.cli.main", "play", "--accessible",
                          "--white", "human", "--black", "human", "--tc", tc, "--dir", "games"],
                         cwd=tmp_path, env=os.environ | {"PYTHONPATH": SOURCE}, input="quit\n",
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.splitlines()[0] == (
        "chessarbiter, accessible mode: two people play, white and black, at this keyboard; "
        f"{words}.")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_the_full_screen_game_opens_with_the_control_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", SOURCE)  # the terminal's command runs this package
    terminal = Terminal([sys.executable, "-m", "chessarbiter.cli.main", "play", "--white",
                         "human", "--black", "human", "--ascii", "--tc", "1m+1s", "--dir",
                         str(tmp_path)], tmp_path)
    try:
        screen = terminal.wait_for("type help for the commands")
        said = " ".join(line.strip("│ ") for line in screen.splitlines())  # lines may wrap
        assert "at this keyboard; 1 minute + 1 second per move type help" in said, screen
        terminal.type("quit")
        terminal.wait_for("[exited 0]")
    finally:
        terminal.close()
