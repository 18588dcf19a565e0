"""A game played live: the arbiter's :class:`Game` with a running time source.

Events get their ``at_ms`` from the time source, continuing from the log's last event (so a
resumed game picks up where its log ends), or, for a game dated by an ``epoch``
(correspondence), counted from it. The program acts as the arbiter at the board: it
records a fallen flag as soon as it looks (Art. 6.8), before the next player's event.

A game is kept as it is recorded: when its recorder cannot keep an accepted event (a store
or journal that fails), the event is taken back, the game stops there and every later action
raises the same :class:`RecordingError`; what was recorded before stays as it was. An
interrupt (Ctrl-C, SIGTERM) never comes between an event's acceptance and its record.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import NoReturn, Protocol

from chessarbiter.arbiter.decisions import Decision
from chessarbiter.arbiter.errors import ArbiterError
from chessarbiter.arbiter.events import (
    ClaimKind,
    ClocksStarted,
    DrawClaimed,
    DrawOffered,
    Event,
    FlagObserved,
    Moved,
    OfferAccepted,
    OfferDeclined,
    Resigned,
)
from chessarbiter.arbiter.game import Game
from chessarbiter.clock.clock import monotonic_ms
from chessarbiter.clock.records import Side, Start
from chessarbiter.core.errors import ChessError
from chessarbiter.core.moves import Move
from chessarbiter.core.position import Position
from chessarbiter.notation.san import parse_san
from chessarbiter.session.interrupts import interrupts_held


def read_move(pos: Position, text: str) -> Move:
    """A move typed by a person: SAN (lenient: ``Nf3``, ``0-0``, ``exd6 e.p.``...), long
    algebraic (``Ng1-f3``) or UCI (``g1f3``). Raises a :class:`ChessError` saying why not."""
    text = text.strip()
    try:
        return parse_san(pos, text)
    except ChessError as san_error:
        try:
            return pos.parse_uci(text.lower())
        except ChessError:
            raise san_error from None


class RecordingError(RuntimeError):
    """An accepted event its recorder could not keep: the game stops where its record ends.
    Not a player's error (never a :class:`ValueError`): says where the game is kept and why
    the write failed."""


class Recorder(Protocol):
    """Where a live game's events go as they are accepted: a journal file or a game of a
    store (:class:`chessarbiter.store.Recording`)."""

    @property
    def where(self) -> str:
        """Where the game is kept, for people."""
        ...

    def append(self, event: Event) -> None:
        """Keep one accepted event (on disk when this returns)."""
        ...

    def close(self) -> None:
        ...


class LiveGame:
    """A :class:`Game` on a running clock, optionally recorded as it goes (a journal file or
    a store)."""

    def __init__(
        self,
        game: Game,
        now: Callable[[], int] = monotonic_ms,
        journal: Recorder | None = None,
        *,
        epoch: int | None = None,
    ) -> None:
        self.game = game
        self.journal = journal
        self.failure: RecordingError | None = None
        """Why the game stopped, once its recorder failed."""
        self._now = now
        self._base = now() - self.last_at() if epoch is None else epoch
        """The time source's reading at game time 0. By default the game's time goes on
        from its last event (a resumed game charges no one for the time it was away);
        ``epoch`` dates it instead (a wall clock's reading at the game's start): the time
        away counts, as a correspondence deadline is a date."""
        self._paused = False
        self._epoch = epoch

    def last_at(self) -> int:
        """``at_ms`` of the log's last event (0 before the first)."""
        log = self.game.log
        return log[-1].at_ms if log else 0

    def time(self) -> int:
        """The game's time now (never before its last event; its last event's while
        paused)."""
        return self.time_at(self._now())

    def time_at(self, instant: int) -> int:
        """The game's time at ``instant`` of the time source (not after now; never before
        its last event; its last event's while paused)."""
        if self._paused:
            return self.last_at()
        return max(instant - self._base, self.last_at())

    def pause(self) -> None:
        """Stop the game's time at its last event until :meth:`resume`: the time between is
        charged to no one (a server between an event's arrival and its delivery)."""
        self._paused = True

    def resume(self, instant: int | None = None) -> None:
        """Let the game's time run on from its last event, from ``instant`` of the time
        source (default now): as a game loaded from its log. A game dated by an ``epoch``
        keeps its date: its time is the calendar's, whatever the pause."""
        self._paused = False
        if self._epoch is not None:
            return
        self._base = (self._now() if instant is None else instant) - self.last_at()

    def apply(self, event: Event) -> tuple[Decision, ...]:
        """Rule on an event and journal it once accepted; :class:`RecordingError` (the
        event taken back, the game stopped) if the journal cannot keep it. A SIGINT or
        SIGTERM that comes meanwhile takes effect once the event is both or neither."""
        if self.failure is not None:
            raise self.failure
        if self.journal is None:
            return self.game.apply(event)
        with interrupts_held():  # accepted and recorded, or neither: a signal waits
            decisions = self.game.apply(event)
            try:
                self.journal.append(self.game.log[-1])  # as recorded, with its analysis
            except Exception as exc:  # whatever the write's failure, the record ends here
                self._stop(exc)
        return decisions

    def _stop(self, exc: Exception) -> NoReturn:
        """Take back the last event (its record failed) and stop the game."""
        game = self.game
        with contextlib.suppress(ArbiterError):  # (a log without analyses: left as played)
            self.game = Game.replay(game.setup, game.log[:-1], start=game.start_analysis)
        where = self.journal.where if self.journal is not None else "nowhere"
        self.failure = RecordingError(
            f"cannot record the game: {exc}; the game stops here, everything before is "
            f"kept in {where}")
        raise self.failure from exc

    def start(self) -> tuple[Decision, ...]:
        """Start White's clock (Art. 6.5) where the profile's clock starts that way (not in
        a game over from its start position, e.g. a stalemate)."""
        setup = self.game.setup
        if (
            setup.control is None
            or setup.profile.clock_start is not Start.BLACK_STARTS_WHITE
            or self.game.log
            or self.game.is_over
        ):
            return ()
        return self.apply(ClocksStarted(self.time()))

    def clocks(self) -> tuple[int, int] | None:
        """White's and Black's displays now (``None`` without a clock)."""
        return self.game.clock_at(self.time())

    def flag_fallen(self) -> bool:
        """Whether the running display has reached zero by now."""
        left = self.game.time_to_flag()
        return left is not None and self.time() >= self.last_at() + left

    def observe_flag(self) -> tuple[Decision, ...]:
        """Record a fallen flag (Art. 6.8); nothing if none has fallen or the game is over."""
        if self.game.is_over or not self.flag_fallen():
            return ()
        return self.apply(FlagObserved(self.time()))

    def _act(self, event: Callable[[int], Event]) -> tuple[Decision, ...]:
        flagged = self.observe_flag()
        if flagged and self.game.is_over:
            return flagged
        return flagged + self.apply(event(self.time()))

    # -- the players' actions (each raises ArbiterError / ChessError, changing nothing) --

    def move(self, side: Side, text: str, *, offer_draw: bool = False) -> tuple[Decision, ...]:
        """Play a move typed in SAN, long algebraic or UCI, pressing the clock."""
        if self.game.is_over:
            raise ArbiterError(f"the game is over ({self.game.outcome})")
        pos = self.game.position()
        move = read_move(pos, text)
        uci = pos.uci(move)
        return self._act(lambda at: Moved(at, side, uci, offer_draw))

    def offer(self, side: Side) -> tuple[Decision, ...]:
        """Offer a draw (Art. 9.1)."""
        return self._act(lambda at: DrawOffered(at, side))

    def accept(self, side: Side) -> tuple[Decision, ...]:
        """Accept the opponent's draw offer (Art. 9.1, 5.2.3)."""
        return self._act(lambda at: OfferAccepted(at, side))

    def decline(self, side: Side) -> tuple[Decision, ...]:
        """Decline the opponent's draw offer (Art. 9.1)."""
        return self._act(lambda at: OfferDeclined(at, side))

    def claim(
        self, side: Side, kind: ClaimKind, intended: str | None = None
    ) -> tuple[Decision, ...]:
        """Claim a draw by repetition or the 50-move rule (Art. 9.2, 9.3), optionally on the
        intended move (typed like any move)."""
        uci = None
        if intended is not None:
            pos = self.game.position()
            uci = pos.uci(read_move(pos, intended))
        return self._act(lambda at: DrawClaimed(at, side, kind, uci))

    def resign(self, side: Side) -> tuple[Decision, ...]:
        """Resign (Art. 5.1.2)."""
        return self._act(lambda at: Resigned(at, side))

    def close(self) -> None:
        """Close the journal."""
        if self.journal is not None:
            self.journal.close()
