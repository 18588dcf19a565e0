"""``chessarbiter tournament``: a round robin and a Swiss run from the command line on a
SQLite database, and bad input refused in one line with exit code 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from chessarbiter.cli.main import main
from chessarbiter.tournament.trf import parse


def cli(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> str:
    code = main(["tournament", args[0], "--db", str(db), *args[1:]])
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


def refused(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> str:
    code = main(["tournament", args[0], "--db", str(db), *args[1:]])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    return err


def test_round_robin_session(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite"
    assert cli(capsys, db, "create", "Club", "--system", "roundrobin").strip() == "1"
    for name, rating in (("Ann", 1900), ("Bob", 1800), ("Cid", 1700), ("Dan", 1600)):
        assert "start number" in cli(capsys, db, "add", name, "--rating", str(rating))
    out = cli(capsys, db, "pair")
    assert out.splitlines()[1].split()[1:3] == ["1", "Ann"]  # Berger round 1: 1-4, 2-3
    cli(capsys, db, "result", "1", "1", "1-0")
    cli(capsys, db, "result", "1", "2", "½-½")
    cli(capsys, db, "result", "1", "2", "0-1")  # corrected
    standings = cli(capsys, db, "standings").splitlines()
    assert standings[0].split()[:5] == ["Pl", "No", "Name", "Rtg", "Pts"]
    assert "Ann" in standings[1] and "Cid" in standings[2]  # tied on every tie-break:
    assert standings[1].split()[0] == "1" and standings[2].split()[0] == "3"  # one place
    grid = cli(capsys, db, "crosstable").splitlines()
    assert "X" in grid[1] and grid[1].split()[-1] == "1.0"
    cli(capsys, db, "export", "--trf", str(tmp_path / "t.trf"), "--pgn",
        str(tmp_path / "r1.pgn"))
    raw = (tmp_path / "t.trf").read_bytes().decode()
    assert "\n" not in raw and raw.count("\r") == 8  # TRF's CR line ends
    trf = parse(raw)
    assert [str(p.points) for p in trf.players] == ["1", "0", "1", "0"]
    assert (tmp_path / "r1.pgn").read_text().count('[Result "1-0"]') == 1
    listing = cli(capsys, db, "list")
    assert "Club" in listing


def test_swiss_byes_and_withdrawals(tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Requests and withdrawals are shown, refused when wrong; results need the round."""
    db = tmp_path / "t.sqlite"
    cli(capsys, db, "create", "Open", "--rounds", "3", "--tiebreaks", "BH,SB")
    for number in range(1, 6):
        cli(capsys, db, "add", f"P{number}", "--rating", str(2000 - number))
    cli(capsys, db, "bye", "P5", "--points", "half")
    assert "P1" in cli(capsys, db, "withdraw", "1")
    assert "withdrawn already" in refused(capsys, db, "withdraw", "P1")
    err = refused(capsys, db, "bye", "P9")
    assert "player 'P9': no such player" in err


@pytest.mark.parametrize(("args", "message"), [
    (("create", "X", "--system", "swiss"), "rounds None: a Swiss needs at least 1"),
    (("create", "X", "--rounds", "3", "--tiebreaks", "BH,NOPE"), "tie-break 'NOPE'"),
    (("create", "X", "--rounds", "3", "--scoring", "W3"), "--scoring: 'W3'"),
    (("create", "X", "--rounds", "3", "--scoring", "W=x"), "points 'x' is not a number"),
    (("standings",), "no tournament (create one first)"),
])
def test_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                   message: str) -> None:
    assert message in refused(capsys, tmp_path / "t.sqlite", *args)


def test_bad_results(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.sqlite"
    cli(capsys, db, "create", "RR", "--system", "roundrobin")
    for name in ("A", "B", "C"):
        cli(capsys, db, "add", name)
    assert "round 1: not paired" in refused(capsys, db, "result", "1", "1", "1-0")
    cli(capsys, db, "pair")
    assert "board 2: round 1 has boards 1-1" in refused(capsys, db, "result", "1", "2", "1-0")
    assert "result '2-0'" in refused(capsys, db, "result", "1", "1", "2-0")
    assert "round 1 has results missing" in refused(capsys, db, "pair")
    assert "late entries" in refused(capsys, db, "add", "D")
    assert "--trf FILE" in refused(capsys, db, "export")
    folder = tmp_path / "folder"
    folder.mkdir()
    assert "--trf:" in refused(capsys, db, "export", "--trf", str(folder))


def test_not_a_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "x.sqlite"
    bad.write_bytes(b"not sqlite at all" * 100)
    assert "--db:" in refused(capsys, bad, "list")


def test_swiss_session_rechecked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Seven players, four rounds: a half-point bye asked for round 1, a withdrawal and a
    late entry (who becomes number 1 by rating) after it, a forfeit in round 3. The exported
    TRF file is re-paired round by round by ``tournament check``: no discrepancy."""
    db = tmp_path / "t.sqlite"
    cli(capsys, db, "create", "Open", "--rounds", "4")
    for number in range(1, 8):
        cli(capsys, db, "add", f"P{number}", "--rating", str(2000 - 10 * number))
    cli(capsys, db, "bye", "P3")
    results = {1: ["1-0"] * 3, 2: ["1/2-1/2"] * 3, 3: ["+-", "0-1", "1-0"], 4: ["0-1"] * 3}
    for round_no, entered in results.items():
        if round_no == 2:
            cli(capsys, db, "withdraw", "P7")
            assert "start number 1" in cli(capsys, db, "add", "Late", "--rating", "1995")
        shown = cli(capsys, db, "pair")
        assert shown.startswith(f"Round {round_no}")
        for board, result in enumerate(entered, 1):
            cli(capsys, db, "result", str(round_no), str(board), result)
    chart = cli(capsys, db, "crosstable").splitlines()
    assert len(chart) == 9 and chart[-1].split()[2:] == ["P7", "5b0", "Z", "Z", "Z", "0.0"]
    trf = tmp_path / "open.trf"
    cli(capsys, db, "export", "--trf", str(trf))
    assert main(["tournament", "check", str(trf)]) == 0
    assert "0 with discrepancies" in capsys.readouterr().out


def test_baku_acceleration_exported_and_rechecked(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A Baku-accelerated Swiss (C.04.5.1) of eight: the file names the acceleration
    (``FIDE_DUTCH_2025_BAKU``), so the checker re-pairs it as it was paired."""
    db = tmp_path / "t.sqlite"
    cli(capsys, db, "create", "Baku", "--rounds", "3", "--acceleration", "baku")
    for number in range(1, 9):
        cli(capsys, db, "add", f"P{number}", "--rating", str(2000 - 10 * number))
    for round_no in (1, 2, 3):
        cli(capsys, db, "pair")
        for board in range(1, 5):
            cli(capsys, db, "result", str(round_no), str(board), "1-0" if board % 2 else "0-1")
    trf = tmp_path / "baku.trf"
    cli(capsys, db, "export", "--trf", str(trf))
    assert "FIDE_DUTCH_2025_BAKU" in trf.read_text()
    assert main(["tournament", "check", str(trf)]) == 0
    assert "0 with discrepancies" in capsys.readouterr().out


def test_wide_fields_and_one_number_format() -> None:
    """1,200 players: place and start number stay apart; points and tie-breaks are all
    decimals, as many places as the column needs (no ``27½`` beside ``13.75``)."""
    from fractions import Fraction

    from chessarbiter.cli.tournament_text import column, standings_table
    from chessarbiter.tournament.records import Entrant
    from chessarbiter.tournament.standings import Standing

    rows = [Standing(n, Entrant(n, f"Player {n}", 2000), Fraction(9 - n % 9, 2),
                     (Fraction(55, 2), Fraction(55, 4))) for n in range(1, 1201)]
    lines = standings_table(rows, ["BH", "SB"]).splitlines()
    assert lines[-1].split()[:4] == ["1200", "1200", "Player", "1200"]
    assert lines[1].split()[-3:] == ["4.0", "27.5", "13.75"]
    assert column([Fraction(3), Fraction(5, 2)]) == ["3.0", "2.5"]


def test_results_as_a_director_types_them(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """``-+`` and ``--`` without ``--`` before them, ``½``, ``1/2``; players by a name's
    beginning, refused when two names begin so."""
    db = tmp_path / "t.sqlite"
    cli(capsys, db, "create", "Open", "--rounds", "2")
    for name, rating in (("Greta One", 2000), ("Gregor Two", 1900), ("Ann", 1800),
                         ("Bo", 1700)):
        cli(capsys, db, "add", name, "--rating", str(rating))
    assert "more than one player (Gregor Two, Greta One)" in refused(capsys, db, "bye", "gre")
    assert "Greta One: withdrawn" in cli(capsys, db, "withdraw", "greta")
    cli(capsys, db, "pair")
    assert "-+" in cli(capsys, db, "result", "1", "1", "-+")
    assert main(["tournament", "result", "--db", str(db), "1", "1", "--", "--"]) == 0
    assert " -- " in capsys.readouterr().out
    for typed in ("½", "1/2", "="):
        assert "1/2-1/2" in cli(capsys, db, "result", "1", "1", typed)


@pytest.mark.parametrize(("given", "stored"), [(None, "2024"), ("2023", "2023"),
                                               ("virtual", "virtual"), ("dummy", "2024")])
def test_each_reading_of_unplayed_rounds_can_be_chosen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], given: str | None, stored: str
) -> None:
    from chessarbiter.store.tournaments import TournamentStore

    db = tmp_path / "t.sqlite"
    cli(capsys, db, "create", "Open", "--rounds", "3",
        *(("--unplayed", given) if given else ()))
    store = TournamentStore(db)
    try:
        [created, *_] = store.events(1)
    finally:
        store.close()
    assert created.data["settings"]["unplayed"] == stored
