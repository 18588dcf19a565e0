"""``chessarbiter tournament check``: every round re-paired, discrepancies reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from chessarbiter.cli.main import main
from chessarbiter.cli.tournament_check import run_check
from tests.corpus import corpus_path


def test_a_clean_file_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    path = corpus_path("pairings", "generated", "dutch_p30_r7_s12345_A.trf")
    assert run_check([str(path)]) == 0
    out = capsys.readouterr().out
    assert "7 of 7 rounds as the rules give them; 0 with discrepancies" in out


def test_discrepancies_are_reported_with_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    path = corpus_path("pairings", "checker", "p30A_colour_swapped_r3.trf")
    assert main(["tournament", "check", str(path), "--quiet"]) == 1
    out = capsys.readouterr().out
    assert "round 3: discrepancy" in out and "1-6" in out and "6-1" in out
    assert "round 1:" not in out and "3 with discrepancies" in out


@pytest.mark.parametrize("content", [None, "012 T\r001    x\r"])
def test_a_bad_file_is_one_line_and_exit_2(tmp_path: Path, content: str | None,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.trf"
    if content is not None:
        path.write_text(content)
    assert run_check([str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.trf" in err
