"""The journal: a crash between an event and its newline keeps the event; a cut line is
dropped; a file holding no journal is refused and left untouched; names never collide."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from chessarbiter.arbiter.game import Game
from chessarbiter.cli.main import build_parser
from chessarbiter.cli.play_cmd import build
from chessarbiter.clock import Side
from chessarbiter.session.live import LiveGame
from chessarbiter.store.journal import Journal, JournalError
from tests.clock.fake_time import FakeTime

S = 1000


def played(path: Path) -> Game:
    """A journalled game of two moves, closed as a crash would leave it."""
    time = FakeTime()
    game = Game()
    live = LiveGame(game, now=time, journal=Journal.create(path, game))
    live.move(Side.WHITE, "e4")
    time.advance(3 * S)
    live.move(Side.BLACK, "e5")
    live.close()
    return live.game


def test_a_complete_last_event_without_its_newline_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    game = played(path)
    path.write_text(path.read_text().removesuffix("\n"))  # the crash came before the newline
    resumed, journal, cut = Journal.resume(path)
    assert not cut and resumed.state() == game.state() and len(resumed.records) == 2
    assert path.read_text().endswith("}\n")  # the newline is restored before appending
    LiveGame(resumed, now=FakeTime(4 * S), journal=journal).move(Side.WHITE, "Nf3")
    journal.close()
    again, journal, cut = Journal.resume(path)
    journal.close()
    assert not cut and len(again.records) == 3


@pytest.mark.parametrize("tail", ['{"kind": "move", "at_ms": 9', '{"kind": "mo', "{", " "])
def test_a_cut_last_line_is_dropped(tmp_path: Path, tail: str) -> None:
    path = tmp_path / "game.jsonl"
    game = played(path)
    whole = path.read_text()
    path.write_text(whole + tail)
    resumed, journal, cut = Journal.resume(path)
    journal.close()
    assert cut and resumed.state() == game.state() and path.read_text() == whole


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "empty game log"),
        (b'{"version": 1, "setup": {"pro', "empty game log"),  # the header itself cut
        (b"# Notes\n\nno journal, no final newline", "line 1: not JSON"),
        (b'{"version": 1, "setup": []}', "setup: expected an object"),
        (b"\xff\xfe", "not UTF-8"),
    ],
)
def test_a_file_holding_no_journal_is_refused_and_left_untouched(
    tmp_path: Path, content: bytes, reason: str
) -> None:
    path = tmp_path / "notes.md"
    path.write_bytes(content)
    with pytest.raises(JournalError, match=reason) as info:
        Journal.resume(path)
    assert str(info.value).startswith(f"{path}: ")
    assert path.read_bytes() == content


def test_a_missing_file_or_a_folder_is_a_journal_error(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="cannot be read"):
        Journal.resume(tmp_path / "missing.jsonl")
    with pytest.raises(JournalError, match="cannot be read"):
        Journal.resume(tmp_path)


def test_unique_names_skip_taken_journals_and_pgn_files(tmp_path: Path) -> None:
    first = Journal.create_unique(tmp_path, "game-1", Game())
    (tmp_path / "game-1-2.pgn").write_text("a game whose journal was deleted")
    second = Journal.create_unique(tmp_path, "game-1", Game())
    first.close()
    second.close()
    assert (first.path.name, second.path.name) == ("game-1.jsonl", "game-1-3.jsonl")
    assert (tmp_path / "game-1-2.pgn").read_text() == "a game whose journal was deleted"


def test_two_games_started_at_once_get_their_own_files(tmp_path: Path) -> None:
    args: argparse.Namespace = build_parser().parse_args(
        ["play", "--white", "human", "--black", "human", "--dir", str(tmp_path), "--store",
         f"{tmp_path}/"]
    )
    plays = [build(args) for _ in range(3)]  # within the same second, or not: never shared
    paths = [Path(play.live.journal.where) for play in plays if play.live.journal is not None]
    pgns = {play.pgn_path for play in plays}
    for play in plays:
        play.live.close()
    assert len(set(paths)) == 3 == len(pgns) and all(p.exists() for p in paths)
