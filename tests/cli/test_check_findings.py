"""``chessarbiter check`` names what it finds as a user reads it: an illegal move by its
number and SAN, a Result contradicted by an end with moves after it, every impossible clock
reading, and a file that is not PGN as one error for the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chessarbiter.cli.main import main

EXTRACT = ("pgn", "pgn-extract")


def check(args: list[str | Path], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["check", "--jobs", "1", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def test_an_illegal_move_is_named_by_number_and_san(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "illegal.pgn"
    path.write_text('[White "A"]\n[Black "B"]\n[Result "*"]\n\n'
                    "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6\n4. Ke3 *\n\n"
                    '[Result "*"]\n\n1. d4 d5 2. c4 Ke6 *\n')
    code, out, _ = check([path], capsys)
    assert code == 1
    white, black = (line for line in out.splitlines() if line.startswith("  error   illegal:"))
    assert "4.Ke3" in white and "line 6" in white
    assert "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq" in white
    assert "2...Ke6" in black and "line 10" in black
    code, out, _ = check(["--json", path], capsys)
    first, second = (game["findings"][0] for game in json.loads(out)["games"])
    assert (first["code"], first["move"], first["ply"]) == ("illegal", "4.Ke3", 7)
    assert (second["move"], second["ply"]) == ("2...Ke6", 4)
    assert "line 6" in first["message"]
