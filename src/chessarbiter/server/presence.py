"""Whether each player is at the board: the game streams each side holds open on this
server. A side that has never opened its game's stream has not arrived; one whose streams
have all been closed for :data:`GONE_MS` has left (a page reloaded, a connection dropped
for a moment, is not leaving). The player's streams carry it: ``gameFull``'s extension
``presence`` (each side ``here``, ``absent``: not arrived, or ``gone``), then lichess'
``opponentGone`` line (``gone`` true when the opponent has left, false when they arrive or
come back), sent to the opponent's streams only. Time is the server's time source
(injectable): :meth:`Presence.look` decides who has left, on a timer or when a test calls
it. In a cluster a process sees only the streams it serves, so no presence is told."""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from typing import TYPE_CHECKING, Any, Final

from starlette.requests import Request
from starlette.types import Receive, Scope

from chessarbiter.clock.records import Side
from chessarbiter.server import auth
from chessarbiter.server.errors import ApiError
from chessarbiter.server.table import HubGame, Line, ndjson

if TYPE_CHECKING:
    from chessarbiter.server.hub import Hub

GONE_MS: Final = 5_000
"""A player whose streams have all been closed this long has left the game."""

Key = tuple[str, Side]
"""A game's id and a side."""


class Presence:
    """The players' streams of one hub's games, and who has left (see the module)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.streams: dict[Key, set[asyncio.Queue[Line]]] = {}
        self.left_at: dict[Key, int] = {}
        """When each side that was here closed its last stream (the server's time)."""
        self.gone: set[Key] = set()
        """The sides whose opponents were told they have left."""

    def state(self, game_id: str, side: Side) -> str:
        """``here`` (a stream open, or closed less than :data:`GONE_MS` ago; an engine
        always), ``gone`` or ``absent`` (never arrived)."""
        entry = self.hub.games.get(game_id)
        if entry is not None and entry.meta.seat(side).engine is not None:
            return "here"
        key = (game_id, side)
        if key in self.gone:
            return "gone"
        return "here" if self.streams.get(key) or key in self.left_at else "absent"

    def arrive(self, entry: HubGame, side: Side, queue: asyncio.Queue[Line]) -> None:
        """``side`` opened a stream: its opponent is told if it had not arrived or had
        left."""
        key = (entry.id, side)
        if self.state(entry.id, side) != "here":
            self._tell(entry.id, side.opponent, False)
        self.gone.discard(key)
        self.left_at.pop(key, None)
        self.streams.setdefault(key, set()).add(queue)

    def leave(self, entry: HubGame, side: Side, queue: asyncio.Queue[Line]) -> None:
        """One of ``side``'s streams closed; with its last one, the wait for
        :data:`GONE_MS` starts."""
        key = (entry.id, side)
        queues = self.streams.get(key, set())
        queues.discard(queue)
        if queues:
            return
        self.streams.pop(key, None)
        if entry.over:
            return
        self.left_at[key] = self.hub.config.now_ms()
        if self.hub.config.timers:
            self.hub.loop.call_later(GONE_MS / 1000, self.look)

    def look(self) -> int:
        """Tell the opponents of the players gone for :data:`GONE_MS` by now (once each);
        how many were told. Sides of games that are over are forgotten."""
        now = self.hub.config.now_ms()
        told = 0
        for key, at in tuple(self.left_at.items()):
            entry = self.hub.games.get(key[0])
            if entry is None or entry.over:
                del self.left_at[key]
                self.gone.discard(key)
            elif key not in self.gone and now - at >= GONE_MS:
                self.gone.add(key)
                self._tell(key[0], key[1].opponent, True)
                told += 1
        return told

    def _tell(self, game_id: str, side: Side, gone: bool) -> None:
        line = ndjson({"type": "opponentGone", "gone": gone})
        for queue in tuple(self.streams.get((game_id, side), ())):
            with contextlib.suppress(asyncio.QueueFull):  # a stream too far behind: it
                queue.put_nowait(line)  # ends, and the gameFull of the next says it


PRESENCE: weakref.WeakKeyDictionary[Hub, Presence] = weakref.WeakKeyDictionary()


def presence_of(hub: Hub) -> Presence | None:
    """The hub's :class:`Presence` (``None`` in a cluster)."""
    if hub.cluster is not None:
        return None
    found = PRESENCE.get(hub)
    if found is None:
        found = PRESENCE[hub] = Presence(hub)
    return found


def arrive(hub: Hub, scope: Scope, receive: Receive, entry: HubGame,
           queue: asyncio.Queue[Line]) -> Side | None:
    """A game stream opened: the side of its holder (``None``: a spectator), counted."""
    presence = presence_of(hub)
    if presence is None or entry.over:
        return None
    side = None
    with contextlib.suppress(ApiError):  # not a player: a spectator
        side = auth.player_side(Request(scope, receive), hub, entry)
    if side is not None:
        presence.arrive(entry, side, queue)
    return side


def leave(hub: Hub, entry: HubGame, side: Side | None, queue: asyncio.Queue[Line]) -> None:
    """A game stream of ``side`` (``None``: a spectator's) closed."""
    presence = presence_of(hub)
    if presence is not None and side is not None:
        presence.leave(entry, side, queue)


def sides(hub: Hub, entry: HubGame) -> dict[str, str] | None:
    """Each side's presence (:meth:`Presence.state`) by colour; ``None`` when it is not
    known (a cluster) or the game is over."""
    presence = presence_of(hub)
    if presence is None or entry.over:
        return None
    return {name: presence.state(entry.id, side)
            for name, side in (("white", Side.WHITE), ("black", Side.BLACK))}


def full(hub: Hub, entry: HubGame) -> dict[str, Any]:
    """The ``gameFull`` object, with each side's ``presence`` when it is known."""
    data = entry.full()
    known = sides(hub, entry)
    if known is not None:
        data["presence"] = known
    return data
