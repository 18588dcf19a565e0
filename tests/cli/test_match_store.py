"""``match`` stores every finished game beside its PGN (SQLite by default, or a folder of
journals), each game loading back to the scoresheet the PGN file holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from chessarbiter.arbiter.scoresheet import to_pgn
from chessarbiter.cli.main import main
from chessarbiter.store import open_store
from tests.store.failing import FailingStore


@pytest.mark.parametrize("store", [None, "journals/"])
def test_the_match_games_are_stored_and_load_as_their_pgn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], store: str | None
) -> None:
    pgn = tmp_path / "out" / "m.pgn"
    where = f"{tmp_path / store}" + "/" if store else str(tmp_path / "out" / "games.sqlite")
    extra = ["--store", where] if store else []
    code = main(["match", "--games", "2", "--tc", "0.1+0.05", "--pgn", str(pgn), "--engine",
                 "engine:1", "--engine", "engine:1", "--seed", "5", *extra])
    capsys.readouterr()
    assert code == 0
    games = open_store(where)
    listed = games.games()
    loaded = [games.load(info.game_id) for info in listed]
    games.close()
    assert len(listed) == 2 and all(info.outcome is not None for info in listed)
    text = pgn.read_text()
    assert all(to_pgn(game) in text for game in loaded)
    assert {game.setup.tags["Round"] for game in loaded} == {"1", "2"}


def test_a_store_that_cannot_be_opened_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.sqlite"
    bad.write_text("not a database " * 100)
    code = main(["match", "--games", "1", "--pgn", str(tmp_path / "m.pgn"), "--store", str(bad)])
    assert code == 2
    assert "--store: " in capsys.readouterr().err


def test_a_store_that_fails_stops_the_match_with_one_line_and_keeps_its_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import chessarbiter.store

    def failing(text: str) -> FailingStore:  # the second game cannot be stored
        return FailingStore(Path(text), fail_at=2)

    monkeypatch.setattr(chessarbiter.store, "open_store", failing)
    pgn = tmp_path / "m.pgn"
    code = main(["match", "--games", "4", "--tc", "0.1+0.05", "--pgn", str(pgn), "--engine",
                 "engine:1", "--engine", "engine:1", "--seed", "5"])
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert code == 1
    assert err.startswith("chessarbiter match: error: --store: ") and "disk I/O error" in err
    assert f"the games played so far are in {pgn}" in err
    monkeypatch.undo()
    games = open_store(str(tmp_path / "games.sqlite"))
    [stored] = [games.load(info.game_id) for info in games.games()]
    games.close()
    text = pgn.read_text()
    # the game that could not be stored is not in the PGN either, nor any game after it
    assert text.count("[Event ") == 1 and text.startswith(to_pgn(stored))


def test_a_refused_match_leaves_the_pgn_as_it_was_and_a_rerun_appends(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pgn = tmp_path / "m.pgn"
    earlier = ('[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n'
               "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n")
    pgn.write_text(earlier)
    notes = tmp_path / "notes.txt"
    notes.write_text("a text file, not a database\n")
    args = ["match", "--games", "1", "--tc", "0.1+0.05", "--pgn", str(pgn), "--engine",
            "engine:1", "--engine", "engine:1", "--seed", "5"]
    assert main([*args, "--store", str(notes)]) == 2
    assert "--store" in capsys.readouterr().err
    assert pgn.read_text() == earlier
    assert notes.read_text() == "a text file, not a database\n"
    missing = tmp_path / "never.pgn"  # nor is a PGN file created for a refused match
    assert main([*args[:-6], "--pgn", str(missing), *args[-5:], "--store", str(notes)]) == 2
    assert not missing.exists()
    assert main(args) == 0
    capsys.readouterr()
    text = pgn.read_text()
    assert text.startswith(earlier) and text.count("[Result ") == 2
