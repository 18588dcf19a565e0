"""The commands' convention, as a user meets it: exit 0 on success, 1 when ``check`` finds a
breach of the Laws, 2 for bad usage or bad input with one stderr line naming the argument."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import chessarbiter

SOURCE = str(Path(chessarbiter.__file__).parents[1])  # this package, wherever it runs from


def chessarbiter_cmd(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``chessarbiter ARGS`` as a user would, in ``tmp_path``."""
    return subprocess.run([sys.executable, "-m", "chessarbiter.cli.main", *args], cwd=tmp_path,
                          env=os.environ | {"PYTHONPATH": SOURCE}, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)


def refused(tmp_path: Path, *args: str) -> str:
    """The one stderr line of a command refused with exit code 2."""
    done = chessarbiter_cmd(tmp_path, *args)
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stdout == ""
    return done.stderr


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["play", "--seed", "x"], "argument --seed: invalid int value: 'x'"),
        (["play", "--tc"], "argument --tc: expected one argument"),
        (["match", "--games", "two", "--pgn", "m.pgn"], "argument --games"),
        (["match"], "required: --pgn"),
        (["perft", "startpos", "1", "extra"], "unrecognized arguments: extra"),
        (["check"], "required: FILE"),
        (["check", "--jobs", "0", "g.pgn"], "--jobs '0'"),
        (["deadpos", "startpos", "--side", "purple"], "argument --side: invalid choice"),
        (["deadpos"], "required: fen"),
        (["uci", "--depth", "3"], "chessarbiter uci: error: unrecognized arguments: --depth"),
        (["tournament", "export", "-o", "t.trf"],
         "chessarbiter tournament export: error: unrecognized arguments: -o t.trf "
         "(see 'chessarbiter tournament export --help')"),
        (["opening"], "argument COMMAND: invalid choice: 'opening'"),
    ],
)
def test_usage_errors_are_one_line_naming_the_argument(
    tmp_path: Path, args: list[str], named: str
) -> None:
    err = refused(tmp_path, *args)
    assert err.startswith("chessarbiter"), err
    assert named in err and "--help" in err, err


@pytest.mark.parametrize(
    ("tc", "reason"),
    [
        ("0+0", "no time for the first move (and no bonus)"),
        ("0", "no time for the first move (and no bonus)"),
        ("0+3", "an increment is added only after a move"),
        ("G/0;b5", "a Bronstein delay is given back only after a move"),
        ("40/0, 30+30", "no time for the first move"),
        ("-5+3", "'-5': negative time"),
        ("5+-3", "'-3': negative increment seconds"),
        ("-", None),  # untimed: accepted (refused below for --fen)
    ],
)
@pytest.mark.parametrize("command", ["play", "match"])
def test_unplayable_and_negative_controls_are_refused(
    tmp_path: Path, command: str, tc: str, reason: str | None
) -> None:
    extra = ["--pgn", "m.pgn", "--engine", "no-such-engine-xyz"] if command == "match" else [
        "--fen", "bad"]
    err = refused(tmp_path, command, "--tc", tc, *extra)  # the value is read, not an option
    if reason is None:
        assert "--tc" not in err
    else:
        assert err.startswith(f"chessarbiter {command}: error: --tc: {tc!r}"), err
        assert reason in err, err
    assert not (tmp_path / "games").exists() and not (tmp_path / "m.pgn").exists()


@pytest.mark.parametrize(("args", "count"), [
    (["3"], "8902"), (["startpos", "2"], "400"), (["STARTPOS"], "197281"), (["0"], "1"),
])
def test_perft_lone_number_is_the_depth(tmp_path: Path, args: list[str], count: str) -> None:
    done = chessarbiter_cmd(tmp_path, "perft", *args)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == count


@pytest.mark.parametrize("depth", ["-1", "21"])
def test_perft_lone_bad_depth(tmp_path: Path, depth: str) -> None:
    assert refused(tmp_path, "perft", depth).startswith(f"chessarbiter perft: error: depth "
                                                        f"{depth!r}")


def test_deadpos_reads_startpos(tmp_path: Path) -> None:
    done = chessarbiter_cmd(tmp_path, "deadpos", "startpos", "--mode", "quick", "--side", "white")
    assert done.returncode == 0 and done.stdout.startswith("white: "), done


def test_match_pgn_folder_is_created_or_refused(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    err = refused(tmp_path, "match", "--pgn", "a-file/m.pgn", "--games", "1")
    assert err.startswith("chessarbiter match: error: --pgn: a-file/m.pgn: a-file is not a "
                          "folder"), err
    done = chessarbiter_cmd(tmp_path, "match", "--pgn", "new/folder/m.pgn", "--games", "1",
                            "--tc", "0.01+0")
    assert done.returncode == 0, done.stderr
    assert '[Round "1"]' in (tmp_path / "new" / "folder" / "m.pgn").read_text()


def test_check_exit_codes(tmp_path: Path) -> None:
    (tmp_path / "good.pgn").write_text('[Result "*"]\n\n1. e4 e5 *\n')
    (tmp_path / "illegal.pgn").write_text('[Result "*"]\n\n1. e4 Ke7 2. Ke2 Qa1 *\n')
    assert chessarbiter_cmd(tmp_path, "check", "good.pgn").returncode == 0
    assert chessarbiter_cmd(tmp_path, "check", "good.pgn", "illegal.pgn").returncode == 1
    err = refused(tmp_path, "check", "good.pgn", "missing.pgn")
    assert err.startswith("chessarbiter check: error: missing.pgn: cannot read"), err
    assert "--letters 'xx': expected one of" in refused(tmp_path, "check", "--letters", "xx",
                                                        "good.pgn")


HEAVY = ("textual", "chessarbiter.engines", "chessarbiter.laws", "chessarbiter.arbiter",
         "chessarbiter.tui", "chessarbiter.session", "chessarbiter.tournament",
         "chessarbiter.notation")


def loaded_after(code: str) -> set[str]:
    """The top modules of :data:`HEAVY` that running ``code`` in a fresh Python loads."""
    script = (f"import sys\n{code}\n"
              f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script], env=os.environ | {"PYTHONPATH": SOURCE},
                          capture_output=True, text=True, timeout=60, check=True)
    return set(done.stdout.split())


def test_the_parser_loads_no_command_dependency() -> None:
    """``chessarbiter --help`` builds every parser: none loads Textual, the engine, the
    dead-position solver, the arbiter or the notation."""
    assert loaded_after("import chessarbiter.cli.main as m\nm.build_parser()") == set()


def test_perft_loads_only_the_core() -> None:
    code = ("import contextlib, io\nimport chessarbiter.cli.main as m\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n    m.main(['perft', '1'])")
    assert loaded_after(code) == set()
