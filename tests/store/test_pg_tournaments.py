"""Tournament logs in PostgreSQL, as a cluster keeps them: the same log as the SQLite store
keeps (replayed to the same state), a second writer refused whichever connection it uses,
the tables migrated once and a newer version refused, unknown tournaments named."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chessarbiter.store.base import StoreError
from chessarbiter.store.tournaments import TournamentLogs, TournamentStore
from chessarbiter.tournament.director import pair_next
from chessarbiter.tournament.events import Registered, ResultEntered, Settings, System
from chessarbiter.tournament.log import Tournament
from tests.services import fresh_schema

psycopg = pytest.importorskip("psycopg", reason="psycopg is not installed")
from chessarbiter.store.pg_tournaments import MIGRATIONS, PostgresTournamentStore  # noqa: E402


@pytest.fixture
def dsn(request: pytest.FixtureRequest) -> str:
    return fresh_schema(request.node.name)


@pytest.fixture
def connections(dsn: str) -> Iterator[list[Any]]:
    opened: list[Any] = []
    yield opened
    for db in opened:
        db.close()


def store(dsn: str, connections: list[Any]) -> PostgresTournamentStore:
    db = psycopg.connect(dsn, autocommit=True)
    connections.append(db)
    tournaments = PostgresTournamentStore(db, "the test database")
    tournaments.migrate()
    return tournaments


def swiss(logs: TournamentLogs) -> Tournament:
    """Five players, two rounds paired and played (White wins, then draws)."""
    t = Tournament.create(logs, Settings("Open", System.SWISS, rounds=3))
    for number in range(1, 6):
        t.apply(Registered(f"Player {number}", 2000 - 10 * number))
    for result in ("1-0", "1/2-1/2"):
        for event in pair_next(t.state):
            t.apply(event)
        for white, _ in t.state.rounds[-1].boards:
            t.apply(ResultEntered(t.state.paired, white, result))
    return t


def test_the_same_log_as_in_sqlite(dsn: str, connections: list[Any], tmp_path: Path) -> None:
    shared = swiss(store(dsn, connections))
    local = swiss(TournamentStore(tmp_path / "t.sqlite"))
    again = Tournament.load(store(dsn, connections), shared.tournament_id)
    assert again.state.cells() == local.state.cells() == shared.state.cells()
    events = store(dsn, connections).events(shared.tournament_id)
    assert [(e.seq, e.kind, e.data) for e in events] == [
        (e.seq, e.kind, e.data) for e in TournamentStore(tmp_path / "t.sqlite").events(1)]
    [info] = store(dsn, connections).tournaments()
    assert (info.tournament_id, info.name, info.events) == (shared.tournament_id, "Open",
                                                            len(events))


def test_a_second_writer_is_refused(dsn: str, connections: list[Any]) -> None:
    first = Tournament.create(store(dsn, connections), Settings("Open", System.SWISS, 3))
    second = Tournament.load(store(dsn, connections), first.tournament_id)
    first.apply(Registered("Late", 1500))
    with pytest.raises(StoreError, match="event 2: the log has 2 events"):
        second.apply(Registered("Other", 1400))
    second.apply(Registered("Other", 1400))  # read again, then recorded
    names = [p.name for p in Tournament.load(store(dsn, connections),
                                             first.tournament_id).state.players.values()]
    assert names == ["Late", "Other"]


def test_migrated_once_and_a_newer_version_refused(dsn: str, connections: list[Any]) -> None:
    one = store(dsn, connections)
    one.migrate()  # again: nothing to do
    db = connections[0]
    row = db.execute("SELECT count(*), max(version) FROM tournament_schema").fetchone()
    assert tuple(row) == (len(MIGRATIONS), len(MIGRATIONS))
    db.execute("INSERT INTO tournament_schema VALUES (%s)", (len(MIGRATIONS) + 1,))
    with pytest.raises(StoreError, match="newer than this program's"):
        store(dsn, connections)


def test_unknown_tournaments_are_named(dsn: str, connections: list[Any]) -> None:
    tournaments = store(dsn, connections)
    for number in (1, 2**70):
        with pytest.raises(StoreError, match=f"tournament {number}: no such tournament"):
            tournaments.events(number)
    with pytest.raises(StoreError, match="tournament 7: no such tournament"):
        tournaments.append(7, 1, "registered", {})
    assert tournaments.tournaments() == []


def test_counted_and_read_from_an_event_on(dsn: str, connections: list[Any]) -> None:
    """The log's event count without reading it, and the events after a number: what a
    server catching up with a tournament reads."""
    logs = store(dsn, connections)
    shared = swiss(logs)
    count = logs.event_count(shared.tournament_id)
    assert count == len(logs.events(shared.tournament_id)) == shared.events
    assert [e.seq for e in logs.events(shared.tournament_id, after=count - 2)] == [
        count - 1, count]
    reader = Tournament.load(store(dsn, connections), shared.tournament_id)
    shared.apply(Registered("Late", 1500))
    assert reader.catch_up() == 1 and reader.state == shared.state
    assert logs.event_count(7) == logs.event_count(2**70) == 0
