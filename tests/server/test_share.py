"""The games' share of the event loop (server/http/share.py): requests not about a game take
turns, at most a few in progress; a game's requests never wait; a stream gives its turn back
once its answer starts; beyond the waiting bound, 503 with Retry-After."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import pytest
from starlette.types import Message, Receive, Scope, Send

from chessarbiter.server import web
from chessarbiter.server.app import create_app
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.http.fastpath import FastPath
from chessarbiter.server.http.share import (
    AT_ONCE,
    BEHIND_S,
    PULSE_S,
    STALL_S,
    TELL_EVERY_S,
    Pulse,
    Share,
    off_the_loop,
)
from chessarbiter.server.members import CheckAccounts


def game_of(method: str, path: str) -> str | None:
    return path.split("/")[-1] if path.startswith("/game/") else None


class Slow:
    """An app whose requests each wait for :attr:`go` before answering (``/stream`` ones
    start their answer first, ``/render`` ones wait off the loop); it counts how many are in
    progress at once."""

    def __init__(self) -> None:
        self.go = asyncio.Event()
        self.now = self.most = 0
        self.started: list[str] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.now += 1
        self.most = max(self.most, self.now)
        self.started.append(scope["path"])
        try:
            if scope["path"].startswith("/stream"):
                await send({"type": "http.response.start", "status": 200, "headers": []})
            if scope["path"].startswith("/render"):
                off_the_loop(scope)
            await self.go.wait()
            if not scope["path"].startswith("/stream"):
                await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"ok"})
        finally:
            self.now -= 1


async def call(app: Any, path: str, method: str = "GET") -> list[Message]:
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    await app({"type": "http", "method": method, "path": path, "headers": [],
               "query_string": b""}, receive, send)
    return sent


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def test_at_most_a_few_requests_not_about_a_game_are_in_progress_at_once() -> None:
    async def main() -> None:
        inner = Slow()
        share = Share(inner, game_of, at_once=3)
        tasks = [asyncio.create_task(call(share, f"/lobby/{n}")) for n in range(10)]
        await settle()
        assert inner.now == 3 and inner.started == ["/lobby/0", "/lobby/1", "/lobby/2"]
        inner.go.set()
        answers = await asyncio.gather(*tasks)
        assert inner.most == 3
        assert inner.started == [f"/lobby/{n}" for n in range(10)]  # in arrival order
        assert all(a[0]["status"] == 200 for a in answers)

    asyncio.run(main())


def test_a_games_request_never_waits_for_a_turn() -> None:
    async def main() -> None:
        inner = Slow()
        share = Share(inner, game_of, at_once=2)
        lobby = [asyncio.create_task(call(share, f"/lobby/{n}")) for n in range(5)]
        await settle()
        move = asyncio.create_task(call(share, "/game/abcd1234", "POST"))
        await settle()
        assert inner.started[-1] == "/game/abcd1234" and inner.now == 3
        inner.go.set()
        await asyncio.gather(move, *lobby)

    asyncio.run(main())


def test_a_stream_gives_its_turn_back_when_its_answer_starts() -> None:
    async def main() -> None:
        inner = Slow()
        share = Share(inner, game_of, at_once=1)
        stream = asyncio.create_task(call(share, "/stream/events"))
        await settle()
        page = asyncio.create_task(call(share, "/page"))
        await settle()
        assert inner.started == ["/stream/events", "/page"]  # the stream holds no turn
        inner.go.set()
        await asyncio.gather(stream, page)

    asyncio.run(main())


def test_a_request_waiting_off_the_loop_gives_its_turn_back_once() -> None:
    """A tournament's reader waiting for its rendering holds up no one: with one turn, a
    page starts meanwhile, and the next page still waits (the turn was given back once)."""
    async def main() -> None:
        inner = Slow()
        share = Share(inner, game_of, at_once=1)
        render = asyncio.create_task(call(share, "/render/standings"))
        await settle()
        pages = [asyncio.create_task(call(share, f"/page/{n}")) for n in range(2)]
        await settle()
        assert inner.started == ["/render/standings", "/page/0"] and inner.now == 2
        inner.go.set()
        answers = await asyncio.gather(render, *pages)
        assert inner.started[-1] == "/page/1" and inner.most == 2
        assert all(a[0]["status"] == 200 for a in answers)
        off_the_loop({"type": "http"})  # no turn held (not through a share): nothing to do

    asyncio.run(main())


def test_beyond_the_waiting_bound_a_request_is_refused_with_retry_after() -> None:
    async def main() -> None:
        inner = Slow()
        share = Share(inner, game_of, at_once=1, waiting=2)
        tasks = [asyncio.create_task(call(share, f"/lobby/{n}")) for n in range(3)]
        await settle()
        refused = await call(share, "/lobby/late")
        assert refused[0]["status"] == 503
        assert (b"retry-after", b"1") in refused[0]["headers"]
        assert b"busy" in refused[1]["body"]
        assert "/lobby/late" not in inner.started
        inner.go.set()
        answers = await asyncio.gather(*tasks)
        assert [a[0]["status"] for a in answers] == [200, 200, 200]

    asyncio.run(main())


def test_a_failing_request_gives_its_turn_back() -> None:
    async def failing(scope: Scope, receive: Receive, send: Send) -> None:
        raise RuntimeError("boom")

    async def main() -> None:
        share = Share(failing, game_of, at_once=1)
        for _ in range(3):  # each would wait forever if the turn were kept
            with contextlib.suppress(RuntimeError):
                await asyncio.wait_for(call(share, "/lobby"), 1)

    asyncio.run(main())


def test_the_servers_stack_shares_the_loop_by_the_route_tables_games(tmp_path: Any) -> None:
    server = create_app(ServerConfig(db=tmp_path / "games.sqlite"))
    assert isinstance(server.entry, CheckAccounts)
    entry = server.entry.app
    assert isinstance(entry, FastPath) and isinstance(entry.rest, Share)
    assert entry.rest.app is server.app
    assert entry.rest.game_of("POST", "/api/board/game/abcd1234/resign") is not None
    assert entry.rest.game_of("POST", "/api/challenge/open") is None


def test_a_client_sending_its_body_slowly_holds_no_turn(tmp_path: Any) -> None:
    """Through the server's own stack: more slow senders than turns, then a page is asked
    for and answered."""
    server = create_app(ServerConfig(db=tmp_path / "games.sqlite"))
    never = asyncio.Event()

    def slow_body() -> Receive:
        parts: list[Message] = [{"type": "http.request", "body": b"rated=", "more_body": True}]

        async def receive() -> Message:
            if parts:
                return parts.pop()
            await never.wait()
            return {"type": "http.disconnect"}

        return receive

    async def ignore(message: Message) -> None:
        pass

    async def main() -> None:
        slow = [asyncio.create_task(server(
            {"type": "http", "method": "POST", "path": "/api/challenge/open",
             "headers": [(b"content-type", b"application/x-www-form-urlencoded")],
             "query_string": b""}, slow_body(), ignore)) for _ in range(AT_ONCE + 2)]
        await settle()
        answer = await asyncio.wait_for(call(server, "/api/openapi.json"), 5)
        assert answer[0]["status"] == 200
        for task in slow:
            task.cancel()
        await asyncio.gather(*slow, return_exceptions=True)

    asyncio.run(main())


def test_a_client_gone_while_its_body_is_read_is_no_failure(
        tmp_path: Any, caplog: pytest.LogCaptureFixture) -> None:
    """Through the server's own stack: a challenge whose client goes away mid-body is
    answered 400 (to no one), no error is logged, no challenge is made."""
    server = create_app(ServerConfig(db=tmp_path / "games.sqlite"))
    parts: list[Message] = [{"type": "http.disconnect"},
                            {"type": "http.request", "body": b"rated=", "more_body": True}]

    async def receive() -> Message:
        return parts.pop()

    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    async def main() -> None:
        await server({"type": "http", "method": "POST", "path": "/api/challenge/open",
                      "headers": [(b"content-type", b"application/x-www-form-urlencoded")],
                      "query_string": b""}, receive, send)

    with caplog.at_level(logging.WARNING):
        asyncio.run(main())
    assert sent[0]["status"] == 400
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


class Loop:
    """An event loop's lateness as the test sets it, on a clock that only the share's own
    pauses advance."""

    def __init__(self) -> None:
        self.behind = True
        self.now = 0.0

    def clock(self) -> float:
        return self.now

    async def pause(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)


def test_while_the_loop_is_behind_requests_not_about_a_game_wait() -> None:
    async def main() -> None:
        inner, loop = Slow(), Loop()
        inner.go.set()
        share = Share(inner, game_of, behind=lambda: loop.behind, patience=2.0,
                      clock=loop.clock, pause=loop.pause)
        lobby = asyncio.create_task(call(share, "/lobby"))
        move = asyncio.create_task(call(share, "/game/abcd1234", "POST"))
        await settle()
        assert inner.started == ["/game/abcd1234"] and move.done()
        assert not lobby.done() and 0 < loop.now < 2.0
        loop.behind = False
        await settle()
        assert inner.started == ["/game/abcd1234", "/lobby"] and lobby.done()

    asyncio.run(main())


def test_while_the_game_writer_is_writing_requests_not_about_a_game_wait() -> None:
    """Moves' events on their way to the disk: a reader waits (the loop not late), a move
    does not; once the events are acknowledged, the reader goes."""
    async def main() -> None:
        inner, loop = Slow(), Loop()
        inner.go.set()
        loop.behind = False
        writing = [True]
        share = Share(inner, game_of, behind=lambda: loop.behind, writing=lambda: writing[0],
                      patience=2.0, clock=loop.clock, pause=loop.pause)
        reader = asyncio.create_task(call(share, "/api/tournament/1"))
        move = asyncio.create_task(call(share, "/game/abcd1234", "POST"))
        await settle()
        assert inner.started == ["/game/abcd1234"] and move.done()
        assert not reader.done() and 0 < loop.now < 2.0
        writing[0] = False
        await settle()
        assert inner.started == ["/game/abcd1234", "/api/tournament/1"] and reader.done()

    asyncio.run(main())


def test_the_paths_on_a_players_way_to_a_move_never_wait() -> None:
    """The loop behind and the writer writing: the page's typed-move and position reads go
    at once (the player's clock runs), another request waits."""
    async def main() -> None:
        inner, loop = Slow(), Loop()
        inner.go.set()
        share = Share(inner, game_of, behind=lambda: loop.behind, writing=lambda: True,
                      prompt=web.PLAYING, patience=2.0, clock=loop.clock, pause=loop.pause)
        other = asyncio.create_task(call(share, "/api/account"))
        typed = asyncio.create_task(call(share, "/web/move"))
        seen = asyncio.create_task(call(share, "/web/view"))
        await settle()
        assert typed.done() and seen.done() and not other.done()
        assert sorted(inner.started) == ["/web/move", "/web/view"]
        other.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await other

    asyncio.run(main())


def test_a_request_waits_for_the_loop_no_longer_than_its_patience() -> None:
    async def main() -> None:
        inner, loop = Slow(), Loop()
        inner.go.set()
        share = Share(inner, game_of, behind=lambda: True, patience=0.5, clock=loop.clock,
                      pause=loop.pause)
        answer = await asyncio.wait_for(call(share, "/lobby"), 5)
        assert answer[0]["status"] == 200 and 0.5 <= loop.now < 0.6

    asyncio.run(main())


def test_the_pulse_finds_the_loop_behind_when_its_timer_fires_late() -> None:
    async def main() -> None:
        loop = Loop()
        lateness = [0.001, 0.02, 0.0]

        async def sleep(seconds: float) -> None:  # a timer firing late by the next amount
            loop.now += seconds + (lateness.pop(0) if lateness else 0.0)
            await asyncio.sleep(0)
            if not lateness:
                await asyncio.Event().wait()  # no more beats

        pulse = Pulse(clock=loop.clock, sleep=sleep)
        assert not pulse.behind()  # starts measuring
        await settle()
        assert pulse.late == pytest.approx(0.02) and pulse.behind()  # 20 ms late
        assert pulse.late > BEHIND_S

    asyncio.run(main())


def test_the_pulse_tells_the_log_of_a_late_loop_at_most_once_a_second(
        caplog: pytest.LogCaptureFixture) -> None:
    """Timers late by 80 and 60 ms among punctual ones within the first second, then a
    second of punctual ones: one warning, with the worst and how many; none for the
    punctual second."""
    async def main() -> None:
        loop = Loop()
        beats = int(2 * TELL_EVERY_S / PULSE_S) + 2
        lateness = [0.0] * beats
        lateness[3], lateness[40] = STALL_S + 0.03, STALL_S + 0.01
        done = asyncio.Event()

        async def sleep(seconds: float) -> None:
            if not lateness:
                done.set()
                await asyncio.Event().wait()  # no more beats
            loop.now += seconds + lateness.pop(0)
            await asyncio.sleep(0)

        pulse = Pulse(clock=loop.clock, sleep=sleep)
        pulse.behind()
        await asyncio.wait_for(done.wait(), 5)

    with caplog.at_level(logging.WARNING, logger="chessarbiter.server.http.share"):
        asyncio.run(main())
    warned = [r.getMessage() for r in caplog.records]
    assert len(warned) == 1, warned
    assert warned[0].startswith(f"the event loop ran up to {(STALL_S + 0.03) * 1000:.0f} ms "
                                "late (2 times in 1.0 s)")
