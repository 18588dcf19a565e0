"""``chessarbiter perft``: the node count is the last line; bad input is a clear error."""

from __future__ import annotations

import subprocess
import sys

import pytest

from chessarbiter.cli.main import main

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def test_count_is_the_last_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", KIWIPETE, "2"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "2039"


def test_divide_lists_each_move(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", KIWIPETE, "2", "--divide"]) == 0
    lines = capsys.readouterr().out.splitlines()
    per_move = [line for line in lines if ": " in line and not line.startswith("#")]
    assert len(per_move) == 48
    assert sum(int(line.split(": ")[1]) for line in per_move) == 2039 == int(lines[-1])


def test_chess960_flag(capsys: pytest.CaptureFixture[str]) -> None:
    fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    assert main(["perft", fen, "3", "--chess960"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "12189"


def test_bad_fen_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "rnbqkbnr/pppppppp/8/8 w KQkq - 0 1", "2"]) == 2
    err = capsys.readouterr().err
    assert "piece placement" in err and "8 ranks" in err


def test_console_script_runs() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "chessarbiter.cli.main", "perft"],
        capture_output=True, text=True, check=True, timeout=120,
    ).stdout
    assert out.splitlines()[-1] == "197281"
