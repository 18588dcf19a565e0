"""``chessarbiter deadpos -``: FEN and EPD lines from standard input, one JSON line out for
each in input order (a bad line's reason in its place, exit 2), in one or more processes;
``--seconds`` on the single-FEN form. Run as processes, as users run them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import chess

import chessarbiter

QUEEN = "8/8/4k3/8/8/8/3QK3/8 w - - 0 1"
KNIGHT = "8/8/4k3/8/8/8/3NK3/8 w - -"
HARD = "k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - - 0 1"


def deadpos(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``chessarbiter deadpos ARGS`` with ``stdin`` as its standard input."""
    source = str(Path(chessarbiter.__file__).parents[1])
    return subprocess.run(
        [sys.executable, "-m", "chessarbiter.cli.main", "deadpos", *args],
        input=stdin, capture_output=True, text=True, timeout=120, check=False,
        env=os.environ | {"PYTHONPATH": source},
    )


def lines_of(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


def test_each_line_gets_its_verdicts_and_a_bad_one_its_reason() -> None:
    stdin = "\n".join([
        QUEEN,
        "",
        "# a comment",
        "8/8/8/8 w",
        KNIGHT + ' bm Nf3; id "epd";',
        "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
        KNIGHT,
    ]) + "\n"
    done = deadpos("-", "--side", "white", stdin=stdin)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "2 of 5 positions refused (first at line 4)" in (
        done.stderr
    )
    out = lines_of(done.stdout)
    assert [entry["line"] for entry in out] == [1, 4, 5, 6, 7]
    assert "invalid FEN" in out[1]["error"]
    assert "pawn on the first or last rank" in out[3]["error"]
    queen = out[0]["sides"]["white"]
    assert (out[0]["fen"], out[0]["mode"], queen["verdict"]) == (QUEEN, "full", "winnable")
    board = chess.Board(QUEEN)
    for san in queen["helpmate"]:
        board.push_san(san)
    assert board.is_checkmate()
    for knight in (out[2], out[4]):
        assert knight["sides"] == {
            "white": {"verdict": "unwinnable", "helpmate": [], "nodes": 0, "reason": "material"}
        }


def test_processes_answer_in_input_order_as_one_does() -> None:
    fens = [QUEEN, KNIGHT, "8/8/8/4k3/8/8/2B1K3/7B w - - 0 1", "7k/8/6P1/8/8/8/8/K7 w - - 0 1",
            "8/8/8/3k4/8/8/2p5/K7 b - - 0 1"]
    stdin = "".join(f"{fens[i % len(fens)]}\n" for i in range(50))
    one = deadpos("-", "--budget", "3000", stdin=stdin)
    two = deadpos("-", "--budget", "3000", "--jobs", "2", stdin=stdin)
    assert one.returncode == two.returncode == 0 and not one.stderr and not two.stderr
    assert [entry["line"] for entry in lines_of(one.stdout)] == list(range(1, 51))
    assert one.stdout == two.stdout


def test_seconds_bound_the_single_position() -> None:
    done = deadpos(HARD, "--side", "white", "--seconds", "0", "--json")
    assert done.returncode == 0, done.stderr
    white = json.loads(done.stdout)["sides"]["white"]
    assert (white["verdict"], white["reason"]) == ("undetermined", "time")
    assert white["nodes"] > 0


def test_bad_bounds_are_one_line_and_exit_2() -> None:
    for args in (["--seconds", "-1"], ["--jobs", "0"], ["--budget", "0"]):
        done = deadpos("-", *args, stdin=QUEEN + "\n")
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and not done.stdout, args
