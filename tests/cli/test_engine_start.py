"""Engines that cannot start or fail the UCI handshake are refused before the first game or
move: one stderr line, exit code 2, no games played."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.cli.test_bad_input import run

FAKE = Path(__file__).resolve().parents[1] / "engines" / "fake_engine.py"
BAD = [
    ("/nonexistent", "cannot run '/nonexistent': No such file or directory"),
    ("no-such-engine-here", "cannot run 'no-such-engine-here': No such file or directory"),
    ("ls -la", "the engine exited (code 0) while we waited for 'uciok'"),
    (f"{sys.executable} {FAKE} crash_on_start", "the engine exited (code 1)"),
    (f"{sys.executable} -c \"exit(__import__('sys').stderr.write('x\\ay' * 5000) and 4)\"",
     "the engine exited (code 4) while we waited for 'uciok'; stderr: ...x yx y"),
]


@pytest.mark.parametrize(("command", "reason"), BAD)
def test_match_refuses_an_engine_that_does_not_start(
    tmp_path: Path, command: str, reason: str
) -> None:
    err = run(tmp_path, "match", "--games", "2", "--tc", "0.1+0", "--pgn", "m.pgn",
              "--engine", command)
    assert err.startswith(f"chessarbiter match: error: --engine: uci:{command}: ")
    assert reason in err and len(err) < 700 and "\a" not in err
    assert not (tmp_path / "m.pgn").exists()


@pytest.mark.parametrize(("command", "reason"), BAD[:3])
def test_play_refuses_an_engine_that_does_not_start(
    tmp_path: Path, command: str, reason: str
) -> None:
    err = run(tmp_path, "play", "--white", "engine:1", "--black", f"uci:{command}",
              "--dir", "games")
    assert err.startswith("chessarbiter play: error: --black: ") and reason in err
    assert not (tmp_path / "games").exists()  # refused before the journal was made
