"""TRF in and out as a director uses it: ``tournament pair FILE.trf`` (the next round of a
file, written back with ``-o``), ``tournament import FILE.trf`` (continued, corrected and
ranked here), and exports that carry what the next pairing needs (the next round's byes
and absences, later byes as ``240`` records in fixed columns, the initial colour, Baku's
``XXA``), valid mid-round; bbpPairings pairs each export as this program does."""

from __future__ import annotations

from pathlib import Path

import pytest

from chessarbiter.cli.main import main
from chessarbiter.tournament.records import Code, Pairing
from chessarbiter.tournament.trf import Trf, parse, validate
from tests.corpus import corpus_path
from tests.tournament.bbp import Bbp


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code = main(["tournament", *args])
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


def _read(path: Path) -> Trf:
    trf = parse(path.read_bytes().decode("latin-1"))
    validate(trf)
    return trf


def _boards(table: str) -> Pairing:
    """The pairs of a printed round (``  1.   4 Name  -   2 Name``) and its bye."""
    boards, bye = [], None
    for line in table.splitlines()[1:]:
        words = line.split()
        if words[0].endswith(".") and words[0][:-1].isdigit():
            numbers = [int(w) for w in words[1:] if w.isdigit()]
            boards.append((numbers[0], numbers[-1]))
        elif line.endswith("pairing-allocated bye"):
            bye = int(words[0])
    return Pairing(tuple(boards), bye)


def _round(trf: Trf, round_no: int) -> set[tuple[int, int]]:
    return {(p.entrant.start, c.opponent) for p in trf.players
            for c in p.cells[round_no - 1:round_no] if c.opponent and c.side is not None
            and c.side.name == "WHITE"}


def test_pair_a_file_then_import_continue_and_rank(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """bbpPairings's tournament cut after round 5: its round 6 is paired from the file as
    bbpPairings paired it, written back, imported, played as the full file says, exported
    (the same cells as the full file), and its round 7 paired from the database."""
    cut = corpus_path("pairings", "next_round", "p30A_after_r5.trf")
    full = _read(corpus_path("pairings", "generated", "dutch_p30_r7_s12345_A.trf"))
    out = tmp_path / "r6.trf"
    shown = _run(capsys, "pair", str(cut), "-o", str(out))
    expected = corpus_path("pairings", "next_round", "p30A_r6.pairs").read_text().split()
    numbers = [int(w) for w in expected[1:]]
    assert _boards(shown).boards == tuple(zip(numbers[::2], numbers[1::2], strict=True))
    written = _read(out)
    assert _round(written, 6) == _round(full, 6)
    assert all(c.code is Code.NONE for p in written.players for c in p.cells[5:6]
               if c.opponent)
    db = str(tmp_path / "t.sqlite")
    assert "30 players, 6 of 7 rounds paired" in _run(capsys, "import", str(out), "--db", db)
    table = _run(capsys, "pairings", "--db", db)
    for board, (white, _) in enumerate(_boards(table).boards, 1):
        cell = full.players[white - 1].cells[5]
        black = full.players[cell.opponent - 1 if cell.opponent else 0].cells[5]
        result = {("1", "0"): "1-0", ("0", "1"): "0-1", ("=", "="): "=", ("+", "-"): "+-",
                  ("-", "+"): "-+", ("-", "-"): "--"}[(cell.code.value, black.code.value)]
        _run(capsys, "result", "--db", db, "6", str(board), result)
    exported = tmp_path / "after6.trf"
    _run(capsys, "export", "--db", db, "--trf", str(exported))
    again = _read(exported)
    assert [p.cells[:6] for p in again.players] == [p.cells[:6] for p in full.players]
    assert [p.points for p in again.players] == [
        sum((full.scoring.points(c.code) for c in p.cells[:6]), p.points * 0)
        for p in full.players]
    assert set(_boards(_run(capsys, "pair", "--db", db)).boards) == _round(full, 7)
    assert "Pl" in _run(capsys, "standings", "--db", db)


def test_a_bad_file_is_refused_in_one_line(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "x.trf"
    bad.write_text("hello world\n")
    for args in (("pair", str(bad)), ("import", str(bad), "--db", str(tmp_path / "t.db"))):
        assert main(["tournament", *args]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "line 1, column 1: not a TRF record" in err
    assert _run(capsys, "list", "--db", str(tmp_path / "t.db")) == ""  # nothing imported


def _club(tmp_path: Path, capsys: pytest.CaptureFixture[str], *create: str) -> str:
    db = str(tmp_path / "club.sqlite")
    _run(capsys, "create", "Club", "--rounds", "5", "--db", db, *create)
    for number in range(1, 10):
        _run(capsys, "add", f"P{number}", "--rating", str(2100 - 20 * number), "--db", db)
    return db


def _same_as_bbp(bbp: Bbp, path: Path, mine: Pairing) -> None:
    theirs = bbp.pair(path.read_bytes().decode("latin-1"))
    assert theirs == mine, (theirs, mine)


def test_exports_carry_the_next_pairing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        bbp: Bbp) -> None:
    """After round 1: a half-point bye for round 2, one for round 4, a withdrawal; both
    exports are paired by bbpPairings as here. Mid-round 2 (one result in): the export
    leaves round 2 out, every cell has its result, and bbpPairings pairs round 2 again."""
    db = _club(tmp_path, capsys)
    _run(capsys, "pair", "--db", db)
    for board in range(1, 5):
        _run(capsys, "result", "--db", db, "1", str(board), "1-0" if board % 2 else "=")
    _run(capsys, "bye", "P3", "--db", db)
    _run(capsys, "bye", "P4", "--round", "4", "--db", db)
    _run(capsys, "withdraw", "P5", "--db", db)
    paths = {flag: tmp_path / f"after1{flag}.trf" for flag in ("", "--trf2026")}
    for flag, path in paths.items():
        _run(capsys, "export", "--db", db, "--trf", str(path), *([flag] if flag else []))
        trf = _read(path)
        assert trf.players[2].cells[1].code is Code.HALF_BYE
        assert trf.players[4].cells[1].code is Code.ZERO_BYE
        assert trf.initial_side is not None and trf.total_rounds == 5
    text = paths["--trf2026"].read_bytes().decode("latin-1")
    assert "\r240 H   4    4\r" in text + "\r"
    assert "240" not in paths[""].read_bytes().decode("latin-1")
    round2 = _boards(_run(capsys, "pair", "--db", db))
    for path in paths.values():
        _same_as_bbp(bbp, path, round2)
    _run(capsys, "result", "--db", db, "2", "1", "1-0")
    mid = tmp_path / "mid.trf"
    _run(capsys, "export", "--db", db, "--trf", str(mid))
    trf = _read(mid)
    assert all(c.code is not Code.NONE for p in trf.players for c in p.cells)
    assert max(len(p.cells) for p in trf.players) == 2  # round 1, and round 2's byes
    _same_as_bbp(bbp, mid, round2)


def test_baku_export_is_paired_by_bbppairings(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str],
                                              bbp: Bbp) -> None:
    """Baku acceleration: TRF-16 carries it as XXA records (bbpPairings reads TRF-16's 092
    as free text), TRF-2026 as FIDE_DUTCH_2025_BAKU."""
    db = _club(tmp_path, capsys, "--acceleration", "baku")
    _run(capsys, "pair", "--db", db)
    for board in range(1, 5):
        _run(capsys, "result", "--db", db, "1", str(board), "0-1" if board % 2 else "1-0")
    paths = [tmp_path / "b16.trf", tmp_path / "b26.trf"]
    _run(capsys, "export", "--db", db, "--trf", str(paths[0]))
    _run(capsys, "export", "--db", db, "--trf", str(paths[1]), "--trf2026")
    assert "\rXXA    1  1.0  1.0  0.5  0.0  0.0" in paths[0].read_bytes().decode("latin-1")
    assert "192 FIDE_DUTCH_2025_BAKU" in paths[1].read_bytes().decode("latin-1")
    round2 = _boards(_run(capsys, "pair", "--db", db))
    for path in paths:
        _same_as_bbp(bbp, path, round2)
