"""``chessarbiter check`` on whole databases: parts audited in parallel, the same output for
every ``--jobs``, exit codes of the command, and repetition claims found from keys."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from chessarbiter.arbiter.audit import audit_game, move_label, repeating_move
from chessarbiter.cli import check_parts
from chessarbiter.cli.check_parts import Part, parts
from chessarbiter.cli.main import main
from chessarbiter.laws.repetition import RepetitionTable
from chessarbiter.notation import read_pgn_file
from tests.corpus import corpus_path

OPEN_COMMENT = '[Event "open"]\n\n1. e4 {a comment never closed 1-0\n\n'
"""A game whose comment runs on: the reader ends it at the next tag section."""


PAWNS = " ".join(f"{n}. {f}4 {{[%clk 0:{n + 1:02}:00]}} {f}5 {{[%clk 0:01:00]}}"
                 for n, f in enumerate("edcbahg", 1))
FINDINGS = ('[Event "mate, then a move"]\n[Result "1-0"]\n\n1. f3 e5 2. g4 Qh4# 3. a3 1-0\n\n'
            '[Event "clocks"]\n[TimeControl "60+0"]\n[Result "*"]\n\n' + PAWNS + " *\n\n"
            '[Event "illegal"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 *\n')
"""A wrong Result after a mate and a move, seven impossible clock readings, an illegal move."""


def database(tmp_path: Path) -> Path:
    """Corpus games of several kinds, with an open comment, games with findings of every kind
    and CRLF line ends among them."""
    texts = [corpus_path("pgn", "pgn-extract", name).read_text(encoding="utf-8")
             for name in ("fischer.pgn", "test-repetition.pgn", "test-fifty.pgn",
                          "test-checkmate.pgn")]
    texts.insert(2, OPEN_COMMENT)
    texts.insert(4, FINDINGS)
    texts.append(texts[0].replace("\n", "\r\n"))
    path = tmp_path / "db.pgn"
    path.write_text("\n".join(texts), encoding="utf-8", newline="")
    return path


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["check", *args])
    return code, capsys.readouterr().out


def test_parts_hold_whole_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(check_parts, "PART_CHARS", 1)  # cut wherever it may
    path = database(tmp_path)
    with open(path, encoding="utf-8", newline="") as stream:
        cut = list(parts(stream))
    assert len(cut) > 10
    assert "".join(p.text for p in cut) == path.read_bytes().decode()
    assert all(p.text.lstrip()[:1] == "[" for p in cut)
    assert any(p.text.strip() == OPEN_COMMENT.strip() for p in cut)  # read on into the next
    lines = [sum(p.text.count("\n") for p in cut[:i]) + 1 for i in range(len(cut))]
    assert [p.first_line for p in cut] == lines


def test_same_output_for_every_jobs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(check_parts, "PART_CHARS", 1)  # cut wherever it may
    path = str(database(tmp_path))
    code, one = run(["--jobs", "1", path], capsys)
    assert code == 1  # the open comment
    assert "comment" in one and one.count(": game ") == len(list(read_pgn_file(path)))
    assert "2.Ke3 (line" in one and "clock: and 2 more" in one
    assert "White is checkmated: the result is 0-1" in one
    for jobs in ("2", "3"):
        assert run(["--jobs", jobs, path], capsys) == (code, one)
    _, json_one = run(["--json", "--jobs", "1", path], capsys)
    _, json_two = run(["--json", "--jobs", "2", path], capsys)
    assert json_one == json_two
    report = json.loads(json_one)
    assert [g["index"] for g in report["games"]] == list(range(1, report["summary"]["games"] + 1))


def test_open_comment_is_read_with_the_next_part() -> None:
    """A part whose last game ends in an open comment says so; read with the next part it
    gives the report of one reader over the file."""
    follow = '[Event "next"]\n\n1. d4 *\n'
    reports, open_comment = check_parts.audit_part(Part(OPEN_COMMENT, 1),
                                                   check_parts.Options())
    assert open_comment and len(reports) == 1
    whole, open_comment = check_parts.audit_part(Part(OPEN_COMMENT + follow, 1),
                                                 check_parts.Options())
    assert not open_comment and len(whole) == 2
    assert whole[0].findings != reports[0].findings
    assert whole[1].line == 5 and whole[1].tags == {"Event": "next"}


def test_part_with_the_rest_of_a_stream() -> None:
    rest = io.StringIO("1-0\n")
    reports, _ = check_parts.audit_part(Part('[Event "x"]\n\n1. e4 ', 3, rest),
                                        check_parts.Options())
    only, = reports
    assert only.line == 3 and only.result == "1-0" and only.plies == 1


def test_command_exit_codes(tmp_path: Path) -> None:
    good = tmp_path / "good.pgn"
    good.write_text('[Result "1/2-1/2"]\n\n1. e4 e5 1/2-1/2\n')
    void = tmp_path / "void.pgn"
    void.write_text('[FEN "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1"]\n[Result "1/2-1/2"]\n\n'
                    "1. Kxd2 Kd7 1/2-1/2\n")
    bad = tmp_path / "bad.pgn"
    bad.write_text("1. e4 Qa1 *\n")
    for args, code in (([good], 0), ([void], 0), ([good, bad], 1),
                       ([tmp_path / "missing.pgn"], 2), (["--jobs", "0", good], 2)):
        done = subprocess.run(
            [sys.executable, "-m", "chessarbiter.cli.main", "check", *map(str, args)],
            capture_output=True, text=True, timeout=120, check=False,
        )
        assert done.returncode == code, (args, done.stdout, done.stderr)
        if args == [void]:
            assert "note    void-moves: 1...Kd7" in done.stdout
            assert "1 with void moves" in done.stdout


def test_repetition_claims_match_making_every_move() -> None:
    """The move that would repeat a position a third time, found from the key difference,
    is the one found by making every legal move."""
    seen = 0
    for name in ("test-repetition.pgn", "fischer.pgn"):
        for game in read_pgn_file(corpus_path("pgn", "pgn-extract", name)):
            pos = game.start_position()
            counts: dict[int, int] = {pos.key(): 1}
            reps = RepetitionTable()
            reps.add(pos.key())
            for record in game.moves:
                twice = {key for key, n in counts.items() if n == 2}
                repeats = []
                for move in pos.legal_moves():
                    pos.push(move)
                    if pos.key() in twice:
                        repeats.append(move)
                    pos.pop()
                found = repeating_move(pos, reps, twice)
                assert (found in repeats) if repeats else found == 0, move_label(pos, found)
                seen += bool(repeats)
                pos.push(record.move)
                if pos.halfmove_clock == 0:
                    counts.clear()
                    reps.clear()
                counts[pos.key()] = counts.get(pos.key(), 0) + 1
                reps.add(pos.key())
            audit = audit_game(game)
            assert audit.plies == len(game.moves)
    assert seen >= 8


def test_file_without_places_to_cut(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Past MAX_PART_CHARS without a place to cut, the rest is read as one stream."""
    monkeypatch.setattr(check_parts, "PART_CHARS", 1)
    monkeypatch.setattr(check_parts, "MAX_PART_CHARS", 100)
    path = tmp_path / "uncut.pgn"
    path.write_text("".join(f'[Event "{n}"]\n\n1. e4 e5 * {{no cut}}\n\n' for n in range(50)))
    with open(path, encoding="utf-8", newline="") as stream:
        cut = list(parts(stream))
        assert len(cut) == 1 and cut[0].rest is stream
    _, one = run(["--jobs", "1", str(path)], capsys)
    assert one.count(": game ") == 50
    assert run(["--jobs", "2", str(path)], capsys)[1] == one
