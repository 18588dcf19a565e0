"""The games' share of the event loop: requests that are not about a game wait their turn.

One event loop serves every request. A burst of other requests (100 accounts opening
challenges at their rate limit, readers of a tournament in a loop, pages) would otherwise
all be in progress at once, and every turn of the loop would run a step of each before the
next step of a move: a move's few steps (parse, rule, commit, answer, stream) would each
wait behind all of them. :class:`Share` lets at most :data:`AT_ONCE` such requests be in
progress; the others wait, costing nothing, in arrival order. Requests about one game (a
move, an offer, a claim, a resignation, an arbiter's decision), the hot routes and the
routes a player's page asks on its way to a move (``web.PLAYING``) never wait here. A
request's body (a form or JSON, up to the body limit; any other is refused unread) is
received before it takes a turn, so a client sending its body slowly holds
none; a turn is held until the answer starts, so a stream gives it back at once, or until
the handler waits for work done off the loop (:func:`off_the_loop`: a tournament's
rendering in the rendering process), so readers waiting for it do not hold up the
director's writes and everyone else's requests behind them. Beyond
:data:`WAITING` requests waiting, a new one is answered 503 with ``Retry-After`` rather
than queued without bound (docs/server.md, "Limits").

Turns alone do not give the games the loop when it is saturated (a burst of challenges on
a busy machine: every request's steps queue, moves' among them). So a request with its
turn also waits while the loop is behind (:class:`Pulse`: a timer every
:data:`PULSE_S` came more than :data:`BEHIND_S` late) and while the game writer has events
on their way to the disk (``writing``: their acknowledgements not yet given), at most
:data:`PATIENCE_S`: under more load than it can carry, the server serves the games first.
The second matters most: readers in a loop keep the event loop busy without making it
late, and the writer thread, which needs the interpreter between its statements, then
waits for it at every switch (ten readers of a tournament in a loop made 250 commits a
minute take over 20 ms, the moves' p99 137-182 ms; waiting for the writer, 21 ms). A timer more than
:data:`STALL_S` late is told in the log (at most once every :data:`TELL_EVERY_S`: how late
at worst, how many times): the loop was held (a stall) or the machine short of CPU, and
every move's answer waited as long."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from chessarbiter.server.http.asgi import BODY_TYPES, header, send_json
from chessarbiter.server.limits import MAX_BODY_BYTES

AT_ONCE: Final = 4
"""Requests not about a game in progress at once."""
WAITING: Final = 1_000
"""Such requests waiting for their turn before a new one is refused (503)."""

PULSE_S: Final = 0.01
"""How often the event loop's lateness is measured."""
BEHIND_S: Final = 0.005
"""A loop whose timer fires this much late is behind: requests not about a game wait."""
PATIENCE_S: Final = 2.0
"""How long such a request waits for the loop to catch up before it goes on anyway."""
STALL_S: Final = 0.05
"""A timer this much late is told in the log (a warning)."""
TELL_EVERY_S: Final = 1.0
"""The log is told of late timers at most this often (the worst, how many)."""

log = logging.getLogger(__name__)

GIVE_BACK: Final = "chessarbiter.give_back"
"""The scope's key of the function that gives a request's turn back (:func:`off_the_loop`)."""

GameOf = Callable[[str, str], Any]
"""The game a request is about by its method and path, ``None`` when none
(:meth:`~chessarbiter.server.http.routes.Table.game_of`)."""


class Pulse:
    """The event loop's lateness: a timer set every :data:`PULSE_S` notes how late it
    fired (started by the first :meth:`behind`, on the running loop; ``clock`` and
    ``sleep`` default to the loop's time and timers)."""

    def __init__(self, clock: Callable[[], float] | None = None,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.late = 0.0
        self.clock = clock
        self.sleep = sleep
        self._task: asyncio.Task[None] | None = None

    def behind(self) -> bool:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._beat())
        return self.late > BEHIND_S

    async def _beat(self) -> None:
        clock = self.clock or asyncio.get_running_loop().time
        since, worst, times = clock(), 0.0, 0
        while True:
            due = clock() + PULSE_S
            await self.sleep(PULSE_S)
            now = clock()
            self.late = now - due
            if self.late > STALL_S:
                worst, times = max(worst, self.late), times + 1
            if now - since >= TELL_EVERY_S:
                if times:
                    log.warning("the event loop ran up to %.0f ms late (%d times in %.1f s): "
                                "a stall, or a machine short of CPU", worst * 1000, times,
                                now - since)
                since, worst, times = now, 0.0, 0


class Share:
    """An ASGI app: ``app``'s requests about a game (found by ``game_of``) and those to the
    ``prompt`` paths at once, the others at most ``at_once`` in progress (their answer not
    yet started), each starting once the loop is not ``behind`` (default: a
    :class:`Pulse`'s) and the game writer not ``writing``, or after ``patience`` seconds on
    ``clock``, looking again every :data:`PULSE_S` (``pause``)."""

    def __init__(self, app: ASGIApp, game_of: GameOf, at_once: int = AT_ONCE,
                 waiting: int = WAITING, behind: Callable[[], bool] | None = None,
                 writing: Callable[[], bool] = lambda: False,
                 prompt: frozenset[str] = frozenset(),
                 patience: float = PATIENCE_S, clock: Callable[[], float] = time.monotonic,
                 pause: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.app = app
        self.game_of = game_of
        self.waiting = waiting
        self.behind = Pulse().behind if behind is None else behind
        self.writing = writing
        self.prompt = prompt
        self.patience = patience
        self.clock = clock
        self.pause = pause
        self._turns = asyncio.Semaphore(at_once)
        self._queued = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in self.prompt \
                or self.game_of(scope["method"], scope["path"]) is not None:
            await self.app(scope, receive, send)
            return
        if self._turns.locked() and self._queued >= self.waiting:
            await send_json(send, {"error": "the server is busy: retry in a second"}, 503,
                            {"Retry-After": "1"})
            return
        if _read(scope):
            receive = await _received(receive)
        self._queued += 1
        try:
            await self._turns.acquire()
        finally:
            self._queued -= 1
        held = True

        def give_back() -> None:
            nonlocal held
            if held:
                held = False
                self._turns.release()

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                give_back()
            await send(message)

        try:
            until = self.clock() + self.patience
            while (self.behind() or self.writing()) and self.clock() < until:
                await self.pause(PULSE_S)
            await self.app({**scope, GIVE_BACK: give_back}, receive, sending)
        finally:
            give_back()


def off_the_loop(scope: Scope) -> None:
    """Give the request's turn back (if it holds one) as it starts waiting for work done off
    the event loop: the requests behind it need not wait as well."""
    give_back = scope.get(GIVE_BACK)
    if give_back is not None:
        give_back()


def _read(scope: Scope) -> bool:
    """Whether the app will read the request's body: one of the types read, not declared
    longer than the limit (else it is refused unread)."""
    kind = (header(scope, b"content-type") or "").split(";")[0].strip().lower()
    declared = header(scope, b"content-length")
    return kind in BODY_TYPES and not (declared is not None and declared.isdigit()
                                       and int(declared) > MAX_BODY_BYTES)


async def _received(receive: Receive, limit: int = MAX_BODY_BYTES) -> Receive:
    """``receive`` with the request's body already received (at most ``limit`` bytes and
    one message more: the app then refuses it), its messages given again in order."""
    early: list[Message] = []
    size = 0
    while size <= limit:
        message = await receive()
        early.append(message)
        if message["type"] != "http.request" or not message.get("more_body", False):
            break
        size += len(message.get("body", b""))

    async def again() -> Message:
        return early.pop(0) if early else await receive()

    return again
