"""Time controls as sequences of periods (Laws Art. 6.2).

All durations are integer milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from chessarbiter.clock.errors import TimeControlError


class BonusMode(Enum):
    """What the clock gives a player for each move of a period."""

    NONE = "none"
    """No bonus: the period's time is all there is."""
    INCREMENT = "increment"
    """Fischer increment: the bonus is added after each move (Art. 6.2 "additional amount of
    time after each move")."""
    BRONSTEIN = "bronstein"
    """Bronstein delay: time used on a move, up to the bonus, is given back at the press."""
    DELAY = "delay"
    """Simple (US) delay: the main time starts counting only once the bonus has passed; unused
    delay is lost. This is the official rules' "incremental mode" of Art. 6.2."""
    HOURGLASS = "hourglass"
    """Hourglass (sandglass): the time one player uses is added to the opponent's clock."""
    DEADLINE = "deadline"
    """Correspondence: each move has the period's whole time, a deadline that starts afresh
    after every move; time not used is not saved (lichess' days per turn;
    :mod:`chessarbiter.clock.correspondence`)."""


_BONUS_MODES = frozenset({BonusMode.INCREMENT, BonusMode.BRONSTEIN, BonusMode.DELAY})


@dataclass(frozen=True, slots=True)
class Period:
    """``moves`` moves (``None``: the rest of the game) in ``time_ms``, with a per-move bonus.

    A bonus mode (increment, Bronstein, delay) needs a positive ``bonus_ms``; ``NONE``,
    ``HOURGLASS`` and ``DEADLINE`` take none. A deadline is for the rest of the game, with
    time for a move.
    """

    time_ms: int
    moves: int | None = None
    bonus_ms: int = 0
    mode: BonusMode = BonusMode.NONE

    def __post_init__(self) -> None:
        if self.time_ms < 0:
            raise TimeControlError(f"period time {self.time_ms} ms: expected >= 0")
        if self.moves is not None and self.moves <= 0:
            raise TimeControlError(f"period of {self.moves} moves: expected a positive count")
        if self.bonus_ms < 0:
            raise TimeControlError(f"bonus {self.bonus_ms} ms: expected >= 0")
        if (self.mode in _BONUS_MODES) != (self.bonus_ms > 0):
            raise TimeControlError(
                f"mode {self.mode.value} with bonus {self.bonus_ms} ms: expected a positive "
                "bonus exactly for increment, bronstein and delay"
            )
        if self.mode is BonusMode.DEADLINE and (self.moves is not None or not self.time_ms):
            raise TimeControlError(
                f"deadline of {self.time_ms} ms for {self.moves} moves: expected a time for "
                "each move of the rest of the game"
            )

    @property
    def sudden_death(self) -> bool:
        """The rest of the game with no time added per move (S10.1): no increment, and no
        delay either, simple or Bronstein (S6.2 names the delay the "incremental mode"; USCF
        14H allows the claim only without a delay or increment clock). An hourglass adds
        only the opponent's time: its last period is sudden death."""
        return self.moves is None and self.bonus_ms == 0


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A sequence of periods; the saved time of one period carries into the next (Art. 6.2).

    Only the last period may be "rest of the game". A last period with a move count repeats
    for ever (e.g. 40 moves in 2 h, then 20 moves per hour; "50 days per 10 moves").
    """

    periods: tuple[Period, ...]

    def __post_init__(self) -> None:
        if not self.periods:
            raise TimeControlError("time control without periods: expected at least one")
        for index, period in enumerate(self.periods[:-1]):
            if period.moves is None:
                raise TimeControlError(
                    f"period {index + 1} is for the rest of the game: expected only the last "
                    "period to be"
                )
        if len(self.periods) > 1 and any(p.mode is BonusMode.DEADLINE for p in self.periods):
            raise TimeControlError("a per-move deadline is the whole control: expected one "
                                   "period")

    @property
    def repeats(self) -> bool:
        """True when the last period has a move count and so starts again after it ends."""
        return self.periods[-1].moves is not None

    def period_index(self, moves_made: int) -> tuple[int, int]:
        """The period of a player's next move after ``moves_made`` moves, and the moves he has
        already made in it."""
        index, left = 0, moves_made
        last = len(self.periods) - 1
        while True:
            moves = self.periods[index].moves
            if moves is None or left < moves:
                return index, left
            left -= moves
            if index < last:
                index += 1

    def time_for_moves(self, moves: int) -> int:
        """All the time a player is given for his first ``moves`` moves: the time of every
        period that starts within them plus every per-move bonus (increment or delay)."""
        total, index, in_period = self.periods[0].time_ms, 0, 0
        for move in range(1, moves + 1):
            period = self.periods[index]
            total += period.bonus_ms
            in_period += 1
            if period.moves is not None and in_period == period.moves and move < moves:
                index, in_period = min(index + 1, len(self.periods) - 1), 0
                total += self.periods[index].time_ms
        return total
