"""The server's database thread: appends waiting together are written in one transaction,
each acknowledged once durable; a failed write is reported to the append at fault only."""

from __future__ import annotations

import asyncio
import itertools
import logging
import sqlite3
import threading
from pathlib import Path

import pytest

from chessarbiter.arbiter.events import ClocksStarted, Moved
from chessarbiter.arbiter.game import Game
from chessarbiter.clock import Side, parse_human
from chessarbiter.server.games.db import (
    DUES_ROWS,
    SCHEMA,
    SLOW_COMMIT_S,
    TELL_EVERY_S,
    Database,
    at_once,
)
from chessarbiter.store.base import StoreError


def test_group_commit_and_failures(tmp_path: Path) -> None:
    db = Database(tmp_path / "games.sqlite")
    db.start()
    try:
        game = Game(control=parse_human("5+0"))
        game_id = db.call(lambda store, conn: store.create(game))
        game.apply(ClocksStarted(0))
        events = [game.log[-1]]
        for at, (side, move) in enumerate(((Side.WHITE, "e2e4"), (Side.BLACK, "e7e5")), 1):
            game.apply(Moved(at * 1000, side, move))
            events.append(game.log[-1])
        gate = threading.Event()
        db.submit(lambda store, conn: gate.wait(10))  # the thread busy: appends queue up
        outcomes: list[BaseException | None] = []
        for event in events:
            db.append(game_id, event, None, outcomes.append)
        db.append("999", events[0], None, outcomes.append)  # no such game: the batch fails
        before = db.batches
        gate.set()
        db.call(lambda store, conn: None)  # everything before it is done
        assert outcomes[:3] == [None, None, None]  # the batch failed: each alone, in order
        assert isinstance(outcomes[3], StoreError) and "999" in str(outcomes[3])
        assert db.batches == before + 3
        assert db.call(lambda store, conn: store.load(game_id)).log == tuple(events)
        outcomes.clear()
        game.apply(Moved(3000, Side.WHITE, "g1f3"))
        more = [game.log[-1]]
        game.apply(Moved(4000, Side.BLACK, "b8c6"))
        more.append(game.log[-1])
        gate.clear()
        db.submit(lambda store, conn: gate.wait(10))
        for event in more:
            db.append(game_id, event, None, outcomes.append)
        gate.set()
        db.call(lambda store, conn: None)
        assert outcomes == [None, None] and db.batches == before + 4  # one transaction
        assert db.call(lambda store, conn: store.load(game_id)).log == (*events, *more)
    finally:
        db.close()


def test_the_writer_is_writing_until_the_acknowledgements_are_given(tmp_path: Path) -> None:
    """``writing`` holds from an append until its callback has run on the event loop (what
    :class:`~chessarbiter.server.http.share.Share` waits for)."""
    async def main() -> None:
        db = Database(tmp_path / "games.sqlite")
        db.start(asyncio.get_running_loop())
        try:
            game = Game(control=parse_human("5+0"))
            game_id = await db.run(lambda store, conn: store.create(game))
            game.apply(ClocksStarted(0))
            assert not db.writing()
            gate = threading.Event()
            db.submit(lambda store, conn: gate.wait(10))
            acknowledged = asyncio.get_running_loop().create_future()
            db.append(game_id, game.log[-1], None, acknowledged.set_result)
            assert db.writing()
            gate.set()
            assert await asyncio.wait_for(acknowledged, 5) is None
            assert not db.writing()
        finally:
            await asyncio.to_thread(db.close)

    asyncio.run(main())


def test_the_deadlines_lines_follow_the_batches(tmp_path: Path) -> None:
    """Each game's latest line is written once the writer has nothing else queued, before
    any other work (a call sees them as the log is), and at the latest by the close, which
    ends the writer even when it comes within a batch of appends."""
    db = Database(tmp_path / "games.sqlite")
    db.start()
    try:
        game = Game(control=parse_human("5+0"))
        game_id = db.call(lambda store, conn: store.create(game))
        db.call(lambda store, conn: conn.execute(
            "INSERT INTO server_deadlines VALUES ('g', NULL, NULL, 0, NULL)"))
        game.apply(ClocksStarted(0))
        gate = threading.Event()
        db.submit(lambda store, conn: gate.wait(10))  # the thread busy: one batch follows
        db.append(game_id, game.log[-1], None, lambda _: None, ("g", 1, 300_000))
        game.apply(Moved(1000, Side.WHITE, "e2e4"))
        db.append(game_id, game.log[-1], None, lambda _: None, ("g", 2, 299_000))
        gate.set()
        assert db.call(lambda store, conn: conn.execute(
            "SELECT events, due_ms FROM server_deadlines").fetchall()) == [(2, 299_000)]
        gate.clear()
        db.submit(lambda store, conn: gate.wait(10))  # busy again: the close joins a batch
        game.apply(Moved(2000, Side.BLACK, "e7e5"))
        db.append(game_id, game.log[-1], None, lambda _: None, ("g", 3, None))
        closing = threading.Thread(target=db.close)
        closing.start()
        while db._queue.qsize() < 2:  # the close's end-of-work mark queued behind the append
            closing.join(0.01)
        gate.set()
        closing.join(10)
        assert not closing.is_alive()  # the mark was not lost in the batch
    finally:
        db.close()
    reopened = Database(tmp_path / "games.sqlite")
    reopened.start()
    try:
        assert reopened.call(lambda store, conn: conn.execute(
            "SELECT events, due_ms FROM server_deadlines").fetchall()) == [(3, None)]
    finally:
        reopened.close()


@pytest.mark.parametrize("factor", [1.5, 0.25])
def test_a_slow_commit_is_logged_with_the_acknowledgements_it_held_back(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, factor: float) -> None:
    """Timed on the injected clock: a batch's commit longer than SLOW_COMMIT_S is a warning
    naming its length and its events; a quick one is not."""
    step = SLOW_COMMIT_S * factor
    ticks = itertools.count()
    db = Database(tmp_path / "games.sqlite", clock=lambda: next(ticks) * step)
    db.start()
    try:
        game = Game(control=parse_human("5+0"))
        game_id = db.call(lambda store, conn: store.create(game))
        game.apply(ClocksStarted(0))
        gate = threading.Event()
        db.submit(lambda store, conn: gate.wait(10))  # the two appends: one batch
        done: list[BaseException | None] = []
        db.append(game_id, game.log[-1], None, done.append)
        game.apply(Moved(1000, Side.WHITE, "e2e4"))
        db.append(game_id, game.log[-1], None, done.append)
        with caplog.at_level(logging.WARNING, logger="chessarbiter.server.games.db"):
            gate.set()
            db.call(lambda store, conn: None)
        assert done == [None, None]
        assert db.slowest_commit_s == pytest.approx(step)
        warned = [r.getMessage() for r in caplog.records]
        if step > SLOW_COMMIT_S:
            assert warned == [f"the store took up to {step * 1000:.0f} ms to commit (1 commits "
                              f"over {SLOW_COMMIT_S * 1000:.0f} ms, 2 events): their "
                              "acknowledgements waited as long"]
        else:
            assert warned == []
    finally:
        db.close()


def test_slow_commits_after_the_first_are_told_together_once_a_second(
        caplog: pytest.LogCaptureFixture) -> None:
    db = Database(":memory:")
    slow, quick = SLOW_COMMIT_S * 2, SLOW_COMMIT_S / 2
    with caplog.at_level(logging.WARNING, logger="chessarbiter.server.games.db"):
        db._timed(slow, 10.0, 5)  # told at once
        db._timed(slow * 2, 10.3, 7)  # within the second after it: kept
        db._timed(quick, 10.6, 9)
        db._timed(slow, 10.9, 1)
        db._timed(quick, 11.0 + TELL_EVERY_S / 100, 4)  # the second is over: told together
        db._timed(quick, 13.0, 4)  # nothing slow since
    ms = SLOW_COMMIT_S * 1000
    assert [r.getMessage() for r in caplog.records] == [
        f"the store took up to {slow * 1000:.0f} ms to commit (1 commits over {ms:.0f} ms, 5 "
        "events): their acknowledgements waited as long",
        f"the store took up to {slow * 2000:.0f} ms to commit (2 commits over {ms:.0f} ms, 8 "
        "events): their acknowledgements waited as long"]
    assert db.slowest_commit_s == slow * 2


def test_the_deadlines_lines_are_written_in_chunks_of_one_statement(tmp_path: Path) -> None:
    """More lines than one statement takes: every line written, the others untouched."""
    conn = sqlite3.connect(tmp_path / "dues.sqlite", isolation_level=None)
    try:
        conn.execute(next(s for s in SCHEMA if "server_deadlines" in s))
        count = DUES_ROWS * 2 + 11
        conn.executemany("INSERT INTO server_deadlines VALUES (?, NULL, NULL, 0, NULL)",
                         [(f"g{n}",) for n in range(count + 5)])
        dues = {f"g{n}": (f"g{n}", n + 1, None if n % 7 == 0 else 1000 * n)
                for n in range(count)}
        Database._deadlines(dues, conn)
        assert dues == {}
        rows = {game: (events, due) for game, events, due in conn.execute(
            "SELECT game, events, due_ms FROM server_deadlines")}
    finally:
        conn.close()
    assert rows == {**{f"g{n}": (n + 1, None if n % 7 == 0 else 1000 * n)
                       for n in range(count)},
                    **{f"g{n}": (0, None) for n in range(count, count + 5)}}


def test_statements_at_once_are_one_transaction_all_or_none(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "once.sqlite", isolation_level=None)
    commits: list[str] = []
    conn.set_trace_callback(lambda sql: commits.append(sql) if sql == "COMMIT" else None)
    try:
        conn.execute("CREATE TABLE t (x INTEGER PRIMARY KEY)")
        commits.clear()
        at_once(conn, [("INSERT INTO t VALUES (?)", (1,)), ("INSERT INTO t VALUES (?)", (2,))])
        assert commits == ["COMMIT"]  # one transaction, one sync
        with pytest.raises(sqlite3.IntegrityError):
            at_once(conn, [("INSERT INTO t VALUES (?)", (3,)),
                           ("INSERT INTO t VALUES (?)", (1,))])
        assert [x for (x,) in conn.execute("SELECT x FROM t ORDER BY x")] == [1, 2]
        assert not conn.in_transaction
    finally:
        conn.close()
