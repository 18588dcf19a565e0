"""``chessarbiter deadpos``: verdicts per side, SAN helpmates that python-chess replays."""

from __future__ import annotations

import json

import chess
import pytest

from chessarbiter.cli.main import main

QUEEN = "8/8/4k3/8/8/8/3QK3/8 w - - 0 1"


def test_json_verdicts_and_replayable_san(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deadpos", QUEEN, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    white, black = report["sides"]["white"], report["sides"]["black"]
    assert (white["verdict"], black["verdict"]) == ("winnable", "unwinnable")
    board = chess.Board(QUEEN)
    for san in white["helpmate"]:
        board.push_san(san)
    assert board.is_checkmate() and board.turn == chess.BLACK
    assert white["nodes"] > 0


def test_one_side_in_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deadpos", "8/8/4k3/8/8/8/3NK3/8 w - - 0 1", "--side", "white"]) == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith("white: unwinnable") and "black" not in out


def test_bad_fen_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deadpos", "8/8/8/8 w"]) == 2
    assert "invalid FEN" in capsys.readouterr().err
