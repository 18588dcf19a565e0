"""Who is at the board: the game streams each player holds open on this server (lichess'
"opponent gone"). A side that has never opened its game's stream has not arrived
(``absent``); one holding a stream is ``here`` (an engine always is). When a side's last
stream closes its absence starts; after :data:`GONE_MS` without a stream it has left
(``gone``: a page reloaded, a connection dropped for a moment, is not leaving). A player
absent for the profile's ``abandonment_ms`` (counted from that close) may have the game
claimed against him (claim-victory, claim-draw: the arbiter rules,
:mod:`chessarbiter.arbiter.online`).

The opponent's streams hear it by lichess' ``opponentGone`` lines: ``gone: true`` once he
has left, with ``claimWinInSeconds`` (the seconds left until a claim; none where the
profile has no claim), again with ``claimWinInSeconds: 0`` once the wait is over, and
``gone: false`` when he arrives or comes back. ``gameFull`` carries the extension
``presence``: each side's state by colour, which the board page reads. Time is the
server's time source (injectable): :meth:`Presence.look` tells what is due, on timers or
when a test calls it. Kept in the memory of the process owning the game: in a cluster the
other processes pass a player's stream on from the owner (``Cluster.forward_stream``), so
every stream of a player is counted here."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Final

from chessarbiter.arbiter.online import abandonment_wait
from chessarbiter.clock.records import Side
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.games import shapes
from chessarbiter.server.games.table import HubGame, ndjson
from chessarbiter.server.streams.lines import Line

GONE_MS: Final = 5_000
"""A player whose streams have all been closed this long has left the game."""
SIDES: Final = (Side.WHITE, Side.BLACK)

Queue = asyncio.Queue[Line]


@dataclass
class Seats:
    """One game's players at the board: each side's stream queues, whether it ever held
    one, when its last one closed, how far its opponent has been told of its absence
    (0: not, 1: gone, 2: gone and claimable) and the timers that will look again."""

    entry: HubGame
    queues: tuple[set[Queue], set[Queue]] = field(default_factory=lambda: (set(), set()))
    arrived: list[bool] = field(default_factory=lambda: [False, False])
    left_at: list[int | None] = field(default_factory=lambda: [None, None])
    told: list[int] = field(default_factory=lambda: [0, 0])
    timers: tuple[list[asyncio.TimerHandle], list[asyncio.TimerHandle]] = field(
        default_factory=lambda: ([], []))


class Presence:
    """The players at the board of every game with a player's stream open (or closed)."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.games: dict[str, Seats] = {}

    def absent_ms(self, game_id: str, side: Side) -> int:
        """How long ``side`` has held no stream of the game (0 if it holds one or never
        did)."""
        seats = self.games.get(game_id)
        since = None if seats is None else seats.left_at[side]
        return 0 if since is None else self.config.now_ms() - since

    def state(self, entry: HubGame, side: Side) -> str:
        """``here`` (a stream open, or closed less than :data:`GONE_MS` ago; an engine
        always), ``gone`` or ``absent`` (never arrived)."""
        if entry.meta.seat(side).engine is not None:
            return "here"
        seats = self.games.get(entry.id)
        if seats is None or not seats.arrived[side]:
            return "absent"
        return "gone" if seats.told[side] else "here"

    def arrive(self, entry: HubGame, side: Side, queue: Queue) -> None:
        """A stream of ``side``'s player opened: if he had not arrived or had left, his
        opponent hears he is here; ``queue`` hears whether the opponent has left."""
        was = self.state(entry, side)
        seats = self.games.setdefault(entry.id, Seats(entry))
        seats.entry = entry
        seats.queues[side].add(queue)
        seats.arrived[side] = True
        seats.left_at[side] = None
        seats.told[side] = 0
        _cancel(seats.timers[side])
        if was != "here":
            self._tell(seats, side.opponent, shapes.opponent_gone(False))
        if seats.told[side.opponent]:
            _put(queue, ndjson(self._gone_line(seats, side.opponent)))

    def leave(self, entry: HubGame, side: Side, queue: Queue) -> None:
        """A stream of ``side``'s player closed: with his last one his absence starts
        (unless the game is over); :meth:`look` is due after :data:`GONE_MS` and after the
        profile's ``abandonment_ms``."""
        seats = self.games.get(entry.id)
        if seats is None:
            return
        seats.entry = entry
        seats.queues[side].discard(queue)
        if entry.over:
            if not any(seats.queues):
                self._forget(entry.id, seats)
            return
        if seats.queues[side] or entry.meta.seat(side).engine is not None:
            return
        seats.left_at[side] = self.config.now_ms()
        if self.config.timers:
            limit = entry.game.setup.profile.abandonment_ms
            loop = asyncio.get_running_loop()
            _cancel(seats.timers[side])
            seats.timers[side].extend(
                loop.call_later(ms / 1000, self._look_at, entry.id, seats) for ms in (
                    GONE_MS, *(() if limit is None or limit <= GONE_MS else (limit,))))

    def look(self) -> int:
        """Tell the opponents of the players gone for :data:`GONE_MS` by now, then once
        more when their claim wait is over (each line once); how many lines were told.
        Games that are over are forgotten. (A timer looks at its own game only.)"""
        return sum(self._look_at(game_id, seats)
                   for game_id, seats in tuple(self.games.items()))

    def _look_at(self, game_id: str, seats: Seats) -> int:
        """:meth:`look` for one game."""
        if self.games.get(game_id) is not seats:
            return 0  # forgotten meanwhile
        if seats.entry.over:
            self._forget(game_id, seats)
            return 0
        told = 0
        for side in SIDES:
            absent = self.absent_ms(game_id, side)
            if seats.left_at[side] is None or absent < GONE_MS:
                continue
            stage = 2 if _wait_s(seats.entry, absent) == 0 else 1
            if seats.told[side] < stage:
                seats.told[side] = stage
                self._tell(seats, side.opponent, self._gone_line(seats, side))
                told += 1
        return told

    def _gone_line(self, seats: Seats, side: Side) -> dict[str, Any]:
        return shapes.opponent_gone(
            True, _wait_s(seats.entry, self.absent_ms(seats.entry.id, side)))

    def _tell(self, seats: Seats, side: Side, data: dict[str, Any]) -> None:
        line = ndjson(data)
        for queue in tuple(seats.queues[side]):
            _put(queue, line)

    def _forget(self, game_id: str, seats: Seats) -> None:
        for timers in seats.timers:
            _cancel(timers)
        self.games.pop(game_id, None)


def _wait_s(entry: HubGame, absent_ms: int) -> int | None:
    """Whole seconds (rounded up) until a claim, ``None`` where there is none
    (:func:`~chessarbiter.arbiter.online.abandonment_wait`)."""
    limit = abandonment_wait(entry.game.setup)
    if limit is None:
        return None
    return max(0, -(-(limit - absent_ms) // 1000))


def _put(queue: Queue, line: bytes) -> None:
    if not queue.full():  # a stream too far behind ends, and its next gameFull says it
        queue.put_nowait(line)


def _cancel(timers: list[asyncio.TimerHandle]) -> None:
    for timer in timers:
        timer.cancel()
    timers.clear()


def arrive(at_board: Presence, entry: HubGame, side: Side | None, queue: Queue) -> Side | None:
    """A game stream opened by ``side``'s player (``None``: a spectator): the side counted
    at the board, ``None`` for a spectator or when the game is over."""
    if entry.over or side is None:
        return None
    at_board.arrive(entry, side, queue)
    return side


def leave(at_board: Presence, entry: HubGame, side: Side | None, queue: Queue) -> None:
    """A game stream of ``side`` (``None``: a spectator's) closed."""
    if side is not None:
        at_board.leave(entry, side, queue)


def sides(at_board: Presence, entry: HubGame) -> dict[str, str] | None:
    """Each side's presence (:meth:`Presence.state`) by colour; ``None`` once the game is
    over."""
    if entry.over:
        return None
    return {side.name.lower(): at_board.state(entry, side) for side in SIDES}


def full(at_board: Presence, entry: HubGame) -> dict[str, Any]:
    """The ``gameFull`` object, with each side's ``presence`` when it is known."""
    data = entry.full()
    known = sides(at_board, entry)
    if known is not None:
        data["presence"] = known
    return data
