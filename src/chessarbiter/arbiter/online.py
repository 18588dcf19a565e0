"""Online practice, where the rule profile allows it: moves taken back by agreement, time
given to the opponent, and the game claimed when the opponent has left. The Laws have
none of them: a move made stands (F23 4.7, S4.7), only the arbiter changes a clock (F23
6.13, 12.9; S6.13), and a player is defaulted only for not arriving (F23 6.7, S6.6).

Each handler validates against the :class:`Table` first, raising :class:`ArbiterError` before
changing anything, then applies the event and returns its decisions.
"""

from __future__ import annotations

from chessarbiter.arbiter.decisions import Decision
from chessarbiter.arbiter.errors import ArbiterError
from chessarbiter.arbiter.events import (
    AbandonmentClaimed,
    TakebackAccepted,
    TakebackDeclined,
    TakebackProposed,
    TimeGiven,
)
from chessarbiter.arbiter.irregularities import restore
from chessarbiter.arbiter.setup import GameSetup
from chessarbiter.arbiter.table import Table
from chessarbiter.clock.correspondence import deadline_ms
from chessarbiter.clock.records import Side
from chessarbiter.laws.endings import Result, Termination

PRACTICE = "online practice"
"""The article a decision under these rules cites: none of the Laws."""


def on_takeback_proposed(table: Table, event: TakebackProposed) -> list[Decision]:
    """A takeback proposed: of the proposer's last move, both players' moves standing after
    it (as a server allows them, once both have moved)."""
    _require(table, table.profile.takebacks, "moves taken back",
             "a move made stands (F23 4.7, S4.7)")
    side, proposer = event.side, pending(table)
    if proposer is not None:
        raise ArbiterError(f"a takeback proposed by {_name(proposer)} awaits an answer")
    _plies(table, side)
    table.takeback = (side, len(table.played))
    return [table.note(PRACTICE, f"{_name(side)} proposes a takeback")]


def on_takeback_accepted(table: Table, event: TakebackAccepted) -> list[Decision]:
    """The proposer's opponent agrees: the proposer's last move is taken back, and the
    opponent's after it if there is one; the clocks keep their times."""
    proposer = _answered(table, event.side, "accept")
    count = len(table.played) - _plies(table, proposer)
    table.takeback = None
    restore(table, count)
    return [table.note(PRACTICE, f"{_name(event.side)} accepts the takeback: the position "
                                 f"after ply {count} is played on")]


def on_takeback_declined(table: Table, event: TakebackDeclined) -> list[Decision]:
    """The proposer's opponent declines, or the proposer withdraws it."""
    if pending(table) is event.side:
        table.takeback = None
        return [table.note(PRACTICE, f"{_name(event.side)} withdraws the takeback")]
    _answered(table, event.side, "decline")
    table.takeback = None
    return [table.note(PRACTICE, f"{_name(event.side)} declines the takeback")]


def on_time_given(table: Table, event: TimeGiven) -> list[Decision]:
    """A player gives the opponent time (``ms`` > 0) on the running game's clock."""
    _require(table, table.profile.players_give_time, "time given by a player",
             "only the arbiter changes a clock (F23 6.13, 12.9; S6.13)")
    table.require_clock("give time")
    if type(event.ms) is not int or event.ms <= 0:
        raise ArbiterError(f"give-time: ms={event.ms!r} is not a time to give (an int > 0)")
    table.add_time(event.side.opponent, event.ms)
    return [table.note(PRACTICE, f"{_name(event.side)} gives {_name(event.side.opponent)} "
                                 f"{event.ms // 1000} s")]


def on_abandonment_claimed(table: Table, event: AbandonmentClaimed) -> list[Decision]:
    """The opponent gone for the profile's ``abandonment_ms``: the claimant wins (or, if he
    claims only that, the game is drawn)."""
    _require(table, table.profile.abandonment_ms is not None, "claims that the opponent left",
             "a player is defaulted only for not arriving (F23 6.7, S6.6); leaving the "
             "playing area is the arbiter's to judge (F23 11.2.3)")
    limit = abandonment_wait(table.setup)
    if limit is None:
        raise ArbiterError("no claim that the opponent left in correspondence: each move "
                           "has its deadline, whose passing alone decides")
    absent = event.absent_ms
    if type(absent) is not int or absent < limit:
        raise ArbiterError(f"{_name(event.side.opponent)} has been gone {absent} ms, not yet "
                           f"{limit} ms: no claim")
    loser = event.side.opponent
    if event.draw:
        return [table.finish(Result.DRAW, Termination.ABANDONED,
                             f"{_name(loser)} left the game; {_name(event.side)} claims a draw")]
    return [table.finish(Result.win_for(event.side), Termination.ABANDONED,
                         f"{_name(loser)} left the game")]


def abandonment_wait(setup: GameSetup) -> int | None:
    """How long an opponent must be gone before the game may be claimed: the profile's
    ``abandonment_ms``; ``None`` where the profile has no such claim, and in correspondence
    (a player away between moves is the rule there, the deadline the only limit)."""
    if deadline_ms(setup.control) is not None:
        return None
    return setup.profile.abandonment_ms


def pending(table: Table) -> Side | None:
    """The side whose takeback awaits an answer (none once a move has been made since)."""
    found = table.takeback
    return None if found is None or found[1] != len(table.played) else found[0]


def _plies(table: Table, side: Side) -> int:
    """The moves a takeback by ``side`` takes back (1 or 2); ``ArbiterError`` if that would
    leave fewer than both players' first moves."""
    plies = 2 if table.mover is side else 1
    if len(table.played) - plies < 2:
        raise ArbiterError(f"{_name(side)} has no move to take back once both players' first "
                           "moves stand")
    return plies


def _answered(table: Table, side: Side, verb: str) -> Side:
    proposer = pending(table)
    if proposer is None or proposer is side:
        raise ArbiterError(f"{_name(side)} cannot {verb} a takeback: none is proposed by "
                           f"{_name(side.opponent)}")
    return proposer


def _require(table: Table, allowed: bool, what: str, why: str) -> None:
    if not allowed:
        raise ArbiterError(f"no {what} under the {table.profile.name} profile: {why}")


def _name(side: Side) -> str:
    return side.name.lower()
