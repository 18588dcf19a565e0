"""``chessarbiter check`` names what it finds as a user reads it: an illegal move by its
number and SAN, a Result contradicted by an end with moves after it, every impossible clock
reading, and a file that is not PGN as one error for the file."""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from chessarbiter.arbiter.audit import audit_game
from chessarbiter.cli.check_parts import Options
from chessarbiter.cli.check_run import SHOWN_PER_CODE
from chessarbiter.cli.check_sniff import not_pgn
from chessarbiter.cli.main import main
from chessarbiter.notation import read_pgn_file, read_pgn_text
from tests.corpus import corpus_path

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


def _extra_move(text: str) -> str:
    """Every game of ``text`` with one more move before its termination marker."""
    return re.sub(r"(?m)(?<=[^\s\"])(\s+)(1-0|0-1|1/2-1/2|\*)$", r" Kh1\1\2", text)


def test_a_result_contradicted_by_a_mate_with_moves_after_it() -> None:
    """pgn-extract's games ending in mate or stalemate under a wrong Result, each with one
    more move recorded: the Result is still wrong, and named as pgn-extract corrects it."""
    text = corpus_path(*EXTRACT, "test-fixresulttags-in.pgn").read_text(encoding="utf-8")
    fixed = list(read_pgn_file(corpus_path(*EXTRACT, "expected_out",
                                           "test-fixresulttags-out.pgn")))
    games = read_pgn_text(_extra_move(text))
    assert len(games) == len(fixed) == 5
    for game, corrected in zip(games, fixed, strict=True):
        assert game.error is not None and game.error.text == "Kh1"
        audit = audit_game(game)
        assert audit.ending in ("checkmate", "stalemate")
        codes = {f.code for f in audit.errors}
        assert codes == {"result", "after-end"}, audit.findings
        result, = (f for f in audit.errors if f.code == "result")
        if audit.ending == "checkmate":
            assert f"the result is {corrected.tags['Result']}" in result.message
        else:
            assert corrected.tags["Result"] == "1/2-1/2" and "drawn by" in result.message


@pytest.mark.parametrize(("fen", "moves", "ending"), [
    # stalemate, then a move that cannot be legal
    ("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", "1. Kh6 Kh7", "stalemate"),
    # K v K, then more moves and an illegal one
    ("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", "1. Kxd2 Kd7 2. Kd3 Ke6 3. Ke9", "dead position"),
])
def test_a_result_contradicted_by_an_end_whatever_follows(
    fen: str, moves: str, ending: str
) -> None:
    for result in ("1-0", "0-1"):
        game = read_pgn_text(f'[FEN "{fen}"]\n[Result "{result}"]\n\n{moves} {result}')[0]
        assert game.error is not None
        audit = audit_game(game)
        assert audit.ending == ending
        result_error, = (f for f in audit.errors if f.code == "result")
        assert f"drawn by {ending}" in result_error.message
        assert "after-end" in {f.code for f in audit.errors}


CLOCKS = ('[TimeControl "60+1"]\n[Result "*"]\n\n'
          "1. e4 {[%clk 0:01:00]} e5 {[%clk 0:01:30]} 2. Nf3 {[%clk 0:02:00]} "
          "Nc6 {[%clk 0:01:20]} 3. Bb5 {[%clk 0:02:40]} a6 {[%clk 0:03:00]} *\n")
"""Four impossible readings: 1...e5, 2.Nf3, 3.Bb5 and 3...a6 (1:20 after 1:30 is fine)."""


def test_every_impossible_clock_reading_is_reported() -> None:
    audit = audit_game(read_pgn_text(CLOCKS)[0])
    clock = [(f.move, f.ply) for f in audit.findings if f.code == "clock"]
    assert clock == [("1...e5", 2), ("2.Nf3", 3), ("3.Bb5", 5), ("3...a6", 6)]


def test_clock_readings_capped_in_text_never_dropped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A real game whose every reading is raised a minute a move: each one is impossible."""
    text = corpus_path("pgn", "large", "lichess_2017-05_sample_clk.pgn").read_text()
    game = next(g for g in text.split("\n\n[Site") if g.count("%clk") >= 40)
    readings = iter(range(120, 100_000, 60))

    def raised(_: re.Match[str]) -> str:
        s = next(readings)
        return f"[%clk {s // 3600}:{s // 60 % 60:02}:{s % 60:02}]"

    path = tmp_path / "clocks.pgn"
    path.write_text("[Site" + re.sub(r"\[%clk [0-9:]+\]", raised, game) + "\n")
    count = game.count("%clk")
    _, out, _ = check(["--json", path], capsys)
    report, = json.loads(out)["games"]
    clock = [f for f in report["findings"] if f["code"] == "clock"]
    assert len(clock) == count and all(f["move"] and f["move"] in f["message"] for f in clock)
    assert [f["ply"] for f in clock] == list(range(1, count + 1))
    assert json.loads(out)["summary"]["findings"]["clock"] == count
    _, out, _ = check([path], capsys)
    shown = [line for line in out.splitlines() if " clock: " in line and "'s clock reads" in line]
    assert len(shown) == SHOWN_PER_CODE < count
    assert f"clock: and {count - len(shown)} more (--json lists every one)" in out
    assert f"clock: {count}" in out  # the summary counts them all


def test_a_file_that_is_not_pgn_is_one_error(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.pgn"
    good.write_text('[Result "1/2-1/2"]\n\n1. e4 e5 1/2-1/2\n')
    pgn = corpus_path(*EXTRACT, "fischer.pgn").read_bytes()
    files = {
        "games.pgn.gz": (gzip.compress(pgn), "gzip"),
        "program.pgn": (bytes(range(256)) * 40, "binary"),
        "notes.txt": (b"# Notes\n\nA text with no game in it.\n\n" * 200, "no tag pair"),
        "data.json": (json.dumps({"games": [{"white": "A", "moves": "1. e4"}] * 50},
                                 indent=1).encode(), "JSON"),
    }
    for name, (data, why) in files.items():
        path = tmp_path / name
        path.write_bytes(data)
        code, out, err = check([good, path], capsys)
        assert code == 2 and out == "", name  # nothing audited
        line, = err.splitlines()
        assert line.startswith(f"chessarbiter check: error: {path}: not PGN: ") and why in line
    done = subprocess.run(  # as a user runs it
        [sys.executable, "-m", "chessarbiter.cli.main", "check", str(good),
         str(tmp_path / "games.pgn.gz")], capture_output=True, text=True, timeout=120, check=False)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.endswith("not PGN: gzip-compressed data (unpack it first)\n")
    (tmp_path / "empty.pgn").write_text("\n")
    assert check([tmp_path / "empty.pgn"], capsys)[0] == 0  # an empty database


def test_corpus_files_that_are_not_pgn(capsys: pytest.CaptureFixture[str]) -> None:
    """The corpus's notes, test cases and HTML newsletters are refused; every other file of
    games, broken ones and bare movetext included, is audited."""
    refused = {("README.md",), ("MANIFEST.tsv",), ("tricky", "tricky_cases.jsonl"),
               ("pgn-read", "crafty06_02.pgn"), ("pgn-read", "crafty06_03.pgn")}
    for parts in refused:
        code, _, err = check([corpus_path("pgn", *parts)], capsys)
        assert code == 2 and "not PGN" in err, parts
    root = corpus_path("pgn")
    games = [path for path in root.rglob("*") if path.suffix in (".pgn", ".txt")]
    assert len(games) > 200
    for path in games:
        if path.relative_to(root).parts not in refused:
            assert not_pgn(str(path), Options()) is None, path


def test_broken_games_among_good_ones_are_audited(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    good = corpus_path(*EXTRACT, "test-checkmate.pgn").read_text(encoding="utf-8")
    count = len(read_pgn_text(good))
    for broken in ("1. Ke3 e5 *\n\n", "\x00\x01 garbage\n\n", "# a note\n\n"):
        path = tmp_path / "mixed.pgn"
        path.write_text(broken + good)
        code, out, err = check(["--json", path], capsys)
        report = json.loads(out)
        assert code == 1 and err == ""
        assert report["summary"]["games"] == count + 1
        assert report["summary"]["games_with_errors"] == 1
