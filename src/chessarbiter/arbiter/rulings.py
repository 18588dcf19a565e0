"""The arbiter's decisions on conduct and results (Laws Art. 11.7-11.8, 12.9; S12.7-12.8,
13.4). They may replace a result the game already had: that is the arbiter's privilege."""

from __future__ import annotations

from chessarbiter.arbiter.decisions import Decision
from chessarbiter.arbiter.errors import ArbiterError
from chessarbiter.arbiter.events import BothLost, Forfeited, ResultDeclared, Warned
from chessarbiter.arbiter.table import Table
from chessarbiter.laws.endings import Result, Termination


def on_warned(table: Table, event: Warned) -> list[Decision]:
    """A warning (Art. 12.9a, S13.4a), e.g. for persistent draw offers (11.5, S12.5)."""
    if not event.reason:
        raise ArbiterError("a warning needs a reason")
    table.warnings[event.side] += 1
    return [table.note("12.9 (S13.4a)", f"{event.side.name.lower()} is warned: {event.reason}")]


def on_result_declared(table: Table, event: ResultDeclared) -> list[Decision]:
    """The arbiter declares the result (S10.2c after a postponed claim, USCF 14K, appeals)."""
    if event.result is Result.BOTH_LOSE:
        raise ArbiterError("declare 0-0 with a both-lose decision (S12.8)")
    _require_reason(event.reason)
    return [table.finish(event.result, Termination.ARBITER_DECISION, event.reason)]


def on_forfeited(table: Table, event: Forfeited) -> list[Decision]:
    """The game is declared lost by ``side`` (S12.7, 13.4d; F23 11.7, 12.9)."""
    _require_reason(event.reason)
    return [table.finish(Result.win_for(event.side.opponent), Termination.FORFEIT,
                         f"{event.side.name.lower()} forfeits: {event.reason}")]


def on_both_lost(table: Table, event: BothLost) -> list[Decision]:
    """Both players lose, scored 0-0 (S12.8, F23 11.8)."""
    _require_reason(event.reason)
    return [table.finish(Result.BOTH_LOSE, Termination.BOTH_LOSE, event.reason)]


def _require_reason(reason: str) -> None:
    if not reason:
        raise ArbiterError("the arbiter's decision needs a reason")
