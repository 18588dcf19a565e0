"""Time management: how long to think about one move under any clock mode.

The budget has a target (start no new iteration after it) and a hard maximum (abort the
search). Delay and Bronstein bonuses are free time: thinking within them costs nothing.
Hourglass time used is handed to the opponent, so it is spent sparingly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from chessarbiter.clock.controls import BonusMode, TimeControl

DEFAULT_MOVES_LEFT: Final = 30
"""Moves assumed still to play in a rest-of-game period."""
HOURGLASS_MOVES_LEFT: Final = 45
MOVE_OVERHEAD_MS: Final = 30
"""Kept back each move for communication and process scheduling."""
MIN_THINK_MS: Final = 5
HARD_FACTOR: Final = 3
"""The hard maximum is this many targets (but at most half the time left)."""


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
) -> Budget:
    """The think time for one move with ``remaining_ms`` on the clock.

    ``moves_to_go``: moves left in the current period including this one (``None``: the
    period is for the rest of the game). ``bonus_ms`` is the period's per-move bonus under
    ``mode``.
    """
    if remaining_ms < 0 or bonus_ms < 0 or (moves_to_go is not None and moves_to_go <= 0):
        raise ValueError(
            f"remaining {remaining_ms} ms, bonus {bonus_ms} ms, moves to go {moves_to_go}: "
            "expected non-negative times and a positive move count"
        )
    free = bonus_ms if mode in (BonusMode.DELAY, BonusMode.BRONSTEIN) else 0
    gain = bonus_ms if mode is BonusMode.INCREMENT else 0
    default_left = HOURGLASS_MOVES_LEFT if mode is BonusMode.HOURGLASS else DEFAULT_MOVES_LEFT
    moves_left = min(moves_to_go, default_left) if moves_to_go is not None else default_left
    usable = max(remaining_ms - overhead_ms, 0)
    target = usable // moves_left + gain * 3 // 4 + free
    # Never more than half the clock on one move (a quarter in hourglass), bonus time aside.
    ceiling = (usable // 4 if mode is BonusMode.HOURGLASS else usable // 2) + free
    maximum = max(min(target * HARD_FACTOR, ceiling), MIN_THINK_MS)
    return Budget(max(min(target, maximum), MIN_THINK_MS), maximum)


def budget_for(
    control: TimeControl,
    moves_made: int,
    remaining_ms: int,
    overhead_ms: int = MOVE_OVERHEAD_MS,
) -> Budget:
    """The think time for a player's next move, after ``moves_made`` of his own, under a
    time control: the current period gives the bonus and the moves left in it."""
    index, made_in_period = control.period_index(moves_made)
    period = control.periods[index]
    moves_to_go = None if period.moves is None else period.moves - made_in_period
    return budget(remaining_ms, period.mode, period.bonus_ms, moves_to_go, overhead_ms)
