"""The chess clock (Laws Art. 6): two displays, one running, pressed after each move.

Times are integer milliseconds from an injected monotonic time source ``now``. The clock keeps
counting after a flag (readings go negative): a flag is a reading, the result is the arbiter's.
Readings change nothing: a flag is recorded, at the instant it fell, by the next operation.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from chessarbiter.clock.controls import BonusMode, Period, TimeControl
from chessarbiter.clock.errors import ClockError
from chessarbiter.clock.records import Flag, Press, Side, Start
from chessarbiter.core.squares import SIDES

_NONE, _INCREMENT, _BRONSTEIN, _DELAY, _HOURGLASS, _DEADLINE = range(6)
_CODES = {
    BonusMode.NONE: _NONE,
    BonusMode.INCREMENT: _INCREMENT,
    BonusMode.BRONSTEIN: _BRONSTEIN,
    BonusMode.DELAY: _DELAY,
    BonusMode.HOURGLASS: _HOURGLASS,
    BonusMode.DEADLINE: _DEADLINE,
}
_UNTIMED_PRESSES = {Start.BLACK_STARTS_WHITE: 0, Start.WHITE_FIRST_MOVE: 1, Start.BOTH_MOVED: 2}
SCORE_EXEMPTION_MS = 5 * 60_000
"""Art. 8.4: under five minutes a player need not record the moves..."""
SCORE_BONUS_MS = 30_000
"""...unless at least 30 seconds are added with each move."""


def monotonic_ms() -> int:
    """The default time source: the process's monotonic clock in milliseconds."""
    return time.monotonic_ns() // 1_000_000


class Clock:
    """A chess clock for one game under a :class:`TimeControl`.

    ``increment_before_first_move`` also credits the first period's Fischer increment before
    move 1 (the display starts at time + increment, as FIDE-approved clocks are usually set);
    it is off by default (the PGN and online convention). Untimed opening moves (``start``)
    earn no bonus.
    """

    def __init__(
        self,
        control: TimeControl,
        now: Callable[[], int] = monotonic_ms,
        *,
        start: Start = Start.BLACK_STARTS_WHITE,
        increment_before_first_move: bool = False,
    ) -> None:
        self.control = control
        self._now = now
        self._table = [
            (p.moves or 0, p.time_ms, p.bonus_ms, _CODES[p.mode]) for p in control.periods
        ]
        first = control.periods[0]
        initial = first.time_ms
        if increment_before_first_move and first.mode is BonusMode.INCREMENT:
            initial += first.bonus_ms
        self._stored = [initial, initial]
        """Each display at the start of the current move (before the mover's use)."""
        self._moves = [0, 0]
        self._period = [0, 0]
        self._in_period = [0, 0]
        self._turn = 0
        self._untimed = _UNTIMED_PRESSES[start]
        self._started = False
        self._running = False
        self._since = 0
        self._used = 0
        """Time the mover used on this move before ``_since`` (across stops)."""
        self._flagged = [False, False]
        self._flags: list[Flag] = []
        self._presses: list[tuple[int, int, int, int, int, int, int, int]] = []
        """Each press as :class:`Press` fields (the mover as 0 or 1): the records themselves
        are built when asked for (:attr:`presses`), not on every move."""
        self._records: list[Press] = []

    # -- the players' operations --------------------------------------------------------

    def start(self) -> None:
        """Black starts White's clock (Art. 6.5)."""
        if self._started or self._untimed:
            raise ClockError("start: the clock is already started or starts with a press")
        self._started = self._running = True
        self._since = self._now()

    def press(self, side: Side) -> Press:
        """``side`` completes a move and starts the opponent's clock (Art. 6.7)."""
        self.complete_move(side)
        return self._press_records()[-1]

    def complete_move(self, side: Side) -> tuple[int, int]:
        """:meth:`press`, answering only the mover's display after it (his ``%clk``) and the
        time he used (``%emt``): the arbiter's press on every move. The move ends with his
        period's bonus (Art. 6.2) and, after the period's last move, the next period's time;
        then the opponent's clock runs."""
        t = self._now()
        mover = self._turn
        if side != mover:
            raise ClockError(f"{side.name} pressed, but {SIDES[mover].name} has the move")
        untimed = not self._running
        if untimed:
            if not self._untimed:
                if self._started:
                    raise ClockError(f"{side.name} pressed a stopped clock (Art. 6.12: "
                                     "restart it)")
                raise ClockError(f"{side.name} pressed before the start (Art. 6.5: call start)")
            used = 0
        else:
            used = self._used + t - self._since
            if used >= self._stored[mover]:  # the allowance is never below the display
                fallen = self._fallen(t)
                if fallen is not None:
                    self._record(fallen)
        moves, period_ms, bonus, code = self._table[self._period[mover]]
        stored = self._stored
        credit = 0
        if untimed:
            self._untimed -= 1
            if not self._untimed:
                self._started = self._running = True
        elif code == _INCREMENT:
            credit = bonus
        elif code in (_BRONSTEIN, _DELAY):
            credit = used if used < bonus else bonus
        elif code == _HOURGLASS:
            stored[1 - mover] += used
            if stored[1 - mover] > 0:
                self._flagged[1 - mover] = False
        elif code == _DEADLINE:  # the next move has the whole time again
            credit = period_ms - stored[mover] + used
        left = stored[mover] + credit - used
        added = 0
        in_period = self._in_period[mover] + 1
        if moves and in_period == moves:
            in_period = 0
            if self._period[mover] + 1 < len(self._table):
                self._period[mover] += 1
            added = self._table[self._period[mover]][1]
            left += added
        self._in_period[mover] = in_period
        stored[mover] = left
        if left > 0:
            self._flagged[mover] = False
        number = self._moves[mover] + 1
        self._moves[mover] = number
        self._turn = 1 - mover
        self._since = t
        self._used = 0
        self._presses.append((mover, number, t, used, credit, added, stored[0], stored[1]))
        return left, used

    # -- the arbiter's operations --------------------------------------------------------

    def stop(self) -> None:
        """Stop both clocks (Art. 6.12)."""
        if not self._running:
            raise ClockError("stop: the clocks are not running")
        t = self._now()
        self._observe(t)
        self._used += t - self._since
        self._running = False

    def restart(self) -> None:
        """Restart the clock of the player to move after a stop (Art. 6.12(c))."""
        if self._running or not self._started:
            raise ClockError("restart: the clocks are running or the game has not started")
        self._running = True
        self._since = self._now()

    def add_time(self, side: Side, ms: int) -> None:
        """Add (``ms`` > 0) or remove (``ms`` < 0) time on a display: penalties and
        compensation (Art. 13.4(b)(c), 13.5)."""
        t = self._now()
        self._observe(t)
        self._stored[side] += ms
        self._settle(t)

    def set_displays(
        self,
        white_ms: int,
        black_ms: int,
        *,
        to_move: Side | None = None,
        moves: tuple[int, int] | None = None,
    ) -> None:
        """Set the displays after an irregularity (Art. 6.13), and optionally who is on move
        (his move starts afresh) and each side's move counter (which selects the period)."""
        t = self._now()
        self._observe(t)
        if to_move is not None and to_move != self._turn:
            self._turn, self._used, self._since = int(to_move), 0, t
        if moves is not None:
            for s, count in enumerate(moves):
                self._moves[s] = count
                self._period[s], self._in_period[s] = self.control.period_index(count)
        used = self._used_at(t)
        for s, target in enumerate((white_ms, black_ms)):
            self._stored[s] = target - self._reading(s, used) + self._stored[s]
        self._settle(t)

    # -- readings -----------------------------------------------------------------------

    @property
    def to_move(self) -> Side:
        """The side whose clock runs, or would run."""
        return SIDES[self._turn]

    @property
    def running(self) -> bool:
        return self._running

    def remaining(self, side: Side) -> int:
        """A display's reading now (negative once its flag has fallen)."""
        return self._reading(side, self._used_at(self._now()))

    def readings(self) -> tuple[int, int]:
        """White's and Black's displays now."""
        return self.readings_at(self._now())

    def readings_at(self, t: int) -> tuple[int, int]:
        """White's and Black's displays at time ``t`` of the time source: for showing a
        running clock between events."""
        used = self._used_at(t)
        return self._reading(0, used), self._reading(1, used)

    def time_to_flag(self) -> int | None:
        """Milliseconds until the running display's flag falls (0 if it has), ``None`` when
        no clock runs: a server needs one timer per game."""
        if not self._running:
            return None
        left = self._allowance(self._turn) - self._used_at(self._now())
        return left if left > 0 else 0

    @property
    def flag_count(self) -> int:
        """How many flag falls the clock's operations have recorded (a flag fallen since the
        last operation is not counted: see :attr:`flags`)."""
        return len(self._flags)

    @property
    def flags(self) -> tuple[Flag, ...]:
        """Every flag fall so far, first first, including one fallen since the last
        operation."""
        fallen = self._fallen(self._now())
        return tuple(self._flags) if fallen is None else (*self._flags, fallen)

    def both_flags_down(self) -> bool:
        """Both displays show expired time (Art. 6.11, 10.4: the arbiter rules on it)."""
        flagged = list(self._flagged)
        if self._fallen(self._now()) is not None:
            flagged[self._turn] = True
        return all(flagged)

    @property
    def presses(self) -> tuple[Press, ...]:
        """Every completed move, in order."""
        return tuple(self._press_records())

    def _press_records(self) -> list[Press]:
        built = self._records
        if len(built) < len(self._presses):
            built += [Press(SIDES[fields[0]], *fields[1:])
                      for fields in self._presses[len(built):]]
        return built

    def moves(self, side: Side) -> int:
        """The moves ``side`` has completed (the clock's move counter)."""
        return self._moves[side]

    def period(self, side: Side) -> Period:
        """The period ``side``'s next (or current) move belongs to."""
        return self.control.periods[self._period[side]]

    def in_sudden_death(self, side: Side) -> bool:
        """``side`` plays the rest of the game with no time added per move (S10.1, USCF
        14H: see :attr:`Period.sudden_death`); reads nothing off the running clock."""
        return self.period(side).sudden_death

    def need_not_record(self, side: Side) -> bool:
        """Art. 8.4: under five minutes left and less than 30 s added with each move, the
        player need not keep score (a delay counts as time added, as US Chess reads it)."""
        return (
            self.remaining(side) < SCORE_EXEMPTION_MS
            and self.period(side).bonus_ms < SCORE_BONUS_MS
        )

    # -- internals ----------------------------------------------------------------------

    def _used_at(self, t: int) -> int:
        return self._used + t - self._since if self._running else self._used

    def _allowance(self, s: int) -> int:
        """The mover's use at which his display reaches zero."""
        _, _, bonus, code = self._table[self._period[s]]
        return self._stored[s] + (bonus if code == _DELAY else 0)

    def _reading(self, s: int, used: int) -> int:
        """Display ``s`` when the mover has used ``used`` on his move."""
        turn = self._turn
        if not self._started:
            return self._stored[s]
        _, _, bonus, code = self._table[self._period[turn]]
        if s != turn:
            return self._stored[s] + (used if code == _HOURGLASS else 0)
        if code == _DELAY:
            return self._stored[s] - (used - bonus if used > bonus else 0)
        return self._stored[s] - used

    def _fallen(self, t: int) -> Flag | None:
        """The running display's flag if it fell by ``t`` and is not yet recorded, at the
        exact moment it fell."""
        s = self._turn
        if not self._running or self._flagged[s]:
            return None
        allowance = self._allowance(s)
        if self._used + t - self._since < allowance:
            return None
        return self._flag_at(s, self._since + allowance - self._used, allowance)

    def _observe(self, t: int) -> None:
        """Before an operation changes the clock: record the flag that fell by ``t``."""
        fallen = self._fallen(t)
        if fallen is not None:
            self._record(fallen)

    def _settle(self, t: int) -> None:
        """After an arbiter's change: a display at or below zero has flagged now, one above
        zero can flag again."""
        used = self._used_at(t)
        for s in (0, 1):
            if self._reading(s, used) > 0:
                self._flagged[s] = False
            elif not self._flagged[s]:
                self._record(self._flag_at(s, t, used))

    def _flag_at(self, s: int, at: int, used: int) -> Flag:
        """Display ``s``'s flag falling at ``at``, the mover having used ``used``."""
        return Flag(SIDES[s], at, self._moves[s] + 1, self._reading(1 - s, used))

    def _record(self, flag: Flag) -> None:
        self._flagged[flag.side] = True
        self._flags.append(flag)
