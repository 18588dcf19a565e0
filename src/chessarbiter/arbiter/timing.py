"""Flags and the arbiter's clock actions (Laws Art. 6.5, 6.8-6.13, 10.4, 13.4-13.5).

Each handler validates against the :class:`Table` first, raising :class:`ArbiterError` before
changing anything, then applies the event and returns its decisions.
"""

from __future__ import annotations

from chessarbiter.arbiter.decisions import Decision
from chessarbiter.arbiter.errors import ArbiterError
from chessarbiter.arbiter.events import (
    ClocksSet,
    ClocksStarted,
    ClocksStopped,
    FlagClaimed,
    FlagObserved,
    TimeAdded,
)
from chessarbiter.arbiter.mating import lose_unless_cannot_mate
from chessarbiter.arbiter.table import UNTIMED_PRESSES, Table
from chessarbiter.clock.records import Side
from chessarbiter.laws.endings import Result, Termination


def on_flag_observed(table: Table, event: FlagObserved) -> list[Decision]:
    """The arbiter sees a flag down (Art. 6.8)."""
    table.require_clock("observe a flag")
    flagged = table.flagged()
    if not flagged:
        raise ArbiterError("no flag has fallen")
    return _rule_on_flags(table, flagged)


def on_flag_claimed(table: Table, event: FlagClaimed) -> list[Decision]:
    """A player claims the opponent's flag (Art. 6.8); his own flag does not count against
    the claim unless it fell first."""
    table.require_clock("claim a flag")
    flagged = table.flagged()
    if event.side.opponent not in flagged:
        raise ArbiterError(f"{event.side.opponent.name.lower()}'s flag has not fallen")
    return _rule_on_flags(table, flagged)


def _rule_on_flags(table: Table, flagged: list[Side]) -> list[Decision]:
    """One flag: lost, unless the opponent cannot checkmate (Art. 6.9). Both flags, and the
    clock cannot tell which fell first: drawn in the last period (S10.4, F23 III.3.1), the game
    continues otherwise (S6.11)."""
    clock = table.require_clock("rule on a flag")
    if table.postponed and table.sudden_death_claim is None:
        return _await_ruling(table, flagged[0])
    if len(flagged) == 2 and not table.profile.clock_shows_first_flag:
        if all(clock.period(side).moves is None for side in flagged):
            return [table.finish(Result.DRAW, Termination.BOTH_FLAGS,
                                 "both flags have fallen in the last period")]
        return [table.note("S6.11", "both flags have fallen before the last period: the game "
                                    "continues")]
    loser = flagged[0]
    name = loser.name.lower()
    loss = f"{name}'s flag has fallen"
    return [lose_unless_cannot_mate(table, loser, table.cannot_win(loser.opponent),
                                    Termination.TIME_FORFEIT, loss,
                                    f"{loss}, but {loser.opponent.name.lower()} cannot "
                                    "checkmate")]


def on_clocks_stopped(table: Table, event: ClocksStopped) -> list[Decision]:
    """The arbiter stops the clocks (Art. 6.12)."""
    clock = table.require_clock("stop the clocks")
    if not clock.running:
        raise ArbiterError("the clocks are not running")
    clock.stop()
    return [table.note("6.12", "the arbiter stops the clocks")]


def on_clocks_started(table: Table, event: ClocksStarted) -> list[Decision]:
    """Black starts White's clock (Art. 6.5), or the arbiter restarts after a stop (6.12)."""
    clock = table.require_clock("start the clocks")
    if clock.running:
        raise ArbiterError("the clocks are already running")
    if table.clock_started():
        clock.restart()
        return [table.note("6.12", "the clocks are restarted")]
    if UNTIMED_PRESSES[table.profile.clock_start]:
        raise ArbiterError(f"under the {table.profile.name} profile the clocks start with the "
                           "first moves")
    clock.start()
    table.started = True
    return []


def on_time_added(table: Table, event: TimeAdded) -> list[Decision]:
    """The arbiter adds or removes time (Art. 13.4b-c, 13.5)."""
    table.require_clock("add time")
    if event.ms == 0:
        raise ArbiterError("adding 0 ms changes nothing")
    table.add_time(event.side, event.ms)
    verb = "added to" if event.ms > 0 else "taken from"
    reason = f": {event.reason}" if event.reason else ""
    return [table.note("12.9 (S13.4)", f"{abs(event.ms) // 1000} s {verb} "
                                       f"{event.side.name.lower()}'s clock{reason}")]


def on_clocks_set(table: Table, event: ClocksSet) -> list[Decision]:
    """The arbiter sets both displays after an irregularity (Art. 6.13); a flag cancelled by
    the new times no longer counts."""
    clock = table.require_clock("set the clocks")
    for name, ms in (("white_ms", event.white_ms), ("black_ms", event.black_ms)):
        if type(ms) is not int or ms < 0:
            raise ArbiterError(f"set-clocks: {name}={ms!r} is not a time in ms (an int >= 0)")
    before = clock.readings()
    clock.set_displays(event.white_ms, event.black_ms)
    table.adjusted[0] += event.white_ms - before[0]
    table.adjusted[1] += event.black_ms - before[1]
    table.forgive_flags()
    reason = f": {event.reason}" if event.reason else ""
    return [table.note("6.13", f"clocks set to {event.white_ms} ms and {event.black_ms} "
                               f"ms{reason}")]


def _await_ruling(table: Table, flagged: Side) -> list[Decision]:
    """After a postponed sudden-death claim a flag does not end the game: the arbiter
    declares the result (S10.2c, F23 III.5.2) by a ruling on the claim."""
    if table.clock is not None and table.clock.running:
        table.clock.stop()
    table.sudden_death_claim = flagged
    return [table.note("III.5.2 (S10.2c)", f"{flagged.name.lower()}'s flag has fallen after "
                                           "the postponed claim: the arbiter declares the "
                                           "result")]


def flag_stands(table: Table) -> list[Decision]:
    """The arbiter's final ruling after a postponed claim is no draw: the fallen flag counts
    as in Art. 6.9 (S6.9-6.11, 10.4)."""
    table.postponed = False
    return _rule_on_flags(table, table.flagged())
