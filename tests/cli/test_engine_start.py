"""Engines that cannot start, fail the UCI handshake or are given a setting they do not
declare or allow are refused before the first game or move: one stderr line, exit code 2,
no games played. Engines as ``match`` takes them (the spec ``play`` takes), named with their
settings; the control shown back in words; games in parallel up to the cores."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import chessarbiter
from chessarbiter.notation.pgn_reader import read_pgn_text
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


def _match(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``chessarbiter match --pgn m.pgn ARGS`` in ``tmp_path`` to its end (exit 0)."""
    source = str(Path(chessarbiter.__file__).parents[1])
    out = subprocess.run([sys.executable, "-m", "chessarbiter.cli.main", "match", "--pgn",
                          "m.pgn", *args], cwd=tmp_path, env=os.environ | {"PYTHONPATH": source},
                         capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr[-2000:]
    return out


FAKE_CMD = f"{sys.executable} {FAKE}"
STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
NO_STOCKFISH = "stockfish is not installed (Debian: apt-get install stockfish)"


def test_match_takes_engines_as_play_does_and_names_them_with_their_settings(
    tmp_path: Path,
) -> None:
    out = _match(tmp_path, "--games", "2", "--tc", "10s+0.1s",
                 "--engine", f"uci:{FAKE_CMD} good;Skill Level=3",
                 "--engine", f"{FAKE_CMD} good;style=risky;Threads=2")
    first, second = "Fake good (Skill Level=3)", "Fake good (Style=Risky)"
    assert out.stdout.startswith(f"{first} vs {second}: +0 -0 =2"), out.stdout
    assert out.stderr.startswith(f"{first} vs {second}: 2 games, 10 seconds + 0.1 seconds "
                                 "per move, ")
    games = read_pgn_text((tmp_path / "m.pgn").read_text())
    assert sorted((g.tags["White"], g.tags["Black"]) for g in games) == [
        (first, second), (second, first)]
    assert {g.tags["TimeControl"] for g in games} == {"10+0.1"}


@pytest.mark.parametrize(("tc", "words", "tag"), [
    ("tc=10+0.1", "10 seconds + 0.1 seconds per move", "10+0.1"),
    ("tc=40/1:00+0.5", "40 moves in 1 minute + 0.5 seconds per move, repeated", "40/60+0.5"),
    ("0.2+0.1", "12 seconds + 0.1 seconds per move", "12+0.1"),
])
def test_match_reads_cutechess_controls_in_seconds_and_says_them(
    tmp_path: Path, tc: str, words: str, tag: str
) -> None:
    out = _match(tmp_path, "--games", "1", "--tc", tc, "--engine", f"{FAKE_CMD} good",
                 "--engine", f"{FAKE_CMD} good")
    assert f": 1 games, {words}, " in out.stderr.splitlines()[0]
    assert f'[TimeControl "{tag}"]' in (tmp_path / "m.pgn").read_text()


@pytest.mark.parametrize(("tc", "reason"), [
    ("tc=10s+0.1", "--tc: '10s+0.1' at 0: '10s': expected seconds (digits)"),
    ("tc=0+0", "--tc: '0+0': no time for the first move"),
    ("10x+0.1", "--tc: '10x+0.1' at 0: '10x': expected time (digits, a unit s, m or h"),
])
def test_match_names_a_bad_control(tmp_path: Path, tc: str, reason: str) -> None:
    err = run(tmp_path, "match", "--games", "1", "--tc", tc, "--pgn", "m.pgn")
    assert err.startswith(f"chessarbiter match: error: {reason}"), err


def test_match_runs_games_in_parallel_up_to_the_cores_by_default(tmp_path: Path) -> None:
    out = _match(tmp_path, "--games", "2", "--tc", "tc=5+0.1", "--engine", f"{FAKE_CMD} good",
                 "--engine", f"{FAKE_CMD} good")
    assert out.stderr.splitlines()[0].endswith(f", {min(os.cpu_count() or 1, 2)} at a time")
    source = str(Path(chessarbiter.__file__).parents[1])
    usage = subprocess.run([sys.executable, "-m", "chessarbiter.cli.main", "match", "--help"],
                           env=os.environ | {"PYTHONPATH": source, "COLUMNS": "200"},
                           capture_output=True, text=True, timeout=60).stdout
    assert f"(default and most: the cores, {os.cpu_count()};" in usage


OPTION_REFUSALS = [
    ("good;Skil Level=3", "Fake good: no option 'Skil Level' (did you mean 'Skill Level'?)"),
    ("good;Skill Level=21", "Fake good: option 'Skill Level' = 21: outside its range, from 0 "
                            "to 20"),
    ("good;Style=Wild", "Fake good: option 'Style' = 'Wild': expected one of Solid, Normal, "
                        "Risky"),
    ("nosuch;Skill Level=3", "Fake nosuch: answered 'setoption name Skill Level value 3' with "
                             "'No such option: Skill Level'"),
]


@pytest.mark.parametrize(("setting", "reason"), OPTION_REFUSALS)
def test_match_refuses_a_setting_the_engine_does_not_allow(
    tmp_path: Path, setting: str, reason: str
) -> None:
    spec = f"uci:{FAKE_CMD} {setting}"
    err = run(tmp_path, "match", "--games", "2", "--pgn", "m.pgn", "--engine", spec)
    assert err == f"chessarbiter match: error: --engine: {spec}: {reason}\n"
    assert not (tmp_path / "m.pgn").exists()


@pytest.mark.parametrize(("setting", "reason"), OPTION_REFUSALS[:1])
def test_play_refuses_a_setting_the_engine_does_not_allow(
    tmp_path: Path, setting: str, reason: str
) -> None:
    err = run(tmp_path, "play", "--white", "engine:1", "--black", f"uci:{FAKE_CMD} {setting}",
              "--dir", "games")
    assert err.startswith("chessarbiter play: error: --black: ") and reason in err
    assert not (tmp_path / "games").exists()


@pytest.mark.skipif(STOCKFISH is None, reason=NO_STOCKFISH)
@pytest.mark.parametrize(("setting", "reason"), [
    ("Skil Level=3", "no option 'Skil Level' (did you mean 'Skill Level'?)"),
    ("UCI_LimitStrength=true;UCI_Elo=1320",
     "option 'UCI_Elo' = 1320: outside its range, from 1350 to 2850"),
])
def test_match_refuses_a_stockfish_setting_it_does_not_allow(
    tmp_path: Path, setting: str, reason: str
) -> None:
    err = run(tmp_path, "match", "--games", "2", "--pgn", "m.pgn",
              "--engine", f"uci:stockfish;{setting}")
    assert err.startswith(f"chessarbiter match: error: --engine: uci:stockfish;{setting}: "
                          "Stockfish ")
    assert err.endswith(f": {reason}\n")


@pytest.mark.skipif(STOCKFISH is None, reason=NO_STOCKFISH)
def test_match_against_stockfish_in_the_form_play_takes(tmp_path: Path) -> None:
    out = _match(tmp_path, "--games", "2", "--tc", "tc=2+0.05",
                 "--engine", "uci:stockfish;Skill Level=3;Threads=1",
                 "--engine", "uci:stockfish;UCI_LimitStrength=true;UCI_Elo=1600")
    games = read_pgn_text((tmp_path / "m.pgn").read_text())
    names = {g.tags["White"] for g in games} | {g.tags["Black"] for g in games}
    version = min(names).split(" (")[0]
    assert version.startswith("Stockfish ")
    assert names == {f"{version} (Skill Level=3)",
                     f"{version} (UCI_LimitStrength=true, UCI_Elo=1600)"}
    assert out.stdout.startswith(f"{version} (Skill Level=3) vs {version} "
                                 "(UCI_LimitStrength=true, UCI_Elo=1600): ")


@pytest.mark.parametrize(("name", "reason"), [
    ("missing.pgn", "No such file or directory"), ("folder", "Is a directory")])
def test_match_names_an_openings_file_it_cannot_read(
    tmp_path: Path, name: str, reason: str
) -> None:
    (tmp_path / "folder").mkdir()
    err = run(tmp_path, "match", "--pgn", "m.pgn", "--openings", name)
    assert err == f"chessarbiter match: error: --openings: {name}: {reason}\n"


def test_play_names_the_engine_with_its_settings(tmp_path: Path) -> None:
    source = str(Path(chessarbiter.__file__).parents[1])
    out = subprocess.run([sys.executable, "-m", "chessarbiter.cli.main", "play", "--accessible",
                          "--black", f"uci:{FAKE_CMD} good;Skill Level=3;Threads=1", "--tc",
                          "10s+0.1s", "--dir", "games"], cwd=tmp_path, input="quit\n",
                         env=os.environ | {"PYTHONPATH": source}, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.splitlines()[0] == (
        "chessarbiter, accessible mode: you play white against Fake good (Skill Level=3); "
        "10 seconds + 0.1 seconds per move.")
    pgn = read_pgn_text(next((tmp_path / "games").glob("*.pgn")).read_text())
    assert pgn[0].tags["Black"] == "Fake good (Skill Level=3)"
