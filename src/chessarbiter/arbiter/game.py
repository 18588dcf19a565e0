"""The game as an append-only log of events, and the arbiter that rules on each one.

``Game.apply(event)`` validates the event against the state derived from the log, appends it
and returns the arbiter's decisions; a rejected event raises :class:`ArbiterError` and leaves
log and state untouched. All state (position, clocks, pending offer, touches, penalties,
result) derives from the log: ``Game.replay(setup, game.log, start=game.start_analysis)``
rebuilds the same game. The clock reads the events' ``at_ms`` as its time source, so replay
reproduces it to the millisecond; the dead-position analysis' answers are recorded with the
events that asked for them (:class:`Analysis`), so replay reads them instead of asking again
and agrees whatever version of the analysis replays it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from chessarbiter.arbiter import draws, irregularities, mating, moves, online, rulings, timing
from chessarbiter.arbiter.decisions import Decision
from chessarbiter.arbiter.errors import (
    AnalysisAsked,
    ArbiterError,
    FlagFallenError,
    GameOverError,
)
from chessarbiter.arbiter.events import (
    ARBITER_EVENTS,
    AbandonmentClaimed,
    Analysis,
    ArbiterRuled,
    BothLost,
    ClocksSet,
    ClocksStarted,
    ClocksStopped,
    ColoursReversed,
    DrawClaimed,
    DrawOffered,
    Event,
    FlagClaimed,
    FlagObserved,
    Forfeited,
    IllegalMoveClaimed,
    IllegalMoveCompleted,
    IllegalMoveFound,
    IllegalMoveUnnoticed,
    Moved,
    MovedWithTwoHands,
    OfferAccepted,
    OfferDeclined,
    Resigned,
    ResultDeclared,
    SuddenDeathClaimed,
    SuddenDeathRuled,
    TakebackAccepted,
    TakebackDeclined,
    TakebackProposed,
    TimeAdded,
    TimeGiven,
    Touched,
    Warned,
    WrongInitialPosition,
)
from chessarbiter.arbiter.oracles import DeadCheck, MateOracle, dead_position_check, mate_verdict
from chessarbiter.arbiter.setup import GameSetup
from chessarbiter.arbiter.table import MoveRecord, Table
from chessarbiter.clock.controls import TimeControl
from chessarbiter.clock.records import Flag, Side
from chessarbiter.core.moves import uci
from chessarbiter.core.position import STARTING_FEN, Position
from chessarbiter.core.squares import SQUARE_NAMES
from chessarbiter.laws.deadpos import Verdict
from chessarbiter.laws.endings import Outcome
from chessarbiter.laws.profiles import FIDE_2023, RuleProfile

_Handler = Callable[[Table, Any], list[Decision]]
_HANDLERS: dict[type, _Handler] = {
    Moved: moves.on_moved,
    Touched: moves.on_touched,
    IllegalMoveCompleted: moves.on_illegal_move,
    DrawOffered: draws.on_offered,
    OfferAccepted: draws.on_accepted,
    OfferDeclined: draws.on_declined,
    DrawClaimed: draws.on_claimed,
    Resigned: draws.on_resigned,
    SuddenDeathClaimed: draws.on_sudden_death_claimed,
    SuddenDeathRuled: draws.on_sudden_death_ruled,
    FlagObserved: timing.on_flag_observed,
    FlagClaimed: timing.on_flag_claimed,
    ClocksStopped: timing.on_clocks_stopped,
    ClocksStarted: timing.on_clocks_started,
    TimeAdded: timing.on_time_added,
    ClocksSet: timing.on_clocks_set,
    Warned: rulings.on_warned,
    ResultDeclared: rulings.on_result_declared,
    Forfeited: rulings.on_forfeited,
    BothLost: rulings.on_both_lost,
    MovedWithTwoHands: moves.on_moved_with_two_hands,
    IllegalMoveUnnoticed: irregularities.on_illegal_move_unnoticed,
    IllegalMoveClaimed: irregularities.on_illegal_move_claimed,
    IllegalMoveFound: irregularities.on_illegal_move_found,
    WrongInitialPosition: irregularities.on_wrong_initial_position,
    ColoursReversed: irregularities.on_colours_reversed,
    ArbiterRuled: mating.on_arbiter_ruled,
    TakebackProposed: online.on_takeback_proposed,
    TakebackAccepted: online.on_takeback_accepted,
    TakebackDeclined: online.on_takeback_declined,
    TimeGiven: online.on_time_given,
    AbandonmentClaimed: online.on_abandonment_claimed,
}
_NO_SIDE: Final = Side.WHITE
"""What an event without a side is checked as (read once: an enum member's look-up is slow)."""
_AFTER_THE_END = frozenset({Warned, ResultDeclared, Forfeited, BothLost})
"""The arbiter's events that remain possible once the game has ended."""


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything derived from the log, as one comparable value."""

    fen: str
    to_move: Side
    outcome: Outcome | None
    pending_offer: Side | None
    touched: tuple[str, ...]
    must_play: str | None
    illegal_moves: tuple[int, int]
    offers: tuple[int, int]
    warnings: tuple[int, int]
    clock_ms: tuple[int, int] | None
    clock_running: bool
    time_adjusted_ms: tuple[int, int]
    flags: tuple[Flag, ...]
    sudden_death_claim: Side | None
    postponed: bool
    records: tuple[MoveRecord, ...]
    notes: tuple[tuple[int, str], ...]
    last_at_ms: int | None
    unnoticed: tuple[int, ...] = ()
    """The plies of unnoticed illegal moves standing on the board (F23 7.5.1, A.5.2)."""
    pending_ruling: str | None = None
    """What the arbiter must rule on before the game goes on (the analysis undetermined)."""
    pending_takeback: Side | None = None
    """The player whose takeback awaits an answer (online practice)."""


class Game:
    """One game under a rule profile: its log and everything derived from it.

    ``mate_oracle(position, colour)`` answers "can ``colour`` still checkmate?" with a
    :class:`~chessarbiter.laws.deadpos.Verdict` for resignations, flags and illegal-move
    losses (undetermined: the arbiter rules, :class:`ArbiterRuled`); ``dead_check(position)``
    gives the reason a position is proved dead, checked when the game is created and after
    each move. The defaults use the full dead-position analysis and the per-move proof
    (:mod:`chessarbiter.arbiter.oracles`).
    """

    def __init__(
        self,
        profile: RuleProfile = FIDE_2023,
        control: TimeControl | None = None,
        *,
        fen: str = STARTING_FEN,
        chess960: bool = False,
        tags: Mapping[str, str] | None = None,
        mate_oracle: MateOracle = mate_verdict,
        dead_check: DeadCheck = dead_position_check,
    ) -> None:
        self.setup = GameSetup(profile, control, fen, chess960, dict(tags or {}))
        self._oracles = (mate_oracle, dead_check)
        self._log: list[Event] = []
        self._legacy = False
        self._table = Table(self.setup, mate_oracle, dead_check)
        self._judge_start()

    def _judge_start(self, recorded: Analysis | None = None, *, replaying: bool = False) -> None:
        """The set-up position's endings (checkmate, stalemate, dead, 75 moves), the dead
        check's answer read from ``recorded`` when ``replaying``."""
        table = self._table
        table.replaying = replaying
        table.analysis = recorded
        moves.judge_start(table)
        self.start_analysis: Analysis | None = table.analysis
        """The dead check's answer on the set-up position, when it proved it dead."""
        table.replaying = False
        table.analysis = None

    @classmethod
    def from_setup(
        cls,
        setup: GameSetup,
        *,
        mate_oracle: MateOracle = mate_verdict,
        dead_check: DeadCheck = dead_position_check,
    ) -> Game:
        """A new game with a given setup."""
        return cls(setup.profile, setup.control, fen=setup.fen, chess960=setup.chess960,
                   tags=setup.tags, mate_oracle=mate_oracle, dead_check=dead_check)

    @classmethod
    def replay(
        cls,
        setup: GameSetup,
        events: Iterable[Event],
        *,
        mate_oracle: MateOracle = mate_verdict,
        dead_check: DeadCheck = dead_position_check,
        start: Analysis | None = None,
        recorded: bool = True,
    ) -> Game:
        """The game a log describes; ``ArbiterError`` naming the first event it rejects.

        With ``recorded`` (a log that records the analyses), the analyses are read from the
        events and ``start`` (the game's :attr:`start_analysis`), never run again, so the
        outcome does not depend on the oracles; without it (a log written before analyses
        were recorded), they run as the game goes, as they did when it was played."""
        game = cls.__new__(cls)
        game.setup = setup
        game._oracles = (mate_oracle, dead_check)
        game._log = []
        game._legacy = not recorded
        game._table = Table(setup, mate_oracle, dead_check)
        if recorded:
            game._judge_start(start, replaying=True)
        else:
            game.start_analysis = None  # such logs come from games never judged at the start
        for index, event in enumerate(events, 1):
            try:
                game.replay_event(event, recorded=recorded)
            except ArbiterError as exc:
                raise ArbiterError(f"event {index} ({event.kind} at {event.at_ms} ms) rejected: "
                                   f"{exc}") from exc
        return game

    def replay_event(self, event: Event, *, recorded: bool = True) -> tuple[Decision, ...]:
        """Apply an event read from a log: like :meth:`apply`, but the analysis it records
        (if ``recorded``) is taken as the answer instead of asking the oracles."""
        return self._apply(event, recorded)

    # -- the arbiter -------------------------------------------------------------------

    def apply(self, event: Event) -> tuple[Decision, ...]:
        """Rule on ``event`` and append it to the log; returns the decisions it caused.
        Raises :class:`ArbiterError` (the game unchanged) if the event is not allowed; an
        event may not bring its own analysis (the arbiter records it)."""
        return self._apply(event, None)

    def apply_unless_asked(self, event: Event) -> tuple[Decision, ...]:
        """As :meth:`apply`, unless the ruling asks the mate oracle: then
        :class:`AnalysisAsked` (the game unchanged) carries the question, for the caller to
        answer and :meth:`replay_event` the event with the answer recorded. So a server
        knows which events need an analysis from the arbiter itself."""
        table = self._table
        oracle = table.oracle

        def asked(pos: Position, colour: Side) -> Verdict:
            raise AnalysisAsked(oracle, pos.copy(), colour)

        table.oracle = asked
        try:
            return self._apply(event, None)
        finally:
            table.oracle = oracle

    def _apply(self, event: Event, recorded: bool | None) -> tuple[Decision, ...]:
        """``recorded``: ``None`` live, else replaying a log that does (True) or does not
        (False) record the analyses."""
        kind = type(event)
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise ArbiterError(f"not a game event: {event!r}")
        given: Analysis | None = getattr(event, "analysis", None)
        if given is not None and recorded is None:
            raise ArbiterError(f"{event.kind}: the analysis is recorded by the arbiter, not "
                               "given with the event")
        self._check(event, kind)
        table = self._table
        before = table.now
        clock = table.clock
        flags = clock.flag_count if clock is not None else 0
        table.now = event.at_ms
        table.replaying = recorded is True
        table.analysis = given
        try:
            decisions = handler(table, event)
        except ArbiterError:
            table.now = before
            if clock is not None and clock.flag_count != flags:
                self._rebuild()  # reading the clock later recorded a flag that has not fallen
            raise
        except Exception as exc:  # a defect must never cost the game's data: rebuild it
            self._rebuild()
            raise ArbiterError(f"{event.kind} at {event.at_ms} ms could not be applied "
                               f"({exc!r}); the game is unchanged") from exc
        finally:
            table.replaying = False
        found = table.analysis
        if found is not given and hasattr(event, "analysis"):
            event = replace(event, analysis=found)  # type: ignore[arg-type]
        self._log.append(event)
        return tuple(decisions)

    def _check(self, event: Event, kind: type) -> None:
        """What every event (of type ``kind``) must satisfy: time order, the game running
        (except for the arbiter's decisions), no pending ruling, and, where flags fall by
        themselves, no flag fallen before a player's event."""
        at = event.at_ms
        if type(at) is not int or at < 0:
            raise ArbiterError(f"{event.kind}: at_ms={at!r} is not a time in ms (an int >= 0)")
        side = getattr(event, "side", _NO_SIDE)
        if type(side) is not Side:
            raise ArbiterError(f"{event.kind}: side={side!r} is not a Side (Side.WHITE or BLACK)")
        last = self._log[-1].at_ms if self._log else 0
        if at < last:
            raise ArbiterError(f"{event.kind} at {at} ms comes before the last event "
                               f"({last} ms): a log's time never goes back")
        table = self._table
        if table.outcome is not None and kind not in _AFTER_THE_END:
            raise GameOverError(f"the game is over ({table.outcome}): no {event.kind}")
        if kind in ARBITER_EVENTS:
            return
        if table.sudden_death_claim is not None:
            raise ArbiterError(f"{event.kind}: the arbiter must first rule on the sudden-death "
                               "claim")
        if table.pending is not None:
            raise ArbiterError(f"{event.kind}: the arbiter must first rule whether "
                               f"{table.pending.loser.opponent.name.lower()} can still "
                               "checkmate")
        clock = table.clock
        if table.profile.flags_automatic and clock is not None and kind is not FlagObserved:
            left = clock.time_to_flag()
            if left is not None and at >= last + left:
                side = clock.to_move.name.lower()
                raise FlagFallenError(f"{side}'s flag fell at {last + left} ms, before this "
                                      f"{event.kind} at {at} ms: record the flag", last + left)

    def _rebuild(self) -> None:
        """The state again from the log, the recorded analyses read, not run again."""
        self._table = table = Table(self.setup, *self._oracles)
        if not self._legacy:
            self._judge_start(self.start_analysis, replaying=True)
        for event in self._log:
            table.now = event.at_ms
            table.replaying = True
            table.analysis = getattr(event, "analysis", None)
            _HANDLERS[type(event)](table, event)
        table.replaying = False
        table.analysis = None

    # -- what the log says -------------------------------------------------------------

    @property
    def log(self) -> tuple[Event, ...]:
        """Every accepted event, in order."""
        return tuple(self._log)

    @property
    def profile(self) -> RuleProfile:
        return self.setup.profile

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (result, Termination, reason), ``None`` while it goes on."""
        return self._table.outcome

    @property
    def is_over(self) -> bool:
        return self._table.outcome is not None

    @property
    def pending_ruling(self) -> str | None:
        """The ending awaiting the arbiter's ruling (:class:`ArbiterRuled`), the analysis
        having been unable to tell whether the opponent can still checkmate."""
        pending = self._table.pending
        return None if pending is None else pending.loss

    @property
    def to_move(self) -> Side:
        return self._table.mover

    @property
    def fen(self) -> str:
        return self._table.pos.fen()

    @property
    def start_fen(self) -> str:
        """The position the recorded moves start from: the setup's, or that of the new game
        the arbiter ordered (Art. 7.2.1, 7.3)."""
        return self._table.setup.fen

    def position(self) -> Position:
        """A copy of the position on the board (its move history included)."""
        return self._table.pos.copy()

    @property
    def pending_offer(self) -> Side | None:
        """The player whose draw offer awaits an answer."""
        return self._table.offer

    @property
    def pending_takeback(self) -> Side | None:
        """The player whose takeback awaits an answer (online practice)."""
        return online.pending(self._table)

    def legal_moves(self) -> list[str]:
        """The moves the player having the move may make now, in UCI (touch-move and a bound
        intended move applied; none once the game is over)."""
        if self.is_over:
            return []
        table = self._table
        return [uci(m, table.pos.chess960) for m in table.allowed_moves()]

    def illegal_moves(self, side: Side) -> int:
        """Completed illegal moves recorded against ``side``."""
        return self._table.illegal_moves[side]

    @property
    def records(self) -> tuple[MoveRecord, ...]:
        """The moves with their clock readings and draw offers, for the scoresheet."""
        return tuple(self._table.records)

    @property
    def notes(self) -> tuple[tuple[int, str], ...]:
        """Every decision, as ``(moves played before it, text)``."""
        return tuple(self._table.notes)

    def clock_ms(self) -> tuple[int, int] | None:
        """White's and Black's displays at the last event; ``None`` without a clock."""
        clock = self._table.clock
        return None if clock is None else clock.readings()

    def clock_at(self, at_ms: int) -> tuple[int, int] | None:
        """White's and Black's displays at ``at_ms`` (not before the last event), recording
        nothing: for showing the running clock between events."""
        clock = self._table.clock
        return None if clock is None else clock.readings_at(max(at_ms, self._table.now))

    def time_to_flag(self) -> int | None:
        """Milliseconds after the last event until the running display's flag falls."""
        clock = self._table.clock
        return None if clock is None else clock.time_to_flag()

    def state(self) -> GameState:
        """Everything derived from the log, as a value (equal for equal logs)."""
        table = self._table
        clock = table.clock
        bound = table.bound
        return GameState(
            fen=table.pos.fen(),
            to_move=table.mover,
            outcome=table.outcome,
            pending_offer=table.offer,
            touched=tuple(SQUARE_NAMES[sq] for sq in table.touches),
            must_play=None if bound is None else uci(bound, table.pos.chess960),
            illegal_moves=(table.illegal_moves[0], table.illegal_moves[1]),
            offers=(table.offers[0], table.offers[1]),
            warnings=(table.warnings[0], table.warnings[1]),
            clock_ms=None if clock is None else clock.readings(),
            clock_running=clock is not None and clock.running,
            time_adjusted_ms=(table.adjusted[0], table.adjusted[1]),
            flags=() if clock is None else clock.flags,
            sudden_death_claim=table.sudden_death_claim,
            postponed=table.postponed,
            records=tuple(table.records),
            notes=tuple(table.notes),
            last_at_ms=self._log[-1].at_ms if self._log else None,
            unnoticed=tuple(table.unnoticed),
            pending_ruling=None if table.pending is None else table.pending.loss,
            pending_takeback=online.pending(table),
        )
