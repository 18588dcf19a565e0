"""One contract for every store: what is written is read back as the same game (every event
kind, the analyses read not rerun), games are listed, appends continue after reopening, and
every acknowledged append survives a writer killed with SIGKILL (read meanwhile by another
process, for the SQL stores). PostgreSQL: each test in a schema of its own of the test
database (skipped, saying why, when there is none)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import chessarbiter
from chessarbiter.arbiter.events import (
    ClaimKind,
    DrawClaimed,
    DrawOffered,
    FlagObserved,
    Forfeited,
    OfferAccepted,
    Resigned,
    ResultDeclared,
    TimeAdded,
    Warned,
)
from chessarbiter.arbiter.game import Game
from chessarbiter.clock.records import Side
from chessarbiter.laws.endings import Result
from chessarbiter.laws.profiles import FIDE_2023
from chessarbiter.store import EventStore, JsonlStore, SqliteStore, open_store
from chessarbiter.store.sqlite import MIGRATIONS
from tests.arbiter.driver import MIN, B, Driver, S, W
from tests.arbiter.test_log import rich_game
from tests.services import fresh_schema

STORES = ["sqlite", "jsonl", "postgres"]


def location(tmp_path: Path, kind: str) -> str:
    """Where a store of ``kind`` lives, in :func:`open_store`'s terms."""
    if kind == "postgres":
        return fresh_schema(tmp_path.name)
    return str(tmp_path / "games.sqlite") if kind == "sqlite" else f"{tmp_path / 'games'}/"


def ended_games() -> list[Game]:
    """Games ending by resignation, agreement, a claim, a fallen flag (with its analysis), a
    forfeit and a declared result, time added on the way."""
    games = []
    for end in ("resign", "agree", "claim", "flag", "forfeit", "declare"):
        d = Driver(FIDE_2023, "5+3")
        d.play("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1")
        if end == "resign":
            d.event(Resigned, side=B)
        elif end == "agree":
            d.event(DrawOffered, side=B)
            d.event(OfferAccepted, side=W)
        elif end == "claim":
            d.event(DrawClaimed, side=B, claim=ClaimKind.THREEFOLD, intended="f6g8")
        elif end == "flag":
            d.event(TimeAdded, side=W, ms=2 * S, reason="7.5.5")
            d.event(FlagObserved, dt=10 * MIN)
        elif end == "forfeit":
            d.event(Forfeited, side=W, reason="phone rang")
        else:
            d.event(ResultDeclared, result=Result.DRAW, reason="both agreed to stop")
        games.append(d.game)
    return games


def copy_into(store: EventStore, game: Game) -> str:
    """The game written as it was played: created at its start, then event by event."""
    game_id = store.create(Game.replay(game.setup, (), start=game.start_analysis))
    replayed = Game.replay(game.setup, (), start=game.start_analysis)
    for event in game.log:
        replayed.replay_event(event)
        outcome = replayed.outcome
        store.append(game_id, event, None if outcome is None else str(outcome))
    return game_id


@pytest.fixture(params=STORES)
def where(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return location(tmp_path, request.param)


def test_every_event_kind_round_trips(where: str) -> None:
    games = [rich_game(), *ended_games()]
    store = open_store(where)
    ids = [copy_into(store, game) for game in games]
    store.close()
    store = open_store(where)
    for game_id, game in zip(ids, games, strict=True):
        again = store.load(game_id)
        assert again.log == game.log and again.state() == game.state()
        assert again.setup == game.setup and again.start_analysis == game.start_analysis
    store.close()
    kinds = {e.kind for game in games for e in game.log}
    assert kinds == {"accept", "add-time", "claim", "decline", "declare-result", "flag",
                     "forfeit", "illegal-move", "move", "offer", "resign", "set-clocks",
                     "start-clocks", "stop-clocks", "touch", "warning"}
    assert all(game.outcome is not None for game in games[1:])
    assert any(getattr(e, "analysis", None) is not None for game in games for e in game.log)


def test_games_are_listed_with_tags_and_outcome(where: str) -> None:
    store = open_store(where)
    unfinished = Game(tags={"White": "Ann", "Black": "Bob"})
    first = store.create(unfinished)
    second = copy_into(store, ended_games()[0])
    listed = {info.game_id: info for info in store.games()}
    store.close()
    assert set(listed) == {first, second}
    assert listed[first].tags == {"White": "Ann", "Black": "Bob"}
    assert listed[first].outcome is None and listed[second].outcome is not None
    assert "0" in str(listed[second].outcome) and listed[second].updated > 0


def test_a_created_game_with_events_is_stored_whole(where: str) -> None:
    game = ended_games()[1]
    store = open_store(where)
    game_id = store.create(game)
    assert store.load(game_id).state() == game.state()
    assert [info.outcome for info in store.games()] == [str(game.outcome)]
    store.close()


def test_appends_continue_after_reopening(where: str) -> None:
    store = open_store(where)
    game = Game()
    game_id = store.create(game)
    game.apply(Warned(5, Side.WHITE, "noise"))
    store.append(game_id, game.log[-1])
    store.close()
    store = open_store(where)
    again = store.load(game_id)
    again.apply(Warned(7, Side.BLACK, "noise"))
    store.append(game_id, again.log[-1])
    store.close()
    store = open_store(where)
    assert [e.at_ms for e in store.load(game_id).log] == [5, 7]
    store.close()


def test_an_unknown_game_is_a_store_error_naming_it(where: str) -> None:
    store = open_store(where)
    with pytest.raises(ValueError, match="game 12"):
        store.load("12")
    store.close()


def writer(where: str, game_id: str) -> subprocess.Popen[str]:
    src = str(Path(chessarbiter.__file__).parents[1])
    root = str(Path(__file__).parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, root])}
    return subprocess.Popen([sys.executable, str(Path(__file__).with_name("writer.py")), where,
                             game_id], stdout=subprocess.PIPE, text=True, env=env)


@pytest.mark.parametrize("kind", STORES)
def test_every_acknowledged_append_survives_kill_9(tmp_path: Path, kind: str) -> None:
    where = location(tmp_path, kind)
    store = open_store(where)
    game_id = store.create(Game())
    process = writer(where, game_id)
    assert process.stdout is not None
    acknowledged = 0
    seen: list[int] = []
    while acknowledged < 60:
        line = process.stdout.readline()
        assert line, "the writer stopped"
        acknowledged = int(line)
        if kind != "jsonl" and acknowledged % 15 == 0:  # a second process reads meanwhile
            reader = open_store(where)
            seen.append(len(reader.load(game_id).log))
            reader.close()
    process.send_signal(signal.SIGKILL)
    process.wait()
    acknowledged = max([acknowledged, *(int(n) for n in process.stdout.read().split())])
    process.stdout.close()
    store.close()
    store = open_store(where)
    log = store.load(game_id).log
    store.close()
    assert len(log) >= acknowledged
    assert [e.at_ms for e in log] == list(range(1, len(log) + 1))
    assert seen == sorted(seen) and all(n >= 15 for n in seen)


def test_a_cut_last_line_is_dropped_on_load(tmp_path: Path) -> None:
    store = JsonlStore(tmp_path)
    game = Game()
    game_id = store.create(game)
    for at in (1, 2):
        game.apply(Warned(at, Side.WHITE, "noise"))
        store.append(game_id, game.log[-1])
    store.close()
    path = store.path(game_id)
    path.write_bytes(path.read_bytes()[:-9])  # the second event cut off by a crash
    store = JsonlStore(tmp_path)
    assert [e.at_ms for e in store.load(game_id).log] == [1] and store.cut == {game_id}
    store.append(game_id, game.log[-1])
    store.close()
    assert [e.at_ms for e in JsonlStore(tmp_path).load(game_id).log] == [1, 2]


CORRUPTIONS = [
    ("UPDATE events SET json = '{' WHERE seq = 2", "game 1, event 2: not an event"),
    ("UPDATE events SET kind = 'move' WHERE seq = 1", "game 1, event 1: kind/at_ms"),
    ("DELETE FROM events WHERE seq = 1", "game 1, event 2: expected event 1"),
    ("UPDATE events SET json = replace(json, 'white', 'blue')",
     r"game 1, event 1: not an event \(warning: side='blue'"),
    ("""UPDATE events SET kind = 'move', json = '{"kind": "move", "at_ms": 1, "side": \
"white", "uci": "e2e5"}' WHERE seq = 1""", "game 1, event 1: .*e2e5"),
    ("UPDATE games SET setup = '[]'", "game 1: setup: expected an object"),
    ("UPDATE games SET setup = 'x'", "game 1: setup/start: not JSON"),
]
"""SQL that corrupts a stored game, and the error its loading raises (both SQL stores)."""


@pytest.mark.parametrize(("sql", "message"), CORRUPTIONS)
def test_corrupt_rows_are_store_errors_naming_game_and_event(
    tmp_path: Path, sql: str, message: str
) -> None:
    path = tmp_path / "g.sqlite"
    store = SqliteStore(path)
    game = Game()
    game_id = store.create(game)
    for at in (1, 2):
        game.apply(Warned(at, Side.WHITE, "noise"))
        store.append(game_id, game.log[-1])
    store._db.execute(sql)
    with pytest.raises(ValueError, match=message) as info:
        store.load(game_id)
    store.close()
    assert type(info.value).__name__ == "StoreError"


def test_a_file_that_is_no_database_or_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    path.write_bytes(b"not a database at all, just some text" * 100)
    with pytest.raises(ValueError, match="not a game store"):
        SqliteStore(path)
    newer = tmp_path / "n.sqlite"
    SqliteStore(newer).close()
    store = SqliteStore(newer)
    store._db.execute("PRAGMA user_version = 99")
    store.close()
    with pytest.raises(ValueError, match="schema version 99 is newer"):
        SqliteStore(newer)


def test_the_schema_is_versioned_and_the_log_is_written_ahead(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "g.sqlite")
    db = store._db
    assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    store.close()
