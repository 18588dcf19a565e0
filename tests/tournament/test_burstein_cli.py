"""The Burstein system as a director uses it: ``tournament create --system burstein`` and a
session to the export, accepted by bbpPairings's Burstein checker and by ``tournament
check``; ``tournament pair FILE --burstein`` (a process, as typed) pairing a file's next
round as bbpPairings ``--burstein`` does, the file's own ``092`` naming the system when no
flag is given, ``--dutch`` overriding it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import chessarbiter
from chessarbiter.cli.main import main
from chessarbiter.clock import Side
from chessarbiter.tournament.records import Pairing
from chessarbiter.tournament.swiss.replay import rounds_of
from chessarbiter.tournament.trf import parse
from tests.tournament.bbp import Bbp, before_round

RESULTS = ["1-0", "=", "0-1", "1-0", "0-1", "="]


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code = main(["tournament", *args])
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


def test_burstein_session_to_export(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                    bbp: Bbp) -> None:
    db = str(tmp_path / "club.sqlite")

    def run(*args: str) -> str:
        return _run(capsys, args[0], "--db", db, *args[1:])

    run("create", "Burstein Open", "--system", "burstein", "--rounds", "5")
    for index in range(11):  # odd: a bye every round
        run("add", f"Player {chr(65 + index)}", "--rating", str(2200 - 40 * index))
    for round_no in range(1, 6):
        if round_no == 3:
            assert "half-point bye in round 3" in run("bye", "Player C")
        shown = run("pair").splitlines()
        boards = [line for line in shown[1:] if line.split()[0].endswith(".")
                  and line.split()[0].rstrip(".").isdigit()]
        assert shown[0] == f"Round {round_no}" and len(boards) == 5
        for board in range(1, len(boards) + 1):
            result = "+-" if (round_no, board) == (2, 2) else RESULTS[(board + round_no) % 6]
            run("result", str(round_no), str(board), result)
    export = tmp_path / "club.trf"
    run("export", "--trf", str(export))
    trf = parse(export.read_bytes().decode("latin-1"))
    assert "BURSTEIN" in trf.system and rounds_of(trf) == 5
    accepted, said = bbp.accepts(export, system="burstein")
    assert accepted, said
    assert not bbp.accepts(export, system="dutch")[0]  # the checker tells the systems apart
    assert main(["tournament", "check", str(export)]) == 0
    assert "5 of 5 rounds as the rules give them; 0 with discrepancies" in \
        capsys.readouterr().out


def _pair_file(path: Path, out: Path, *flags: str) -> Pairing:
    """``chessarbiter tournament pair FILE -o OUT FLAGS`` as a process; the round it wrote."""
    source = str(Path(chessarbiter.__file__).parents[1])
    done = subprocess.run([sys.executable, "-m", "chessarbiter.cli.main", "tournament", "pair",
                           str(path), "-o", str(out), *flags], capture_output=True, text=True,
                          env=os.environ | {"PYTHONPATH": source}, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    written = parse(out.read_bytes().decode("latin-1"))
    last = rounds_of(written)
    boards = {(p.entrant.start, p.cells[last - 1].opponent) for p in written.players
              if len(p.cells) >= last and p.cells[last - 1].side is Side.WHITE}
    bye = next((p.entrant.start for p in written.players if len(p.cells) >= last
                and p.cells[last - 1].code.value == "U"), None)
    return Pairing(tuple(sorted((w, b) for w, b in boards if b is not None)), bye)


def test_pair_file_by_either_system(tmp_path: Path, bbp: Bbp) -> None:
    generated = None
    seed = 4100
    while generated is None:
        seed += 1
        generated = bbp.generate(seed, 23, 6, system="burstein")
    trf = parse(generated.read_bytes().decode("latin-1"))
    text = before_round(trf, 5, rounds_of(trf))
    assert "BURSTEIN" in text
    path = tmp_path / "before5.trf"
    path.write_bytes(text.encode("latin-1"))
    theirs = {system: bbp.pair(text, system=system) for system in ("burstein", "dutch")}
    assert theirs["burstein"] != theirs["dutch"]  # the two systems differ on this file

    def unordered(pairing: Pairing) -> Pairing:
        return Pairing(tuple(sorted(pairing.boards)), pairing.bye)

    assert _pair_file(path, tmp_path / "a.trf", "--burstein") == unordered(theirs["burstein"])
    assert _pair_file(path, tmp_path / "b.trf") == unordered(theirs["burstein"])
    assert _pair_file(path, tmp_path / "c.trf", "--dutch") == unordered(theirs["dutch"])
