"""A director's session typed as a director types it, from ``create`` to ``export``:
fourteen players over seven rounds with a late entry, a withdrawal, a half-point bye asked
by name prefix, forfeits (``+-``, ``-+``, a double forfeit ``--``), draws typed ``=``,
``½`` and ``1/2``, a correction that names the round paired since; the exported TRF files
(TRF-16 and TRF-2026) accepted by ``tournament check`` and by bbpPairings's checker."""

from __future__ import annotations

from pathlib import Path

import pytest

from chessarbiter.cli.main import main
from chessarbiter.tournament.trf import parse, validate
from tests.tournament.bbp import Bbp

RESULTS = ["1-0", "=", "0-1", "½", "1/2", "1-0", "0-1"]


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code = main(["tournament", *args])
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


def _session(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    db = str(tmp_path / "club.sqlite")

    def run(*args: str) -> str:
        return _run(capsys, args[0], "--db", db, *args[1:])

    run("create", "Club Open", "--rounds", "7")
    names = ["Greta Example", "Anna Berg", "Bruno Carr", "Chloe Dunn", "Dmitri Egan",
             "Elena Frost", "Farid Gale", "Hana Ito", "Ivan Jung", "Jana Kerr", "Karl Lund",
             "Lena Moss", "Milo Nash"]
    for index, name in enumerate(names):
        assert "start number" in run("add", name, "--rating", str(2300 - 37 * index))
    for round_no in range(1, 8):
        if round_no == 2:  # a late entry, the lowest rated: nobody's number moves
            assert "start number 14" in run("add", "Nora Late", "--rating", "1500")
        if round_no == 3:
            assert "Greta Example: half-point bye in round 3" in run("bye", "Greta")
        if round_no == 5:
            assert "withdrawn from round 5" in run("withdraw", "Karl")
        shown = run("pair").splitlines()
        assert shown[0] == f"Round {round_no}"
        boards = [line for line in shown[1:] if line.split()[0].rstrip(".").isdigit()
                  and line.split()[0].endswith(".")]
        for board in range(1, len(boards) + 1):
            result = RESULTS[(board + round_no) % len(RESULTS)]
            if (round_no, board) == (2, 3):
                result = "-+"
            if (round_no, board) == (4, 2):
                result = "+-"
            if (round_no, board) == (6, 4):
                result = "--"
            args = ["result", str(round_no), str(board)]
            args += ["--", result] if result.startswith("-") and round_no == 6 else [result]
            run(*args)
        if round_no == 2:  # a correction of round 1 once round 2 is paired
            note = run("result", "1", "1", "=")  # entered 0-1 above
            assert "note: round 2 was paired with this game at 0-1" in note
            assert "note" not in run("result", "1", "1", "0-1")  # as round 2 used it
    standings = run("standings").splitlines()
    assert standings[0].split()[:6] == ["Pl", "No", "Name", "Rtg", "Pts", "BH-C1"]
    numbers = [word for line in standings[1:] for word in line.split()[-4:]]
    assert all("." in word and "½" not in word for word in numbers)  # one number format
    for flag, name in (("", "club.trf"), ("--trf2026", "club2026.trf")):
        run("export", "--trf", str(tmp_path / name), *([flag] if flag else []))
    return tmp_path


def test_director_session(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                          bbp: Bbp) -> None:
    folder = _session(tmp_path, capsys)
    for name in ("club.trf", "club2026.trf"):
        path = folder / name
        trf = parse(path.read_bytes().decode("latin-1"))
        validate(trf)
        assert len(trf.players) == 14 and max(len(p.cells) for p in trf.players) == 7
        assert main(["tournament", "check", str(path)]) == 0
        assert "7 of 7 rounds" in capsys.readouterr().out
        accepted, said = bbp.accepts(path)
        assert accepted, said
