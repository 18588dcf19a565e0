"""What only the PostgreSQL store does (the contract suite runs against it too): corrupt rows
named like SQLite's, a newer schema refused, stores opened at once migrating once, a dropped
connection opened again, durable commits, and no password in what people read."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from chessarbiter.arbiter.events import Warned
from chessarbiter.arbiter.game import Game
from chessarbiter.clock.records import Side
from chessarbiter.store import open_store
from tests.services import fresh_schema
from tests.store.test_contract import CORRUPTIONS

psycopg = pytest.importorskip("psycopg", reason="psycopg is not installed")
from chessarbiter.store.postgres import MIGRATIONS, PostgresStore  # noqa: E402


def warned_game(store: PostgresStore) -> str:
    game = Game()
    game_id = store.create(game)
    for at in (1, 2):
        game.apply(Warned(at, Side.WHITE, "noise"))
        store.append(game_id, game.log[-1])
    return game_id


@pytest.mark.parametrize(("sql", "message"), CORRUPTIONS)
def test_corrupt_rows_are_store_errors_naming_game_and_event(
    tmp_path: Path, sql: str, message: str
) -> None:
    store = PostgresStore(fresh_schema(tmp_path.name))
    game_id = warned_game(store)
    if sql.startswith("DELETE"):
        store._db.execute("UPDATE games SET last_seq = 1")
    store._db.execute(sql)
    with pytest.raises(ValueError, match=message) as info:
        store.load(game_id)
    store.close()
    assert type(info.value).__name__ == "StoreError"


def test_the_schema_is_versioned_and_a_newer_one_refused(tmp_path: Path) -> None:
    dsn = fresh_schema(tmp_path.name)
    store = PostgresStore(dsn)
    assert store._db.execute("SELECT max(version) FROM schema_version").fetchone() == (
        len(MIGRATIONS),)
    assert store._db.execute("SHOW synchronous_commit").fetchone() == ("on",)
    store._db.execute("INSERT INTO schema_version VALUES (99)")
    store.close()
    with pytest.raises(ValueError, match="schema version 99 is newer"):
        PostgresStore(dsn)


def test_stores_opened_at_once_migrate_once(tmp_path: Path) -> None:
    dsn = fresh_schema(tmp_path.name)
    errors: list[BaseException] = []
    stores: list[PostgresStore] = []

    def open_one() -> None:
        try:
            stores.append(PostgresStore(dsn))
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and len(stores) == 4
    versions = stores[0]._db.execute("SELECT version FROM schema_version").fetchall()
    assert versions == [(number,) for number in range(1, len(MIGRATIONS) + 1)]
    ids = [store.create(Game()) for store in stores]
    assert sorted(ids, key=int) == ["1", "2", "3", "4"]
    for store in stores:
        store.close()


def test_a_dropped_connection_is_opened_again(tmp_path: Path) -> None:
    dsn = fresh_schema(tmp_path.name)
    store = PostgresStore(dsn)
    game_id = warned_game(store)
    pid = store._db.info.backend_pid
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    with pytest.raises(ValueError, match="cannot be read"):
        store.load(game_id)  # the call that finds the connection gone fails
    assert len(store.load(game_id).log) == 2  # the next one reconnects
    assert store._db.info.backend_pid != pid
    store.close()


def test_people_never_read_the_password(tmp_path: Path) -> None:
    dsn = fresh_schema(tmp_path.name)
    store = open_store(dsn)
    password = psycopg.conninfo.conninfo_to_dict(dsn).get("password")
    assert password and f":{password}@" not in store.where("1")
    assert store.where("1").startswith("postgresql://") and store.where("1").endswith(" game 1")
    store.close()
    wrong = dsn.replace(f":{password}@", ":wrong-password@")
    with pytest.raises(ValueError, match="cannot open the store") as info:
        open_store(wrong)
    assert "wrong-password" not in str(info.value)


def test_an_unknown_game_cannot_be_appended_to(tmp_path: Path) -> None:
    store = PostgresStore(fresh_schema(tmp_path.name))
    with pytest.raises(ValueError, match="game 7: no such game"):
        store.append("7", Warned(1, Side.WHITE, "noise"))
    with pytest.raises(ValueError, match="a game id is a number"):
        store.load("x7")
    assert store.games() == []
    store.close()


def test_a_batch_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    store = PostgresStore(fresh_schema(tmp_path.name))
    first, second = store.create(Game()), store.create(Game())
    store.append_batch([(first, Warned(1, Side.WHITE, "a"), None),
                        (second, Warned(2, Side.BLACK, "b"), None),
                        (first, Warned(3, Side.WHITE, "c"), None)])
    assert [e.at_ms for e in store.load(first).log] == [1, 3]
    with pytest.raises(ValueError, match="game 9: no such game"):
        store.append_batch([(second, Warned(4, Side.WHITE, "d"), None),
                            ("9", Warned(5, Side.WHITE, "e"), None)])
    assert [e.at_ms for e in store.load(second).log] == [2]
    store.close()


def test_a_fenced_off_owner_cannot_write(tmp_path: Path) -> None:
    dsn = fresh_schema(tmp_path.name)
    old, new = PostgresStore(dsn), PostgresStore(dsn)
    game_id = old.create(Game())
    old.fence(game_id, 1)
    old.append(game_id, Warned(1, Side.WHITE, "by the first owner"))
    new.fence(game_id, 2)  # the lease passed on: a newer token
    with pytest.raises(ValueError, match=f"game {game_id}: .*took it over"):
        old.append(game_id, Warned(2, Side.WHITE, "by the former owner"))
    with pytest.raises(ValueError, match="a newer owner than fence 1"):
        old.fence(game_id, 1)
    new.append(game_id, Warned(2, Side.BLACK, "by the new owner"))
    assert [getattr(e, "reason", None) for e in new.load(game_id).log] == [
        "by the first owner", "by the new owner"]
    old.close()
    new.close()
