"""Endings that depend on whether the opponent can still checkmate: a resignation (F23
5.1.2), a flag (Art. 6.9) and a losing illegal move (F23 7.5.5). The analysis never guesses:
when it cannot tell, the game waits for the arbiter's ruling (:class:`ArbiterRuled`), as over
the board, and is not lost by default."""

from __future__ import annotations

from chessarbiter.arbiter.decisions import Decision
from chessarbiter.arbiter.errors import ArbiterError
from chessarbiter.arbiter.events import ArbiterRuled
from chessarbiter.arbiter.table import PendingRuling, Table
from chessarbiter.clock.records import Side
from chessarbiter.laws.endings import Result, Termination


def lose_unless_cannot_mate(
    table: Table,
    loser: Side,
    cannot_mate: bool | None,
    termination: Termination,
    loss: str,
    draw: str,
) -> Decision:
    """``loser`` loses (``loss``), drawn (``draw``) when the opponent cannot checkmate;
    ``cannot_mate`` ``None`` (undetermined): the clocks stop and the arbiter rules."""
    if cannot_mate is None:
        table.pending = PendingRuling(loser, termination, loss, draw)
        if table.clock is not None and table.clock.running:
            table.clock.stop()
        winner = loser.opponent.name.lower()
        return table.note(termination.article, f"{loss}; whether {winner} can still checkmate "
                          "is undetermined: the arbiter rules")
    if cannot_mate:
        return table.finish(Result.DRAW, termination, draw)
    return table.finish(Result.win_for(loser.opponent), termination, loss)


def on_arbiter_ruled(table: Table, event: ArbiterRuled) -> list[Decision]:
    """The arbiter decides the pending ending: the opponent can checkmate (a loss) or not (a
    draw), with the reason."""
    pending = table.pending
    if pending is None:
        raise ArbiterError("no ending awaits the arbiter's ruling")
    if not event.reason:
        raise ArbiterError("the arbiter's ruling needs a reason")
    text = pending.loss if event.can_mate else pending.draw
    result = Result.win_for(pending.loser.opponent) if event.can_mate else Result.DRAW
    return [table.finish(result, pending.termination, f"{text} (the arbiter: {event.reason})")]
