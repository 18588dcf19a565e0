"""Properties over random controls and random games: conservation, signs, determinism."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from chessarbiter.clock import BonusMode, Clock, Flag, Period, Press, Side, TimeControl
from tests.clock.fake_time import FakeTime

S = 1000
SIDES = (Side.WHITE, Side.BLACK)


@st.composite
def periods(draw: st.DrawFn) -> Period:
    mode = draw(st.sampled_from([m for m in BonusMode if m is not BonusMode.DEADLINE]))
    bonus = draw(st.integers(1, 10 * S)) if mode not in (BonusMode.NONE, BonusMode.HOURGLASS) else 0
    moves = draw(st.none() | st.integers(1, 5))
    return Period(draw(st.integers(0, 60 * S)), moves, bonus, mode)


@st.composite
def controls(draw: st.DrawFn) -> TimeControl:
    body = draw(st.lists(periods(), min_size=1, max_size=3))
    fixed = [p if p.moves else Period(p.time_ms, 3, p.bonus_ms, p.mode) for p in body[:-1]]
    return TimeControl((*fixed, body[-1]))


OPS = st.lists(
    st.one_of(
        st.tuples(st.just("wait"), st.integers(0, 30 * S)),
        st.tuples(st.just("press"), st.just(0)),
        st.tuples(st.just("stop"), st.just(0)),
        st.tuples(st.just("white+"), st.integers(-20 * S, 20 * S)),
        st.tuples(st.just("black+"), st.integers(-20 * S, 20 * S)),
    ),
    max_size=80,
)


def _do(clock: Clock, time: FakeTime, op: str, value: int) -> Press | None:
    """Apply one operation; ``press`` restarts stopped clocks first."""
    if op == "wait":
        time.advance(value)
    elif op == "stop" and clock.running:
        clock.stop()
    elif op == "press":
        if not clock.running:
            clock.restart()
        return clock.press(clock.to_move)
    elif op in ("white+", "black+"):
        clock.add_time(Side.WHITE if op == "white+" else Side.BLACK, value)
    return None


class Model:
    """What a player's time may change by: his use, his bonus, a new period, the arbiter."""

    def __init__(self, control: TimeControl) -> None:
        self.periods = control.periods
        self.left = [control.periods[0].time_ms] * 2
        self.index = [0, 0]
        self.in_period = [0, 0]
        self.used = 0

    def press(self, mover: int) -> tuple[int, int, int]:
        period = self.periods[self.index[mover]]
        used, self.used = self.used, 0
        bonus = {
            BonusMode.INCREMENT: period.bonus_ms,
            BonusMode.BRONSTEIN: min(used, period.bonus_ms),
            BonusMode.DELAY: min(used, period.bonus_ms),
        }.get(period.mode, 0)
        if period.mode is BonusMode.HOURGLASS:
            self.left[1 - mover] += used
        added = 0
        self.in_period[mover] += 1
        if self.in_period[mover] == period.moves:
            self.in_period[mover] = 0
            self.index[mover] = min(self.index[mover] + 1, len(self.periods) - 1)
            added = self.periods[self.index[mover]].time_ms
        self.left[mover] += bonus + added - used
        return used, bonus, added

    def reading(self, side: int, mover: int) -> int:
        period = self.periods[self.index[mover]]
        if side != mover:
            return self.left[side] + (self.used if period.mode is BonusMode.HOURGLASS else 0)
        if period.mode is BonusMode.DELAY:
            return self.left[side] - max(0, self.used - period.bonus_ms)
        return self.left[side] - self.used


@settings(max_examples=150, deadline=None)
@given(controls(), OPS)
def test_time_is_conserved_and_readings_signed(
    control: TimeControl, ops: list[tuple[str, int]]
) -> None:
    """A player's time changes only by his use, his bonus, a new period and the arbiter's
    adjustments (in hourglass also by the opponent's use); no reading is negative but after a
    flag."""
    time = FakeTime()
    clock = Clock(control, time)
    clock.start()
    model = Model(control)
    for op, value in ops:
        mover = clock.to_move.value
        if op == "wait" and clock.running:
            model.used += value
        if op in ("white+", "black+"):
            model.left[0 if op == "white+" else 1] += value
        press = _do(clock, time, op, value)
        if press is not None:
            assert (press.used_ms, press.bonus_ms, press.added_ms) == model.press(mover)
            assert (press.white_ms, press.black_ms) == tuple(model.left)
        mover = clock.to_move.value
        readings = clock.readings()
        assert readings == (model.reading(0, mover), model.reading(1, mover))
        flagged = {flag.side for flag in clock.flags}
        for side, reading in zip(SIDES, readings, strict=True):
            assert reading >= 0 or side in flagged, "a negative reading without a flag"


def _replay(
    control: TimeControl, ops: list[tuple[str, int]], observe: bool
) -> tuple[tuple[Press, ...], tuple[Flag, ...], tuple[int, int]]:
    time = FakeTime()
    clock = Clock(control, time)
    clock.start()
    for op, value in ops:
        _do(clock, time, op, value)
        if observe:
            clock.readings()
    return clock.presses, clock.flags, clock.readings()


@settings(max_examples=100, deadline=None)
@given(controls(), OPS)
def test_replay_is_deterministic(control: TimeControl, ops: list[tuple[str, int]]) -> None:
    """The same presses give the same readings and flags, however often one looks."""
    assert _replay(control, ops, observe=True) == _replay(control, ops, observe=False)
