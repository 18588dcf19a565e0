"""A game's record that fails stops the game: never a refused move nor an engine's fault, the
event taken back, and everything recorded before kept (the store read back agrees with the
game and its PGN). An engine's move is recorded from whatever thread plays it."""

from __future__ import annotations

import contextlib
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from chessarbiter.arbiter.game import Game
from chessarbiter.arbiter.scoresheet import to_pgn
from chessarbiter.clock import Side, parse_human
from chessarbiter.laws.profiles import FIDE_2023, InputMode
from chessarbiter.session.commands import read_command
from chessarbiter.session.live import LiveGame, RecordingError
from chessarbiter.session.play import Play
from chessarbiter.session.players import BuiltinPlayer
from chessarbiter.session.results import Ruling
from chessarbiter.store import EventStore, Recording, SqliteStore
from chessarbiter.store.journal import Journal
from tests.clock.fake_time import FakeTime
from tests.session.test_play import Scripted
from tests.store.failing import FailingStore

PROFILE = replace(FIDE_2023, input_mode=InputMode.DIGITAL)


def stored_table(store: EventStore, engine: Scripted | BuiltinPlayer | None, path: Path,
                 time: FakeTime | None = None) -> Play:
    """Black is ``engine`` (or a person); the game, on ``time``, is recorded in ``store``
    (its clocks started) and saved to ``path / "g.pgn"``."""
    game = Game(PROFILE, parse_human("5+0"))
    game_id = store.create(game)
    live = LiveGame(game, now=time or FakeTime(), journal=Recording(store, game_id, game))
    play = Play(live, {} if engine is None else {Side.BLACK: engine}, pgn_path=path / "g.pgn")
    play.start()
    return play


def act(play: Play, line: str) -> object:
    command = read_command(line)
    assert command is not None
    return play.act(command, play.human_side())


def kept(path: Path) -> str:
    """The scoresheet of the store's game 1, read back by a new store."""
    store = SqliteStore(path)
    try:
        return to_pgn(store.load("1"))
    finally:
        store.close()


def test_an_engine_move_made_in_another_thread_is_recorded(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "games.sqlite")  # its connection opened in this thread
    play = stored_table(store, BuiltinPlayer(1, seed=2), tmp_path)
    act(play, "e4")
    answers: list[object] = []
    worker = threading.Thread(target=lambda: answers.extend(play.engine_move()))
    worker.start()
    worker.join()
    [answer] = answers
    assert isinstance(answer, Ruling) and answer.played is not None
    assert play.live.game.outcome is None and len(play.live.game.records) == 2
    play.close()
    assert kept(tmp_path / "games.sqlite") == (tmp_path / "g.pgn").read_text()
    assert '[Result "*"]' in kept(tmp_path / "games.sqlite")


def test_a_failed_record_of_an_engine_move_stops_the_game(tmp_path: Path) -> None:
    # writes: the game, its clocks started, 1.e4, then the engine's reply fails
    store = FailingStore(tmp_path / "games.sqlite", fail_at=4)
    play = stored_table(store, Scripted(["e7e5"]), tmp_path)
    act(play, "e4")
    before = play.live.game.state()
    with pytest.raises(RecordingError, match=r"cannot record the game: .*disk I/O error.*"
                                             r"everything before is kept in .*games.sqlite game 1"):
        play.engine_move()
    assert not isinstance(play.failure, ValueError)  # never read as a player's error
    assert play.live.game.state() == before and play.live.game.outcome is None
    assert play.engine_to_move() is None
    with pytest.raises(RecordingError):
        act(play, "Nf3")  # nothing more is played: the game has stopped
    with pytest.raises(RecordingError):
        play.engine_move()
    play.close()
    saved = (tmp_path / "g.pgn").read_text()
    assert saved == kept(tmp_path / "games.sqlite")
    assert "1. e4 {" in saved and "e5" not in saved and "forfeit" not in saved


def test_a_failed_record_of_a_person_s_move_is_not_a_refusal(tmp_path: Path) -> None:
    store = FailingStore(tmp_path / "games.sqlite", fail_at=3)  # 1.e4's write fails
    play = stored_table(store, Scripted([]), tmp_path)
    with pytest.raises(RecordingError):
        act(play, "e4")
    assert play.live.game.records == ()
    play.close()
    assert kept(tmp_path / "games.sqlite") == (tmp_path / "g.pgn").read_text()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_journal_on_a_full_disk_stops_the_game_with_its_lines_kept(tmp_path: Path) -> None:
    game = Game(PROFILE, None)
    path = tmp_path / "g.jsonl"
    journal = Journal.create(path, game)
    live = LiveGame(game, now=FakeTime(), journal=journal)
    live.move(Side.WHITE, "d4")
    kept_text = path.read_text()
    journal.close()
    with contextlib.suppress(OSError), Path("/dev/full").open("w", encoding="utf-8") as full:
        live.journal = Journal(path, full)  # the disk is now full (closing it fails too)
        with pytest.raises(RecordingError, match=r"No space left.* kept in .*g\.jsonl"):
            live.move(Side.BLACK, "d5")
    assert [getattr(e, "uci", None) for e in live.game.log] == ["d2d4"]
    assert path.read_text() == kept_text
    resumed, again, _ = Journal.resume(path)
    again.close()
    assert to_pgn(resumed) == to_pgn(live.game)
