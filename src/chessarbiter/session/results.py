"""What a game at the table answers: typed results of the players' and engines' actions, each
with the game as the action left it. Never text: the interfaces render them
(:mod:`chessarbiter.present.answers`)."""

from __future__ import annotations

from dataclasses import dataclass

from chessarbiter.arbiter.decisions import Decision
from chessarbiter.clock.records import Side
from chessarbiter.core.moves import Move
from chessarbiter.core.position import Position
from chessarbiter.engines.uci_client import EngineFailure
from chessarbiter.laws.endings import Outcome
from chessarbiter.session.commands import Verb


@dataclass(frozen=True, slots=True)
class Situation:
    """The game at one instant: the position (a copy, with its moves), whose move it is, a
    pending draw offer, the outcome once over, and both clocks' displays (``None`` without a
    clock)."""

    position: Position
    to_move: Side
    pending_offer: Side | None
    outcome: Outcome | None
    clocks: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class Played:
    """A move the arbiter accepted: ``before`` is the position it was played in (a copy);
    ``offer_draw`` when a draw was offered with it (Art. 9.1.2.1)."""

    side: Side
    before: Position
    move: Move
    offer_draw: bool = False


@dataclass(frozen=True, slots=True)
class Ruling:
    """An action the arbiter accepted: the command's ``action`` (``None`` when the session
    acted on its own: the clocks started, a fallen flag seen), the arbiter's ``decisions``,
    the move ``played`` if one was, and the game ``after`` it."""

    action: Verb | None
    decisions: tuple[Decision, ...]
    after: Situation
    played: Played | None = None


@dataclass(frozen=True, slots=True)
class Refused:
    """An action refused, the game unchanged: ``reason`` as the arbiter or the move reader
    gives it (moves in UCI, articles cited)."""

    action: Verb
    reason: str
    after: Situation


@dataclass(frozen=True, slots=True)
class EngineFailed:
    """An engine that gave no playable move and lost by the arbiter's answer
    (:func:`~chessarbiter.session.players.failure_event`): its ``name``, the ``failure``,
    the ``move`` it gave if it gave one and the ``reason`` it could not be played, and the
    arbiter's ``decisions``."""

    name: str
    failure: EngineFailure
    move: str | None
    reason: str
    decisions: tuple[Decision, ...]
    after: Situation


@dataclass(frozen=True, slots=True)
class Resumed:
    """A game taken up again from its log: the ``last`` move played (``None`` before the
    first) and the game now."""

    last: Played | None
    after: Situation


Answer = Ruling | Refused | EngineFailed | Resumed
"""Any result of the session."""
