"""The outage rule: the clocks of a game taken up again after the server was down.

The store holds every acknowledged event; nothing after the last one is known (the server
may have died a moment or an hour after it). A game resumed as a :class:`LiveGame` runs on
game time that goes on from its last event, so no one is charged for the time between the
last acknowledged event and the restart. The profile's :class:`Outage` rule says what else
happens (``docs/server-ops.md``):

- ``RESUME`` (``online``): nothing else; the clock of the player to move runs again from
  the restart. A flag already down by then (a game loaded at or after its due time) is
  recorded by the caller as it records every flag: the server's, with its lag allowance.
- ``ARBITER`` (over-the-board profiles): the game is interrupted, so the arbiter stops the
  clocks (S6.12a) at the last acknowledged state; he decides when play restarts (S6.12c,
  ``ClocksStarted``) and may first set the clocks on the best evidence (S6.10, S6.13,
  ``ClocksSet``). Until then a move is refused (the clocks are not running).
"""

from __future__ import annotations

from chessarbiter.arbiter.decisions import Decision
from chessarbiter.arbiter.events import ClocksStopped
from chessarbiter.laws.profiles import Outage
from chessarbiter.session.live import LiveGame


def recover(live: LiveGame) -> tuple[Decision, ...]:
    """Apply the game's outage rule to ``live``, just loaded from the store after a restart
    (call it once per unfinished game, before any player's event); the decisions it caused,
    each already recorded in the game's log (and its journal)."""
    game = live.game
    if game.is_over:
        return ()
    if game.profile.outage is Outage.ARBITER and game.state().clock_running:
        at = live.last_at()  # the last acknowledged state, however late the game is loaded
        return live.apply(ClocksStopped(at))
    return ()
