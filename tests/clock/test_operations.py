"""Starting, the arbiter's operations, illegal operations and the Art. 8.4 query."""

from __future__ import annotations

import pytest

from chessarbiter.clock import (
    Clock,
    ClockError,
    Flag,
    Side,
    Start,
    parse_human,
    parse_us,
)
from tests.clock.fake_time import FakeTime

S, MIN = 1000, 60_000
W, B = Side.WHITE, Side.BLACK


def test_black_starts_white() -> None:
    """Art. 6.5: the clock runs from ``start``; White's first move is timed."""
    time = FakeTime()
    clock = Clock(parse_human("5+3"), time)
    with pytest.raises(ClockError, match=r"before the start \(Art. 6.5"):
        clock.press(W)
    assert clock.time_to_flag() is None
    clock.start()
    with pytest.raises(ClockError, match="already started"):
        clock.start()
    time.advance(4 * S)
    press = clock.press(W)
    assert (press.used_ms, press.white_ms) == (4 * S, 5 * MIN - S)


def test_increment_before_first_move() -> None:
    """The option to credit the increment before move 1 as well (display 90:30 at start)."""
    time = FakeTime()
    clock = Clock(parse_human("90+30"), time, increment_before_first_move=True)
    assert clock.readings() == (90 * MIN + 30 * S, 90 * MIN + 30 * S)
    clock.start()
    time.advance(30 * S)
    assert clock.press(W).white_ms == 90 * MIN + 30 * S


def test_white_first_move_untimed() -> None:
    time = FakeTime()
    clock = Clock(parse_human("5+3"), time, start=Start.WHITE_FIRST_MOVE)
    with pytest.raises(ClockError, match="starts with a press"):
        clock.start()
    time.advance(20 * S)
    first = clock.press(W)
    assert (first.used_ms, first.bonus_ms, first.white_ms) == (0, 0, 5 * MIN)
    assert clock.running and clock.to_move is B
    time.advance(2 * S)
    assert clock.press(B).black_ms == 5 * MIN + S


def test_both_moved_untimed() -> None:
    """As lichess: neither first move is timed; Black's first press starts White's clock."""
    time = FakeTime()
    clock = Clock(parse_human("3+2"), time, start=Start.BOTH_MOVED)
    clock.press(W)
    assert not clock.running
    time.advance(30 * S)
    assert clock.press(B).black_ms == 3 * MIN
    assert clock.running and clock.to_move is W
    time.advance(S)
    assert clock.press(W).white_ms == 3 * MIN + S


def test_illegal_presses() -> None:
    time = FakeTime()
    clock = Clock(parse_human("5+3"), time)
    clock.start()
    with pytest.raises(ClockError, match="BLACK pressed, but WHITE has the move"):
        clock.press(B)
    clock.stop()
    with pytest.raises(ClockError, match="stopped clock"):
        clock.press(W)
    with pytest.raises(ClockError, match="not running"):
        clock.stop()
    clock.restart()
    with pytest.raises(ClockError, match="running"):
        clock.restart()


def test_stop_and_restart() -> None:
    """Art. 6.12: no time passes while the clocks are stopped; a delay spans the stop."""
    time = FakeTime()
    clock = Clock(parse_us("G/5;d5"), time)
    clock.start()
    time.advance(3 * S)
    clock.stop()
    assert not clock.running and clock.time_to_flag() is None
    time.advance(10 * MIN)
    assert clock.readings() == (5 * MIN, 5 * MIN)
    clock.restart()
    time.advance(4 * S)
    press = clock.press(W)
    assert (press.used_ms, press.white_ms) == (7 * S, 5 * MIN - 2 * S)


def test_add_and_remove_time() -> None:
    """Art. 13.4(b)(c), 13.5; e.g. two minutes to the opponent for an illegal move."""
    time = FakeTime()
    clock = Clock(parse_human("5+0"), time)
    clock.start()
    time.advance(10 * S)
    clock.add_time(B, 2 * MIN)
    clock.add_time(W, -MIN)
    assert clock.readings() == (3 * MIN + 50 * S, 7 * MIN)
    # Removing more than is left makes the flag fall at that moment.
    clock.add_time(W, -4 * MIN)
    assert clock.flags == (Flag(W, time.ms, 1, 7 * MIN),)
    clock.add_time(W, MIN)
    time.advance(50 * S)
    assert [flag.at_ms for flag in clock.flags] == [time.ms - 50 * S, time.ms]


def test_set_displays_after_irregularity() -> None:
    """Art. 6.13 (and 7.4: the position before an illegal move is reinstated): the arbiter
    sets both displays, who is to move and the move counters."""
    time = FakeTime()
    clock = Clock(parse_human("2/10, 5"), time)
    clock.start()
    for side in (W, B, W):
        time.advance(S)
        clock.press(side)
    clock.set_displays(9 * S, 8 * S, to_move=W, moves=(1, 1))
    assert clock.readings() == (9 * S, 8 * S) and clock.to_move is W
    time.advance(S)
    press = clock.press(W)
    assert (press.move, press.white_ms, press.added_ms) == (2, 8 * S + 5 * MIN, 5 * MIN)
    clock.set_displays(0, 8 * S)
    assert clock.flags == (Flag(W, time.ms, 3, 8 * S),)


def test_need_not_record() -> None:
    """Art. 8.4: under five minutes and no bonus of 30 s or more: no scoresheet duty."""
    time = FakeTime()
    clock = Clock(parse_human("5+3"), time)
    assert not clock.need_not_record(W)  # exactly five minutes
    clock.start()
    time.advance(1)
    assert clock.need_not_record(W)
    assert not clock.need_not_record(B)
    clock = Clock(parse_human("4+30"), time)
    assert not clock.need_not_record(W)
    assert clock.in_sudden_death(W) is False
    assert Clock(parse_us("G/4;d30"), time).need_not_record(W) is False
    assert not Clock(parse_us("G/4;d5"), time).in_sudden_death(W)
    assert Clock(parse_us("G/4"), time).in_sudden_death(W)


def test_readings_record_nothing() -> None:
    """Reading a fallen display changes nothing; the next operation records the flag at the
    instant it fell, as a reading shows it."""
    time = FakeTime()
    clock = Clock(parse_human("1"), time)
    clock.start()
    fell = Flag(W, time() + MIN, 1, MIN)
    time.advance(MIN + 5 * S)
    assert clock.remaining(W) == -5 * S and clock.readings() == (-5 * S, MIN)
    assert clock.flags == (fell,) and not clock.both_flags_down()
    assert clock.flag_count == 0  # nothing recorded by reading
    time.advance(S)
    clock.stop()
    assert clock.flag_count == 1 and clock.flags == (fell,)


def test_readings_at_a_later_time_record_nothing() -> None:
    """A display shown between events: the same values a reading then gives, no flag kept."""
    time = FakeTime()
    clock = Clock(parse_us("G/1;d5"), time)
    clock.start()
    start = time()
    assert clock.readings_at(start + 3 * S) == (MIN, MIN)  # inside the delay
    assert clock.readings_at(start + 15 * S) == (MIN - 10 * S, MIN)
    assert clock.readings_at(start + 2 * MIN)[0] < 0
    assert clock.flags == ()  # looking ahead recorded no flag
    time.advance(15 * S)
    assert clock.readings() == clock.readings_at(time())


@pytest.mark.parametrize("control", ["40/90+30, 30+30", "2/10, 5", "5+3", "G/5;d5", "G/5;b5"])
def test_complete_move_is_press(control: str) -> None:
    """The arbiter's press (``complete_move``: the mover's display and the time used) does
    what ``press`` does, and the presses are recorded alike: through periods, delays and
    a flag fallen before the press."""
    parse = parse_us if control.startswith("G/") else parse_human
    times = [FakeTime(), FakeTime()]
    clocks = [Clock(parse(control), times[0]), Clock(parse(control), times[1])]
    for clock in clocks:
        clock.start()
    for ply in range(90):
        side = W if ply % 2 == 0 else B
        for time in times:
            time.advance((ply * 7919) % 9000 + (400 * S if ply == 81 else 0))
        press = clocks[0].press(side)
        assert clocks[1].complete_move(side) == (
            press.white_ms if side is W else press.black_ms,
            press.used_ms,
        )
    assert clocks[1].presses == clocks[0].presses
    assert clocks[1].flags == clocks[0].flags
    assert clocks[0].flags or control != "5+3"  # 400 s on the 82nd move: the flag fell
    assert clocks[1].readings() == clocks[0].readings()
