"""``match`` against Debian's stockfish, named as the README names UCI players
(``uci:COMMAND;OPTION=VALUE``), its options applied and checked."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.acceptance.games import read_games
from tests.acceptance.test_commands import one_line
from tests.acceptance.venvs import Venv

STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
pytestmark = pytest.mark.skipif(STOCKFISH is None, reason="Debian's stockfish is not installed "
                                                          "(scripts/test.sh installs it)")


def test_match_against_stockfish_with_options(plain: Venv, cwd: Path) -> None:
    out = plain.run("match", "--pgn", "sf.pgn", "--games", "2", "--tc", "0.05+0",
                    "--engine", "uci:stockfish;Skill Level=0", cwd=cwd, timeout_s=120)
    assert out.returncode == 0, out.stdout + out.stderr
    games = read_games(cwd / "sf.pgn")
    assert len(games) == 2
    players = [(game.headers["White"], game.headers["Black"]) for game in games]
    for white, black in players:
        assert {white.split()[0], black.split()[0]} == {"Stockfish", "chessarbiter"}, players
    assert players[0][0].startswith("Stockfish") != players[1][0].startswith("Stockfish")
    audit = plain.run("check", "sf.pgn", cwd=cwd)
    assert audit.returncode == 0, audit.stdout


@pytest.mark.parametrize("engine", [
    "uci:stockfish;Skil Level=0",  # no such option
    "uci:stockfish;Skill Level=99",  # above the option's maximum (20)
    "uci:no-such-engine-anywhere",
])
def test_a_bad_engine_stops_the_match_at_once(plain: Venv, cwd: Path, engine: str) -> None:
    out = plain.run("match", "--pgn", "sf.pgn", "--games", "2", "--tc", "0.05+0",
                    "--engine", engine, cwd=cwd, timeout_s=60)
    assert out.returncode == 2, out.stdout + out.stderr
    one_line(out.stderr)
    assert "--engine" in out.stderr
    assert not (cwd / "sf.pgn").exists() or (cwd / "sf.pgn").read_text() == ""
