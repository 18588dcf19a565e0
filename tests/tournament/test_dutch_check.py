"""``chessarbiter tournament check``: every round re-paired, discrepancies reported."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from chessarbiter.cli.main import main
from tests.corpus import corpus_path


def test_a_clean_file_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    path = corpus_path("pairings", "generated", "dutch_p30_r7_s12345_A.trf")
    assert main(["tournament", "check", str(path)]) == 0
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
    assert main(["tournament", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.trf" in err


def _valid_text() -> str:
    path = corpus_path("pairings", "generated", "dutch_p15_r5_s101.trf")
    return path.read_bytes().decode("latin-1")


def _edit(text: str, start: int, column: int, new: str) -> str:
    """``text`` with player ``start``'s line changed from 1-based ``column`` on."""
    lines = text.split("\r")
    index = next(i for i, line in enumerate(lines) if line[:8] == f"001 {start:4d}")
    line = lines[index]
    lines[index] = line[:column - 1] + new + line[column - 1 + len(new):]
    return "\r".join(lines)


def _refused(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> str:
    path = tmp_path / "in.trf"
    path.write_text(text, encoding="latin-1", newline="")
    assert main(["tournament", "check", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1, captured
    return captured.err


@pytest.mark.parametrize(("content", "reason"), [
    ("", "line 1, column 1: no player record (001)"),
    ('[Event "Club"]\n[White "A"]\n\n1. e4 e5 1-0\n', "line 1, column 1: not a TRF record"),
    ("hello world\n", "line 1, column 1: not a TRF record"),
])
def test_what_is_not_a_trf_is_refused(tmp_path: Path, content: str, reason: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert reason in _refused(tmp_path, content, capsys)


def test_a_points_column_against_the_results_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = _valid_text()
    assert "001    1      Test0001 Player0001               2474" in text
    err = _refused(tmp_path, _edit(text, 1, 81, " 9.0"), capsys)
    assert "line 2, column 81: points 9.0 of player 1: the results add up to 3.5" in err


def test_contradictory_cells_are_a_bad_file(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    text = _valid_text()
    other = _edit(text, 1, 92, "   9")  # player 1 met 8 in round 1; now says 9
    err = _refused(tmp_path, other, capsys)
    assert "round 1: player" in err and "whose cell names" in err
    same = _edit(text, 1, 97, "w")  # 1 had black against 8: both white now
    assert "both have the same colour" in _refused(tmp_path, same, capsys)
    result = _edit(text, 1, 99, "0")  # 1 won against 8, who lost: both lost now
    err = _refused(tmp_path, _edit(result, 1, 81, " 2.5"), capsys)
    assert "round 1: player 1 has '0' against 8, who has '0'" in err


def test_help_shows_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["tournament", "check", "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "--rules {2025,2017}" in out and "--quiet" in out


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    """``check FILE | head -1``: the reader leaves first; no traceback."""
    path = corpus_path("pairings", "generated", "dutch_p30_r7_s12345_A.trf")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, "-m", "chessarbiter.cli.main", "tournament",
                             "check", str(path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 141
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
