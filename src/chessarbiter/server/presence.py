"""Who is at the board: each game's players holding its stream open, and since when a
player who held one holds none (lichess' "opponent gone"). A player gone for the profile's
``abandonment_ms`` may have the game claimed against him (claim-victory, claim-draw: the
arbiter rules, :mod:`chessarbiter.arbiter.online`); his opponent's stream says so with
``opponentGone`` lines: when he goes (``claimWinInSeconds``: the wait), once the wait is
over (``0``) and when he comes back (``gone: false``). Kept in this process's memory: in a
cluster a player counts as present by the streams of the process owning the game."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from chessarbiter.arbiter.online import abandonment_wait
from chessarbiter.clock.records import Side
from chessarbiter.server.table import HubGame, Line, ndjson

if TYPE_CHECKING:
    from chessarbiter.server.hub import Hub

Queue = asyncio.Queue[Line]


@dataclass
class Seats:
    """One game's players at the board: each side's stream queues and when it went."""

    queues: tuple[set[Queue], set[Queue]] = field(default_factory=lambda: (set(), set()))
    gone_since: list[int | None] = field(default_factory=lambda: [None, None])
    timer: asyncio.TimerHandle | None = None


class Presence:
    """The players at the board of every game with a player's stream open (or gone)."""

    def __init__(self, now_ms: Callable[[], int]) -> None:
        self.now_ms = now_ms
        self.games: dict[str, Seats] = {}

    def absent_ms(self, game_id: str, side: Side) -> int:
        """How long ``side`` has been gone from the game (0 if present or never seen)."""
        seats = self.games.get(game_id)
        since = None if seats is None else seats.gone_since[side]
        return 0 if since is None else self.now_ms() - since

    def arrive(self, entry: HubGame, side: Side, queue: Queue) -> None:
        """A stream of ``side``'s player opened: if he was gone, his opponent hears he is
        back; ``queue`` hears now whether the opponent is gone."""
        seats = self.games.setdefault(entry.id, Seats())
        seats.queues[side].add(queue)
        if seats.gone_since[side] is not None:
            seats.gone_since[side] = None
            self._tell(seats, side.opponent, {"type": "opponentGone", "gone": False})
        if seats.gone_since[side.opponent] is not None:
            _put(queue, ndjson(self._gone_line(entry, seats, side.opponent)))

    def leave(self, entry: HubGame, side: Side, queue: Queue) -> None:
        """A stream of ``side``'s player closed: with his last one, he is gone (unless the
        game is over)."""
        seats = self.games.get(entry.id)
        if seats is None:
            return
        seats.queues[side].discard(queue)
        if entry.over:
            if not any(seats.queues):
                self._forget(entry.id, seats)
            return
        if seats.queues[side] or entry.meta.seat(side).engine is not None:
            return
        seats.gone_since[side] = self.now_ms()
        self._tell(seats, side.opponent, self._gone_line(entry, seats, side))
        self._schedule(entry, seats, side)

    def due(self, entry: HubGame) -> None:
        """Tell the players whose opponent has been gone the whole wait that they may
        claim (``claimWinInSeconds: 0``); the timers call it, tests too (for a time source
        that does not follow the loop's clock)."""
        seats = self.games.get(entry.id)
        if seats is None or entry.over:
            return
        for side in (Side.WHITE, Side.BLACK):
            if seats.gone_since[side] is not None and _wait_s(entry, self.absent_ms(
                    entry.id, side)) == 0:
                self._tell(seats, side.opponent, self._gone_line(entry, seats, side))

    def _schedule(self, entry: HubGame, seats: Seats, side: Side) -> None:
        wait = _wait_s(entry, 0)
        if wait is None:
            return
        if seats.timer is not None:
            seats.timer.cancel()
        seats.timer = asyncio.get_running_loop().call_later(wait, self.due, entry)

    def _gone_line(self, entry: HubGame, seats: Seats, side: Side) -> dict[str, Any]:
        line: dict[str, Any] = {"type": "opponentGone", "gone": True}
        wait = _wait_s(entry, self.absent_ms(entry.id, side))
        if wait is not None:
            line["claimWinInSeconds"] = wait
        return line

    def _tell(self, seats: Seats, side: Side, data: dict[str, Any]) -> None:
        line = ndjson(data)
        for queue in tuple(seats.queues[side]):
            _put(queue, line)

    def _forget(self, game_id: str, seats: Seats) -> None:
        if seats.timer is not None:
            seats.timer.cancel()
        self.games.pop(game_id, None)


def _wait_s(entry: HubGame, absent_ms: int) -> int | None:
    """Whole seconds (rounded up) until a claim, ``None`` where there is none
    (:func:`~chessarbiter.arbiter.online.abandonment_wait`)."""
    limit = abandonment_wait(entry.game.setup)
    if limit is None:
        return None
    return max(0, -(-(limit - absent_ms) // 1000))


def _put(queue: Queue, line: bytes) -> None:
    if not queue.full():
        queue.put_nowait(line)


_PRESENCE: WeakKeyDictionary[Hub, Presence] = WeakKeyDictionary()


def presence_of(hub: Hub) -> Presence:
    """The hub's :class:`Presence` (made when first asked for)."""
    found = _PRESENCE.get(hub)
    if found is None:
        found = _PRESENCE[hub] = Presence(hub.config.now_ms)
    return found
