"""``chessarbiter serve`` refuses a cluster it cannot make, in one line with exit code 2: a
bus without a shared (PostgreSQL) database, an advertised address without a bus, a database
that does not answer (named without its password)."""

from __future__ import annotations

from pathlib import Path

import pytest

from chessarbiter.cli.main import main


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--db", "games.sqlite", "--bus", "redis://127.0.0.1:6379/0"],
         "--bus: a cluster needs a shared database: --db postgresql://"),
        (["--advertise", "127.0.0.1:9000"], "--advertise: only with --bus"),
        (["--db", "postgresql://someone:secret-word@127.0.0.1:1/nothing"],
         "--db: postgresql://someone@127.0.0.1:1/nothing: cannot open"),
    ],
)
def test_a_cluster_that_cannot_be_made_is_refused_in_one_line(
    argv: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["serve", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "secret-word" not in err and err.count("\n") == 1
    assert not (tmp_path / "games.sqlite").exists()
