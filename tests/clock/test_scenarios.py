"""One whole game per mode: every press and reading asserted against the rule's arithmetic."""

from __future__ import annotations

from chessarbiter.clock import (
    Clock,
    Flag,
    Side,
    TimeControl,
    parse_human,
    parse_pgn_tag,
    parse_us,
)
from tests.clock.fake_time import FakeTime

S, MIN = 1000, 60_000
W, B = Side.WHITE, Side.BLACK


def pgn(text: str) -> TimeControl:
    control = parse_pgn_tag(text)
    assert isinstance(control, TimeControl)
    return control


def started(control: TimeControl) -> tuple[Clock, FakeTime]:
    time = FakeTime()
    clock = Clock(control, time)
    clock.start()
    return clock, time


def test_fischer_two_periods() -> None:
    """40/90+30, 30+30 (Art. 6.2): after move 40 the saved time plus 30 minutes."""
    clock, time = started(parse_human("40/90+30, 30+30"))
    white, black = 90 * MIN, 90 * MIN
    for move in range(1, 61):
        added = 30 * MIN if move == 40 else 0
        time.advance(60 * S)
        assert clock.readings() == (white - 60 * S, black)  # mid-move: White's clock runs
        time.advance(60 * S)
        press = clock.press(W)
        white += -120 * S + 30 * S + added
        assert (press.move, press.used_ms, press.bonus_ms, press.added_ms) == (
            move,
            120 * S,
            30 * S,
            added,
        )
        assert (press.white_ms, press.black_ms) == (white, black)
        time.advance(90 * S)
        press = clock.press(B)
        black += -90 * S + 30 * S + added
        assert (press.white_ms, press.black_ms, press.added_ms) == (white, black, added)
        if move == 40:
            assert (white, black) == (60 * MIN, 80 * MIN)
    assert (white, black) == (30 * MIN, 60 * MIN)
    assert clock.period(W) == clock.control.periods[1]
    assert clock.time_to_flag() == 30 * MIN
    time.advance(30 * MIN)
    assert clock.remaining(W) == 0
    assert clock.flags == (Flag(W, time.ms, 61, 60 * MIN),)
    time.advance(S)
    assert clock.readings() == (-S, 60 * MIN)  # a flag is only a reading: time goes on
    assert not clock.both_flags_down()


def test_simple_delay() -> None:
    """G/5;d5, the US delay and Art. 6.2's "incremental mode": main time starts counting only
    after the delay; a press within it leaves the main time unchanged."""
    clock, time = started(parse_us("G/5;d5"))
    main = {W: 5 * MIN, B: 5 * MIN}
    for used in [0, 3 * S, 5 * S, 5 * S + 1, 8 * S, 20 * S] * 4:
        for side in (W, B):
            time.advance(used // 2)
            assert clock.remaining(side) == main[side] - max(0, used // 2 - 5 * S)
            time.advance(used - used // 2)
            press = clock.press(side)
            main[side] -= max(0, used - 5 * S)
            assert press.bonus_ms == min(used, 5 * S)
            assert (press.white_ms, press.black_ms) == (main[W], main[B])
    assert main[W] == 5 * MIN - 4 * (1 + 3 * S + 15 * S)
    assert clock.time_to_flag() == main[W] + 5 * S  # the delay comes first
    time.advance(main[W] + 5 * S - 1)
    assert not clock.flags
    time.advance(1)
    assert clock.flags == (Flag(W, time.ms, 25, main[B]),)


def test_bronstein_delay() -> None:
    """G/5;b5: the display counts down from the press; time used up to 5 s is given back."""
    clock, time = started(parse_us("G/5;b5"))
    left = {W: 5 * MIN, B: 5 * MIN}
    for used in [0, 3 * S, 5 * S, 8 * S, 20 * S, 1] * 4:
        for side in (W, B):
            time.advance(used)
            assert clock.remaining(side) == left[side] - used  # no standstill, unlike delay
            press = clock.press(side)
            assert press.bonus_ms == min(used, 5 * S)
            left[side] -= used - min(used, 5 * S)
            assert (press.white_ms, press.black_ms) == (left[W], left[B])
    assert left[B] == 5 * MIN - 4 * 18 * S
    # Unlike the simple delay, the refund comes at the press: the flag falls at zero.
    assert clock.time_to_flag() == left[W]
    time.advance(left[W])
    assert clock.flags == (Flag(W, time.ms, 25, left[B]),)


def test_hourglass() -> None:
    """*60: what one player uses, the other gains; the total stays 2 minutes."""
    clock, time = started(pgn("*60"))
    white, black = MIN, MIN
    for used_white, used_black in [(10 * S, 5 * S), (1, 20 * S), (30 * S, 0)] * 3:
        time.advance(used_white)
        assert clock.readings() == (white - used_white, black + used_white)
        press = clock.press(W)
        white, black = white - used_white, black + used_white
        assert (press.white_ms, press.black_ms, press.bonus_ms) == (white, black, 0)
        time.advance(used_black)
        press = clock.press(B)
        black, white = black - used_black, white + used_black
        assert (press.white_ms, press.black_ms) == (white, black)
        assert white + black == 2 * MIN
    assert clock.time_to_flag() == white
    time.advance(white)
    assert clock.flags == (Flag(W, time.ms, 10, 2 * MIN),)


def test_repeating_period() -> None:
    """40/120, 20/60: after moves 40, 60, 80, 100 another hour."""
    clock, time = started(parse_human("40/120, 20/60"))
    white = 120 * MIN
    for move in range(1, 101):
        time.advance(MIN)
        press = clock.press(W)
        added = 60 * MIN if move in (40, 60, 80, 100) else 0
        white += added - MIN
        assert (press.white_ms, press.added_ms) == (white, added)
        time.advance(S)
        clock.press(B)
    assert white == 80 * MIN + 4 * 60 * MIN - 60 * MIN


def test_correspondence_days() -> None:
    """Correspondence: 50 days per 10 moves, repeatedly (the summary's example); saved days
    carry over."""
    day = 86_400 * S
    clock, time = started(pgn("10/4320000"))
    white = 50 * day
    for move in range(1, 31):
        time.advance(4 * day)
        press = clock.press(W)
        white += (50 * day if move % 10 == 0 else 0) - 4 * day
        assert press.white_ms == white
        time.advance(day)
        clock.press(B)
    assert clock.readings() == (50 * day + 3 * 10 * day, 50 * day + 3 * 40 * day)


def test_world_championship_control() -> None:
    """40/7200:20/3600:900+30 (WCh 2023): +60 min after move 40, +15 min after move 60, then
    30 s after each move from move 61 on."""
    clock, time = started(pgn("40/7200:20/3600:900+30"))
    white = 120 * MIN
    for move in range(1, 81):
        time.advance(2 * MIN)
        press = clock.press(W)
        added = {40: 60 * MIN, 60: 15 * MIN}.get(move, 0)
        bonus = 30 * S if move > 60 else 0
        white += added + bonus - 2 * MIN
        assert (press.white_ms, press.bonus_ms, press.added_ms) == (white, bonus, added)
        time.advance(S)
        clock.press(B)
    assert white == 45 * MIN


def test_both_flags_and_next_period() -> None:
    """Both flags down (Art. 6.11, 10.4): the clock shows the order; the arbiter rules."""
    clock, time = started(parse_us("G/1"))
    start = time.ms
    time.advance(61 * S)
    clock.press(W)
    time.advance(60 * S)
    assert clock.both_flags_down()
    assert clock.flags == (Flag(W, start + 60 * S, 1, MIN), Flag(B, start + 121 * S, 1, -S))

    # A flag in a period that is not the last: the next period's time revives the display.
    clock, time = started(pgn("2/10:60"))
    time.advance(4 * S)
    clock.press(W)
    time.advance(S)
    clock.press(B)
    time.advance(7 * S)
    assert clock.remaining(W) == -S
    press = clock.press(W)
    assert (press.white_ms, press.added_ms) == (59 * S, 60 * S)
    assert clock.flags == (Flag(W, time.ms - S, 2, 9 * S),)
    time.advance(S)
    clock.press(B)
    time.advance(59 * S)
    assert [flag.move for flag in clock.flags] == [2, 3]  # White can flag again
