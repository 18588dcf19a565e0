"""Correspondence games through the layers above the clock: the profiles that play them, the
arbiter's flag (Art. 6.9), the log's replay and the store, and a live game dated by the wall
clock, whose deadline a restart does not move."""

from __future__ import annotations

from pathlib import Path

import pytest

from chessarbiter.arbiter import FlagObserved, Game, Moved, from_jsonl, to_jsonl
from chessarbiter.arbiter.scoresheet import to_pgn
from chessarbiter.clock import Side, correspondence
from chessarbiter.clock.correspondence import DAY
from chessarbiter.core.position import STARTING_FEN
from chessarbiter.laws.endings import Result, Termination
from chessarbiter.laws.profiles import FIDE_2023, ONLINE, PROFILES, USCF, profile_for
from chessarbiter.session.live import LiveGame
from chessarbiter.store import Recording, SqliteStore
from tests.clock.fake_time import FakeTime

HOUR = 3_600_000
W, B = Side.WHITE, Side.BLACK


def test_only_a_servers_profile_plays_correspondence() -> None:
    assert [name for name, p in PROFILES.items() if p.plays_correspondence] == ["online"]
    assert profile_for(correspondence(3)) is ONLINE  # "auto"
    for profile in (FIDE_2023, USCF):
        with pytest.raises(ValueError, match=r"does not play correspondence.*Art\. 6\.8"):
            Game(profile, correspondence(3))


def opened(days: int = 2, fen: str | None = None) -> Game:
    """An online correspondence game after 1. e4 e5 (its deadlines running from then)."""
    game = Game(ONLINE, correspondence(days), fen=fen or STARTING_FEN)
    game.apply(Moved(HOUR, W, "e2e4" if fen is None else "e1e2"))
    game.apply(Moved(2 * HOUR, B, "e7e5" if fen is None else "e8e7"))
    return game


def test_a_missed_deadline_loses() -> None:
    game = opened()
    assert game.time_to_flag() == 2 * DAY
    game.apply(Moved(2 * HOUR + DAY, W, "g1f3"))  # a day used: Black's turn, 2 days
    assert game.clock_ms() == (2 * DAY, 2 * DAY)
    late = 2 * HOUR + 3 * DAY + 1
    game.apply(FlagObserved(late))
    assert game.outcome is not None
    assert (game.outcome.result, game.outcome.termination) == (Result.WHITE_WINS,
                                                               Termination.TIME_FORFEIT)


def test_a_missed_deadline_against_a_bare_king_draws() -> None:
    """Art. 6.9: the flag falls, but the opponent cannot checkmate."""
    game = opened(fen="4k3/8/8/8/8/8/8/4K2R w - - 0 1")
    game.apply(Moved(3 * HOUR, W, "h1h8"))
    game.apply(FlagObserved(3 * HOUR + 2 * DAY))
    assert game.outcome is not None and game.outcome.result is Result.WHITE_WINS
    game = opened(fen="4k3/8/8/8/8/8/8/4K2R w - - 0 1")
    game.apply(FlagObserved(2 * HOUR + 2 * DAY))  # White's flag: a bare king cannot mate
    assert game.outcome is not None
    assert (game.outcome.result, game.outcome.termination) == (Result.DRAW,
                                                               Termination.TIME_FORFEIT)


def test_the_log_and_the_store_give_the_same_game(tmp_path: Path) -> None:
    game = opened(days=5)
    game.apply(Moved(2 * HOUR + 4 * DAY, W, "g1f3"))
    again = from_jsonl(to_jsonl(game))
    assert again.setup == game.setup and again.state() == game.state()
    store = SqliteStore(tmp_path / "games.sqlite")
    recorder = Recording(store, store.create(Game(ONLINE, correspondence(5))), game)
    for event in game.log:
        recorder.append(event)
    loaded = store.load(recorder.game_id)
    assert loaded.state() == game.state()
    assert loaded.time_to_flag() == 5 * DAY
    assert "TimeControl" not in to_pgn(loaded)  # PGN has no form for a deadline
    store.close()


def test_a_dated_live_game_keeps_its_deadline_over_a_restart(tmp_path: Path) -> None:
    """Game time counted from the game's start on the wall clock: the days the program
    was away count, so the deadline stays where it was; the flag is dated when it fell."""
    wall = FakeTime(1_700_000_000_000)
    created = wall.ms
    live = LiveGame(Game(ONLINE, correspondence(1)), wall, epoch=created)
    wall.advance(HOUR)
    live.move(W, "e4")
    wall.advance(HOUR)
    live.move(B, "e5")
    deadline = created + 2 * HOUR + DAY
    wall.advance(20 * HOUR)  # the program stops here; five hours later it starts again
    wall.advance(5 * HOUR)
    resumed = LiveGame(from_jsonl(to_jsonl(live.game)), wall, epoch=created)
    assert resumed.flag_fallen()
    assert resumed.observe_flag()
    outcome = resumed.game.outcome
    assert outcome is not None and outcome.result is Result.BLACK_WINS
    assert resumed.game.state().flags[0].at_ms == deadline - created
    undated = LiveGame(from_jsonl(to_jsonl(live.game)), wall)  # a clock game's resumption
    assert not undated.flag_fallen()
