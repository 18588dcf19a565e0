"""Bad arguments and files: every command prints one line on stderr and exits with code 2,
never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import chessarbiter
from chessarbiter.cli.perft_cmd import MAX_DEPTH

KINGS = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
HUGE = "9" * 5000  # beyond Python's int-string limit


def run(tmp_path: Path, *args: str) -> str:
    """Run ``chessarbiter ARGS`` in ``tmp_path``; assert exit code 2 and one stderr line."""
    source = str(Path(chessarbiter.__file__).parents[1])  # this package, wherever it runs from
    env = os.environ | {"PYTHONPATH": source}
    out = subprocess.run([sys.executable, "-m", "chessarbiter.cli.main", *args], cwd=tmp_path,
                         env=env, capture_output=True, text=True, timeout=60,
                         stdin=subprocess.DEVNULL)
    assert out.returncode == 2, (out.returncode, out.stderr[-2000:])
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr, out.stderr[-2000:]
    return out.stderr


@pytest.mark.parametrize("depth", [str(MAX_DEPTH + 1), "100", HUGE, "-1", "\u00b3", "2.5", ""])
def test_perft_depth_outside_0_to_the_maximum(tmp_path: Path, depth: str) -> None:
    err = run(tmp_path, "perft", KINGS, depth)
    assert err.startswith("chessarbiter perft: error: depth ")
    assert f"from 0 to {MAX_DEPTH}" in err and len(err) < 200


def test_perft_fen_counters_too_long(tmp_path: Path) -> None:
    err = run(tmp_path, "perft", f"{KINGS[:-1]}{HUGE}", "1")
    assert "fullmove number: must be at most" in err and len(err) < 300


JOURNALS = {
    "empty.jsonl": b"",
    "cut.jsonl": b'{"version": 1, "setup": {"prof',
    "corrupt.jsonl": b'{"version": 1, "setup": {}}\n{"kind": "move"\n',
    "setup.jsonl": b'{"version": 1, "setup": 5}\n',
    "huge.jsonl": b'{"version": 1' + HUGE.encode() + b"}\n",
    "README.md": b"# Title\n\nSome text without a final newline",
    "binary.jsonl": b"\xff\xfe\x00",
}


@pytest.mark.parametrize("name", [*JOURNALS, "missing.jsonl", "folder"])
def test_play_resume_of_no_journal(tmp_path: Path, name: str) -> None:
    if name in JOURNALS:
        (tmp_path / name).write_bytes(JOURNALS[name])
    (tmp_path / "folder").mkdir()
    err = run(tmp_path, "play", "--resume", name)
    assert err.startswith(f"chessarbiter play: error: --resume: {name}: ")
    if name in JOURNALS:
        assert (tmp_path / name).read_bytes() == JOURNALS[name]  # left as it was
    assert not (tmp_path / "games").exists()


@pytest.mark.parametrize(
    ("args", "start"),
    [
        (["--tc", "5+\u00b3"], "--tc: "),
        (["--tc", "\u2075+3"], "--tc: "),
        (["--tc", "40/" + HUGE], "--tc: "),
        (["--white", "engine:\u00b3"], "--white: engine level"),
        (["--black", "engine:" + HUGE], "--black: engine level"),
        (["--fen", KINGS[:-1] + HUGE], "--fen: invalid FEN fullmove number"),
        (["--dir", "a-file"], "--dir: a-file: "),
    ],
)
def test_play_bad_arguments(tmp_path: Path, args: list[str], start: str) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    err = run(tmp_path, "play", *args)
    assert err.startswith(f"chessarbiter play: error: {start}"), err
    assert len(err) < 300


def test_deadpos_budget_and_fen(tmp_path: Path) -> None:
    assert "--budget must be 1 or more" in run(tmp_path, "deadpos", KINGS, "--budget", "0")
    assert "fullmove number" in run(tmp_path, "deadpos", KINGS[:-1] + HUGE)
