"""Time management: how long to think about one move under any clock mode.

The budget has a target (the search starts no new iteration after a share of it, which
follows how settled its choice is) and a hard maximum (abort the search). ``Move Overhead``
is kept back every move for what the clock sees but the search does not (communication,
process scheduling). Delay and Bronstein bonuses are free time: thinking within them costs
nothing. Hourglass time used is handed to the opponent, so it is spent sparingly. Under an
increment the own time is shared by fewer moves as the game goes on, so that it is spent
by the middlegame's end (:data:`INCREMENT_SPENT_BY`) rather than left on the clock.

Below :data:`EMERGENCY_MS` of its own time (more when the overhead is large) the engine
plays in an emergency mode: it spends at most a quarter of an increment, less the closer
its clock is to zero (so the clock grows back by the rest), a smaller share of what is
left, and never more than a quarter of it on one move, so that a move slowed down by a
loaded machine still leaves time. Every move to come is counted to lose the overhead again.
A :class:`Timekeeper` learns a player's real overhead from its clock over a game.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from chessarbiter.clock.clock import monotonic_ms
from chessarbiter.clock.controls import BonusMode, TimeControl

DEFAULT_MOVES_LEFT: Final = 30
"""Moves assumed still to play in a rest-of-game period."""
INCREMENT_MOVES_LEFT: Final = 20
"""The same under an increment, at most: the clock settles where a move's think time equals
the increment, lower the fewer moves share it, so fewer leave less of it unused at the end."""
INCREMENT_SPENT_BY: Final = 40
"""Under an increment, the player's move by which its own time is spent down to the pace
of the increment: outside the emergency mode the moves left are those until this move (at
least :data:`INCREMENT_MIN_MOVES_LEFT`, at most :data:`INCREMENT_MOVES_LEFT`), so the
middlegame gets the time a game decided there would leave unused."""
INCREMENT_MIN_MOVES_LEFT: Final = 10
HOURGLASS_MOVES_LEFT: Final = 45
MOVE_OVERHEAD_MS: Final = 50
"""Kept back each move for communication and process scheduling."""
MIN_THINK_MS: Final = 5
HARD_FACTOR: Final = 3
"""The hard maximum is this many targets (but at most half the time left)."""
EMERGENCY_MS: Final = 1_000
"""Below this much time of its own (a delay aside), or eight overheads if more, the engine
is in its emergency mode."""
RESERVE_MS: Final = 250
"""Own time wanted after any move, for a move slowed down beyond the overhead; with less,
part of a delay is kept back instead."""


@dataclass(frozen=True, slots=True)
class Budget:
    """Milliseconds: ``target`` for a normal move, ``maximum`` never to be passed."""

    target: int
    maximum: int


def budget(
    remaining_ms: int,
    mode: BonusMode = BonusMode.NONE,
    bonus_ms: int = 0,
    moves_to_go: int | None = None,
    overhead_ms: int = MOVE_OVERHEAD_MS,
    moves_made: int | None = None,
) -> Budget:
    """The think time for one move with ``remaining_ms`` on the clock.

    ``moves_to_go``: moves left in the current period including this one (``None``: the
    period is for the rest of the game). ``bonus_ms`` is the period's per-move bonus under
    ``mode``; ``overhead_ms`` the time lost each move outside the search; ``moves_made``
    the player's moves since the game's start, when known (see :data:`INCREMENT_SPENT_BY`).
    """
    if (remaining_ms < 0 or bonus_ms < 0 or overhead_ms < 0
            or (moves_to_go is not None and moves_to_go <= 0)):
        raise ValueError(
            f"remaining {remaining_ms} ms, bonus {bonus_ms} ms, overhead {overhead_ms} ms, "
            f"moves to go {moves_to_go}: expected non-negative times and a positive move count"
        )
    delay = bonus_ms if mode in (BonusMode.DELAY, BonusMode.BRONSTEIN) else 0
    gain = bonus_ms if mode is BonusMode.INCREMENT else 0
    default_left = (HOURGLASS_MOVES_LEFT if mode is BonusMode.HOURGLASS
                    else INCREMENT_MOVES_LEFT if gain else DEFAULT_MOVES_LEFT)
    moves_left = min(moves_to_go, default_left) if moves_to_go is not None else default_left
    # Thinking past `pool` loses on time; the overhead is taken from the delay first.
    pool = max(remaining_ms + delay - overhead_ms, 0)
    free = min(delay, pool)
    own = pool - free
    free -= min(free // 4, max(RESERVE_MS - own, 0))
    emergency = own < max(EMERGENCY_MS, 8 * overhead_ms)
    if gain and not emergency:
        moves_left = min(moves_left, increment_moves_left(moves_made))
    # Each move to come loses the overhead again, less what its increment gives back.
    share = max(own - (moves_left - 1) * max(overhead_ms - gain, 0), 0) // moves_left
    if emergency:
        target = share // 2 + gain * own // (4 * EMERGENCY_MS) + free
        ceiling = own // 4 + free
        factor = 2
    else:
        target = share + gain * 3 // 4 + free
        # Never more than half the clock on one move (a quarter in hourglass), delay aside.
        ceiling = (own // 4 if mode is BonusMode.HOURGLASS else own // 2) + free
        factor = HARD_FACTOR
    maximum = max(min(target * factor, ceiling), MIN_THINK_MS)
    return Budget(max(min(target, maximum), MIN_THINK_MS), maximum)


def increment_moves_left(moves_made: int | None) -> int:
    """The moves assumed to share the own time under an increment, after ``moves_made`` of
    the player's own (``None``: not known)."""
    if moves_made is None:
        return INCREMENT_MOVES_LEFT
    return min(max(INCREMENT_SPENT_BY - moves_made, INCREMENT_MIN_MOVES_LEFT),
               INCREMENT_MOVES_LEFT)


def budget_for(
    control: TimeControl,
    moves_made: int,
    remaining_ms: int,
    overhead_ms: int = MOVE_OVERHEAD_MS,
) -> Budget:
    """The think time for a player's next move, after ``moves_made`` of his own, under a
    time control: the current period gives the bonus and the moves left in it."""
    mode, bonus_ms, moves_to_go = period_terms(control, moves_made)
    return budget(remaining_ms, mode, bonus_ms, moves_to_go, overhead_ms, moves_made)


def period_terms(control: TimeControl, moves_made: int) -> tuple[BonusMode, int, int | None]:
    """The bonus mode and time of the period a player's next move is in, after
    ``moves_made`` of his own, and the moves left in it (``None``: the rest of the game)."""
    index, made_in_period = control.period_index(moves_made)
    period = control.periods[index]
    moves_to_go = None if period.moves is None else period.moves - made_in_period
    return period.mode, period.bonus_ms, moves_to_go


OVERHEAD_SAMPLES: Final = 8
"""The moves over which a :class:`Timekeeper` remembers the time lost outside its search."""


class Timekeeper:
    """One player's time management over a game: each move's budget, with the overhead
    learned from the clock. The time lost on a move is what the clock shows at the next
    move short of what it showed before, less the think time, plus the increment (sending
    the move, the arbiter's work, a busy machine not running the engine), and the think
    time beyond the budget's maximum (a search the machine starved of time); the overhead
    used is the largest of the last few moves' losses (at least ``floor_ms``). ``now`` is
    the time source (milliseconds)."""

    def __init__(self, floor_ms: int = MOVE_OVERHEAD_MS,
                 now: Callable[[], int] = monotonic_ms) -> None:
        self.floor_ms = floor_ms
        self.now = now
        self._lost: deque[int] = deque(maxlen=OVERHEAD_SAMPLES)
        self._expected: int | None = None
        self._move = -1
        self._started = 0
        self._remaining = 0
        self._gain: int | None = None
        self._maximum: int | None = None
        self._overshot = 0

    @property
    def overhead_ms(self) -> int:
        """The overhead the next budget keeps back."""
        return max(self.floor_ms, max(self._lost, default=0))

    def budget(
        self,
        remaining_ms: int,
        mode: BonusMode = BonusMode.NONE,
        bonus_ms: int = 0,
        moves_to_go: int | None = None,
        *,
        move_number: int,
    ) -> Budget:
        """The budget for the player's move ``move_number`` (its moves made since the
        game's start; consecutive numbers tell consecutive moves), thinking from now on."""
        if move_number == self._move + 1:
            outside = 0 if self._expected is None else max(self._expected - remaining_ms, 0)
            if outside or self._overshot:
                self._lost.append(outside + self._overshot)
        self._expected, self._overshot = None, 0
        self._move, self._started, self._remaining = move_number, self.now(), remaining_ms
        self._gain = (bonus_ms if mode is BonusMode.INCREMENT
                      else 0 if mode is BonusMode.NONE else None)
        given = budget(remaining_ms, mode, bonus_ms, moves_to_go, self.overhead_ms,
                       move_number)
        self._maximum = given.maximum
        return given

    def budget_for(self, control: TimeControl, moves_made: int, remaining_ms: int) -> Budget:
        """:meth:`budget` for the player's next move, after ``moves_made`` of his own,
        under a time control (see :func:`budget_for`)."""
        mode, bonus_ms, moves_to_go = period_terms(control, moves_made)
        return self.budget(remaining_ms, mode, bonus_ms, moves_to_go, move_number=moves_made)

    def moved(self) -> None:
        """The move is chosen: what the clock should show at the next move if nothing
        were lost (known under an increment or none; delays are not learned from)."""
        if self._maximum is None:
            return
        think = self.now() - self._started
        self._overshot = max(think - self._maximum, 0)
        self._maximum = None
        if self._gain is not None:
            self._expected = self._remaining - think + self._gain
