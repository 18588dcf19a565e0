"""One game in the hub: the live game, who plays it, its subscribers and the last update as
it goes out on the streams (serialized once, whatever the number of subscribers)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any, Final

from chessarbiter.arbiter.decisions import Decision
from chessarbiter.arbiter.events import Event, Moved
from chessarbiter.clock.records import Side, Start
from chessarbiter.core.moves import uci
from chessarbiter.server.games import shapes
from chessarbiter.server.games.meta import GameMeta
from chessarbiter.server.streams.fanout import Relay, unrelayed
from chessarbiter.server.streams.lines import Line, close_queue
from chessarbiter.session.live import LiveGame

LAG_QUOTA: Final = 3
"""A player's lag quota holds at most this many allowances (and starts full)."""
LAG_REGAIN: Final = 3
"""Each event of a player's regains this fraction (1/3) of the allowance to the quota."""
QUEUE_LIMIT: Final = 256
"""Updates a subscriber may fall behind before its stream is closed."""


class HubGame:
    """A game being played (or kept for its spectators): ``live`` (the arbiter's game on the
    server's clock), ``meta`` (players, origin), ``lag_ms`` (the lag compensation) and
    ``subscribers`` (each stream's queue of lines)."""

    def __init__(self, meta: GameMeta, live: LiveGame, lag_ms: int) -> None:
        self.meta = meta
        self.live = live
        self.game = live.game
        self.lag_ms = lag_ms
        self.lag_quota = [LAG_QUOTA * lag_ms, LAG_QUOTA * lag_ms]
        """The lag compensation each side (by ``Side.value``) may still have: each
        compensated event spends what it used and regains a third of the allowance (as
        lichess' lag quota), so a player whose every reply comes just within the
        allowance is still charged most of it."""
        self.subscribers: set[asyncio.Queue[Line]] = set()
        self.timer: asyncio.TimerHandle | asyncio.Handle | None = None
        self.timer_at = 0.0
        """When ``timer`` fires (the loop's clock)."""
        self.stop = threading.Event()
        """Set when the game ends: an engine thinking for it stops."""
        self.thinking = False
        self.sequence = asyncio.Lock()
        """The game's one sequence: every command for the game (move, offer, claim, abort,
        resignation, flag, arbiter's decision) holds it from its check to its commit."""
        self.arrivals: list[tuple[Side | None, int]] = []
        """The commands waiting in (or holding) the sequence: each one's side and the
        instant it arrived (the server's time source)."""
        self.waiting_since = 0
        """When (the server's time source, ms) the game was loaded or last had a move:
        the start of a wait for a first move (:mod:`~.unstarted`)."""
        self.aborting = False
        """Being aborted for want of a first move."""
        self.flagging: asyncio.Future[None] | None = None
        """Recording a fallen flag (queued in the sequence, or its analysis running)."""
        self.version = 0
        """Events applied since loaded: a ruling computed meanwhile checks it is still
        about the same game."""
        self.engine: Any = None
        """The engine player (created at its first move)."""
        self.secrets: dict[str, Side] = {}
        """Game secrets already checked (as Bearer tokens), by the side each is."""
        self.moves: list[str] = [self._uci(r.move) for r in self.game.records]
        self.last_decisions: tuple[Decision, ...] = ()
        self.line = self._state_line()
        self.relay: Relay = unrelayed
        """Also gets every line published (the processes relaying the game, through the
        fan-out: :meth:`~chessarbiter.server.streams.fanout.Fanout.relay_for`)."""
        self.published_at = time.monotonic()
        """When a line last went out on the streams (the keep-alive's clock)."""

    # -- reading ---------------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.meta.id

    @property
    def over(self) -> bool:
        """Finished (an outcome) or aborted: no player may act."""
        return self.meta.aborted or self.game.is_over

    def allowance(self, side: Side) -> int:
        """The lag compensation ``side`` may have now: the allowance, within its quota."""
        return min(self.lag_ms, self.lag_quota[side.value])

    def stamp(self, side: Side | None, arrived: int) -> int:
        """The game time of an event of ``side`` (``None``: the arbiter's) that arrived at
        ``arrived`` (the server's time source): lag-compensated within the side's quota,
        never before the last event."""
        live = self.live
        lag = self.lag_ms if side is None else self.allowance(side)
        return max(live.last_at(), live.time_at(arrived) - lag)

    def looked_at(self, side: Side) -> int:
        """The game time by which a flag of ``side`` counts as fallen: now, or when the
        first of ``side``'s commands still waiting in the sequence arrived (a move that
        arrived in time is not flagged for the server's delay in serving it)."""
        live = self.live
        instant = live.time()
        for who, arrived in self.arrivals:
            if who is side:
                instant = min(instant, live.time_at(arrived))
        return instant

    def spend_lag(self, side: Side, used: int) -> None:
        """Count ``used`` ms of compensation given to an event of ``side`` against its
        quota (:attr:`lag_quota`)."""
        quota = self.lag_quota[side.value] - used + self.lag_ms // LAG_REGAIN
        self.lag_quota[side.value] = min(LAG_QUOTA * self.lag_ms, quota)

    def side_of(self, account: str | None, secret_hash: str | None) -> Side | None:
        """The side the holder of ``account`` (an account id) or of the secret hashed
        ``secret_hash`` plays; the side to move when one account plays both."""
        found = [side for side in (Side.WHITE, Side.BLACK)
                 if _holds(self.meta.seat(side), account, secret_hash)]
        if len(found) == 2:
            return self.game.to_move
        return found[0] if found else None

    def state(self, decisions: tuple[Decision, ...] = (), *, now: bool = False
              ) -> dict[str, Any]:
        """The ``gameState`` now (``now``: the clocks as they run at this instant) or as
        of the last event."""
        clocks = self.live.clocks() if now else self.game.clock_ms()
        return shapes.game_state(self.game, self.meta, " ".join(self.moves), clocks,
                                 decisions)

    def full(self) -> dict[str, Any]:
        """The ``gameFull`` object, its state with the clocks now."""
        return shapes.game_full(self.game, self.meta, self.state(self.last_decisions, now=True))

    def game_event(self, side: Side) -> dict[str, Any]:
        """The ``game`` object of ``gameStart``/``gameFinish`` and ``nowPlaying`` for
        ``side``'s player (:func:`shapes.game_event`)."""
        return shapes.game_event(self.game, self.meta, self.moves, self.live.clocks(), side)

    # -- updating --------------------------------------------------------------------

    def applied(self, event: Event, decisions: tuple[Decision, ...]) -> bytes:
        """Bring the moves and the update line up to date after ``event``; the line."""
        self.version += 1
        if type(event) is Moved:  # as the board has it (castling e1h1 is e1g1 in standard)
            self.moves.append(self._uci(self.game.records[-1].move))
        else:  # an arbiter's event may take moves back (7.5.1) or start a new game (7.2)
            self.moves = [self._uci(r.move) for r in self.game.records]
        self.last_decisions = decisions
        self.line = self._state_line(decisions)
        return self.line

    def aborted(self, meta: GameMeta) -> bytes:
        self.meta = meta
        self.line = self._state_line()
        return self.line

    def publish(self, line: Line, skip: frozenset[asyncio.Queue[Line]] = frozenset()) -> None:
        """Queue ``line`` on every stream (but those in ``skip``); a stream too far behind
        is closed."""
        self.published_at = time.monotonic()
        self.relay(line)
        for queue in tuple(self.subscribers - skip):
            try:
                queue.put_nowait(line)
            except asyncio.QueueFull:
                self.subscribers.discard(queue)
                close_queue(queue)

    def subscribe(self) -> asyncio.Queue[Line]:
        queue: asyncio.Queue[Line] = asyncio.Queue(QUEUE_LIMIT)
        self.subscribers.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[Line]) -> None:
        self.subscribers.discard(queue)

    def close_streams(self) -> None:
        for queue in self.subscribers:
            close_queue(queue)
        self.subscribers.clear()

    def _state_line(self, decisions: tuple[Decision, ...] = ()) -> bytes:
        return ndjson(self.state(decisions))

    def _uci(self, move: int) -> str:
        return uci(move, self.game.setup.chess960)


_COMPACT: Final = json.JSONEncoder(separators=(",", ":"))
"""Made once: ``json.dumps`` with separators makes an encoder on every call."""


def ndjson(data: dict[str, Any]) -> bytes:
    """One NDJSON line."""
    return _COMPACT.encode(data).encode() + b"\n"


def _holds(seat: Any, account: str | None, secret_hash: str | None) -> bool:
    return ((account is not None and seat.account == account)
            or (secret_hash is not None and seat.secret_hash == secret_hash))



def awaits_round_start(entry: HubGame) -> bool:
    """Whether a tournament game waits for its round to start: its profile starts the
    clocks at the start of the game (Art. 6.5: the arbiter starts the round, then Black
    starts White's clock), and they have not run yet (no move, the clocks still)."""
    setup = entry.game.setup
    return (not entry.over and setup.control is not None
            and setup.profile.clock_start is Start.BLACK_STARTS_WHITE
            and not entry.moves and entry.game.time_to_flag() is None
            and entry.game.pending_ruling is None)
