"""``play`` stores its game: SQLite by default, JSON lines in a folder; ``--resume`` takes a
game id of the store or a journal file; ``--list`` lists the store's games."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

import chessarbiter
from chessarbiter.arbiter.scoresheet import to_pgn
from chessarbiter.cli.main import build_parser, main
from chessarbiter.cli.play_cmd import build
from chessarbiter.clock import Side
from chessarbiter.session.play import Play
from chessarbiter.store import SqliteStore
from tests.cli.test_bad_input import run
from tests.store.failing import FailingStore

HUMANS = ["play", "--white", "human", "--black", "human", "--tc", "none"]


def built(*args: str) -> Play:
    return build(build_parser().parse_args([*HUMANS, *args]))


def moves(play: Play) -> list[str]:
    return [getattr(event, "uci", "") for event in play.live.game.log]


def command(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    source = str(Path(chessarbiter.__file__).parents[1])
    return subprocess.run([sys.executable, "-m", "chessarbiter.cli.main", *args], cwd=cwd,
                          env=os.environ | {"PYTHONPATH": source}, capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL)


def test_a_game_goes_to_the_default_sqlite_store_and_resumes_by_id(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    play = built("--dir", str(folder))
    play.live.move(Side.WHITE, "e4")
    play.close()
    store = SqliteStore(folder / "games.sqlite")
    [info] = store.games()
    store.close()
    assert play.pgn_path == folder / f"games-{info.game_id}.pgn" and play.pgn_path.exists()
    again = built("--dir", str(folder), "--resume", info.game_id)
    again.live.move(Side.BLACK, "e5")
    again.close()
    final = built("--dir", str(folder), "--resume", info.game_id)
    final.live.close()
    assert moves(final) == ["e2e4", "e7e5"]


def test_a_folder_store_keeps_journals_that_resume_by_file(tmp_path: Path) -> None:
    play = built("--dir", str(tmp_path), "--store", f"{tmp_path / 'journals'}/")
    play.live.move(Side.WHITE, "d4")
    play.close()
    [journal] = (tmp_path / "journals").glob("*.jsonl")
    assert play.pgn_path == journal.with_suffix(".pgn")
    again = built("--resume", str(journal))
    again.live.close()
    assert moves(again) == ["d2d4"]


def test_list_shows_ids_players_and_outcomes(tmp_path: Path) -> None:
    play = built("--dir", str(tmp_path / "games"))
    play.live.move(Side.WHITE, "e4")
    play.live.resign(Side.BLACK)
    play.close()
    built("--dir", str(tmp_path / "games")).close()
    out = command(tmp_path, "play", "--list")
    assert out.returncode == 0, out.stderr
    lines = [line.split("\t") for line in out.stdout.splitlines()]
    assert [(line[0], line[2]) for line in lines] == [("1", "Human - Human"),
                                                        ("2", "Human - Human")]
    assert "1-0" in lines[0][3] and lines[1][3] == "unfinished"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--resume", "7"], "--resume: no game 7: games/games.sqlite does not exist"),
        (["--resume", "7", "--store", "x/"], "--resume: no game 7: x/ does not exist"),
        (["--store", "bad.sqlite", "--list"], "--store: bad.sqlite: not a game store"),
    ],
)
def test_a_missing_game_or_a_bad_store_is_one_line(
    tmp_path: Path, args: list[str], message: str
) -> None:
    (tmp_path / "bad.sqlite").write_text("no database here " * 100)
    err = run(tmp_path, "play", *args)
    assert err.startswith(f"chessarbiter play: error: {message}"), err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.sqlite"]  # nothing created


def test_a_store_failure_stops_play_with_one_line_and_the_game_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import chessarbiter.store

    def failing(text: str) -> FailingStore:  # the game, its clocks, 1.(engine): then none
        return FailingStore(Path(text), fail_at=4)

    engine = ["play", "--white", "engine:1", "--black", "human", "--accessible", "--seed", "1",
              "--dir", str(tmp_path)]
    with monkeypatch.context() as patched:
        patched.setattr(chessarbiter.store, "open_store", failing)
        patched.setattr("sys.stdin", io.StringIO("Nf6\nNc6\n"))
        code = main(engine)
    out, err = capsys.readouterr()
    assert code == 1
    assert err.startswith("chessarbiter play: error: cannot record the game: ")
    assert err.count("\n") == 1 and "disk I/O error" in err and "games.sqlite game 1" in err
    assert "forfeit" not in out and "illegal" not in out
    stored = SqliteStore(tmp_path / "games.sqlite")
    [info] = stored.games()
    game = stored.load("1")
    stored.close()
    assert info.outcome is None and len(game.records) == 1  # the engine's move, kept
    assert (tmp_path / "games-1.pgn").read_text() == to_pgn(game)
    monkeypatch.setattr("sys.stdin", io.StringIO("Nf6\nresign\n"))
    assert main([*engine, "--resume", "1"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "game resumed after white: " in out
    assert "game over: white wins by resignation" in out


@pytest.mark.parametrize("store", [None, "kept.sqlite", "journals/"])
def test_list_of_a_store_that_does_not_exist_creates_nothing(tmp_path: Path,
                                                              store: str | None) -> None:
    out = command(tmp_path, "play", "--list", *(["--store", store] if store else []))
    named = store or str(Path("games") / "games.sqlite")
    assert out.returncode == 0 and out.stdout == "", out.stderr
    assert out.stderr == f"no stored games: {named} does not exist\n"
    assert list(tmp_path.iterdir()) == []  # no folder, no empty database


def test_list_of_an_empty_store_says_so(tmp_path: Path) -> None:
    SqliteStore(tmp_path / "games" / "games.sqlite").close()
    out = command(tmp_path, "play", "--list")
    assert out.returncode == 0 and out.stdout == ""
    assert out.stderr == f"no stored games in {Path('games') / 'games.sqlite'}\n"


@pytest.mark.parametrize("extra", [[], ["--list"]])
def test_a_dir_that_is_a_file_is_not_a_folder(tmp_path: Path, extra: list[str]) -> None:
    (tmp_path / "notes.txt").write_text("my notes\n")
    err = run(tmp_path, "play", "--dir", "notes.txt", *extra)
    assert err == "chessarbiter play: error: --dir: notes.txt: not a folder\n"
    assert (tmp_path / "notes.txt").read_text() == "my notes\n"


def test_the_engine_plays_into_a_folder_of_journals(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("Nf6\nNc6\nresign\n"))
    code = main(["play", "--white", "engine:1", "--black", "human", "--accessible", "--seed",
                 "2", "--store", f"{tmp_path / 'journals'}/"])
    out = capsys.readouterr().out
    assert code == 0 and "forfeit" not in out and "game over: white wins by resignation" in out
    [journal] = (tmp_path / "journals").glob("*.jsonl")
    again = built("--resume", str(journal))
    again.live.close()
    assert len(again.live.game.records) == 5  # the engine's three moves, the person's two
    assert journal.with_suffix(".pgn").read_text() == to_pgn(again.live.game)
