"""Everything on the playing table while a game is replayed: board, clock, offers, touches,
penalties and the result. The event handlers read and change it; :class:`Game` owns it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from chessarbiter.arbiter.decisions import Decision
from chessarbiter.arbiter.errors import ArbiterError
from chessarbiter.arbiter.events import Analysis, Question
from chessarbiter.arbiter.oracles import DeadCheck, MateOracle
from chessarbiter.arbiter.setup import GameSetup
from chessarbiter.arbiter.touch import touch_bound_moves
from chessarbiter.clock.clock import Clock
from chessarbiter.clock.errors import ClockError
from chessarbiter.clock.records import Side, Start
from chessarbiter.core.errors import InvalidMoveError
from chessarbiter.core.fen import parse_fen
from chessarbiter.core.movegen import castling_moves, is_legal
from chessarbiter.core.moves import Move, king_destination, parse_uci_code
from chessarbiter.core.squares import KING
from chessarbiter.laws.deadpos.verdict import Winnability
from chessarbiter.laws.endings import Outcome, Result, Termination
from chessarbiter.laws.mating_material import uscf_cannot_win_on_time
from chessarbiter.laws.profiles import FlagRule
from chessarbiter.laws.repetition import RepetitionTable

UNTIMED_PRESSES: Final = {
    Start.BLACK_STARTS_WHITE: 0,
    Start.WHITE_FIRST_MOVE: 1,
    Start.BOTH_MOVED: 2,
}
"""Opening presses that do not run a clock, per way of starting it."""


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """A move as the scoresheet keeps it: the mover's display after it (``%clk``), the time it
    took (``%emt``) and whether a draw was offered with it (``(=)``, Art. 9.1.2.1, 8.1)."""

    move: Move
    side: Side
    clock_ms: int | None
    used_ms: int | None
    offers_draw: bool


@dataclass(frozen=True, slots=True)
class PendingRuling:
    """A game ending the analysis could not decide (Art. 5.1.2, 6.9, 7.5.5): ``loser`` loses
    unless the arbiter rules that the opponent cannot checkmate."""

    loser: Side
    termination: Termination
    loss: str
    draw: str


class Table:
    """The derived state of one game (see the attributes); handlers validate, then change it."""

    def __init__(self, setup: GameSetup, oracle: MateOracle, dead_check: DeadCheck) -> None:
        self.setup = setup
        self.profile = setup.profile
        self.oracle = oracle
        self.dead_check = dead_check
        self.pos = parse_fen(setup.fen, chess960=setup.chess960)
        self.reps = RepetitionTable()
        self.reps.add(self.pos.key())
        self._legal: list[Move] | None = None
        self.checked: bool | None = None
        """Whether the side to move is in check, once the automatic endings have asked
        (``None``: not known since the position last changed)."""
        self.replaying = False
        """A log that records the analyses is being replayed: they are read, not run."""
        self.analysis: Analysis | None = None
        """The analysis of the event being applied: given by the log when replaying, else
        the one the arbiter made (to be recorded with the event)."""
        self.pending: PendingRuling | None = None
        """An ending awaiting the arbiter's ruling, the analysis having been undetermined."""
        self.now = 0
        """The time of the event being applied: the clock's time source."""
        self.clock = (
            Clock(setup.control, self._time, start=self.profile.clock_start)
            if setup.control is not None
            else None
        )
        if self.clock is not None and self.pos.turn:
            self.clock.set_displays(*self.clock.readings(), to_move=Side.BLACK)
        self.started = False
        """Black (or the arbiter) has started the clocks (Art. 6.5)."""
        self.presses = 0
        self.offer: Side | None = None
        """The player whose draw offer is pending (Art. 9.1)."""
        self.offers = [0, 0]
        self.touches: list[int] = []
        """Squares touched by the player having the move, in order (Art. 4.3)."""
        self.bound: Move | None = None
        """The intended move of an incorrect claim, which must now be played (Art. 9.5)."""
        self.illegal_moves = [0, 0]
        self.warnings = [0, 0]
        self.moves_made = [0, 0]
        self.outcome: Outcome | None = None
        self.sudden_death_claim: Side | None = None
        """A sudden-death claim awaiting the arbiter's ruling (S10.2)."""
        self.postponed = False
        self.adjusted = [0, 0]
        """Time added (removed if negative) to each clock by penalties and the arbiter."""
        self.flags_seen = [0, 0]
        """Flags of each side already cancelled by time the arbiter gave back."""
        self._records: list[MoveRecord] = []
        self.played: list[tuple[Move, Side, int | None, int | None, bool]] = []
        """The moves as :class:`MoveRecord` fields, appended by every move (the records
        themselves are built when asked for)."""
        self.notes: list[tuple[int, str]] = []
        """(moves played, text): what the scoresheet notes after that move (0: before any)."""
        self.unnoticed: list[int] = []
        self.takeback: tuple[Side, int] | None = None
        """A takeback proposed (online practice) and the moves recorded then: pending while
        no move has been made since."""
        """The plies (1: the first record) of unnoticed illegal moves standing (F23 7.5.1)."""

    def _time(self) -> int:
        return self.now

    # -- reading -----------------------------------------------------------------------

    @property
    def mover(self) -> Side:
        """The side having the move."""
        return self.pos.turn

    @property
    def legal(self) -> list[Move]:
        """The legal moves of the position on the board (listed when first asked)."""
        if self._legal is None:
            self._legal = self.pos.legal_moves()
        return self._legal

    def moved(self) -> None:
        """The position on the board has changed."""
        self._legal = None
        self.checked = None

    @property
    def records(self) -> list[MoveRecord]:
        """The moves played, for the scoresheet."""
        built = self._records
        if len(built) < len(self.played):
            built += [MoveRecord(*fields) for fields in self.played[len(built):]]
        return built

    def keep_records(self, count: int) -> None:
        """Forget the moves played after the first ``count`` (a position reinstated)."""
        del self.played[count:]
        del self._records[count:]

    def allowed_moves(self) -> list[Move]:
        """The legal moves left by touch-move (Art. 4.3-4.4) and a bound intended move (9.5)."""
        if self.bound is not None:
            return [self.bound]
        return touch_bound_moves(self.pos, self.touches, self.legal)

    def find_move(self, text: str) -> Move | None:
        """The legal move written ``text`` in UCI (castling also as king-takes-rook), ``None``
        when illegal; ``ArbiterError`` when ``text`` is not a move at all."""
        try:
            move = parse_uci_code(text)
        except InvalidMoveError as exc:
            raise ArbiterError(str(exc)) from None
        pos = self.pos
        if is_legal(pos, move, self.checked):
            return move
        fr = move & 63
        if move >> 12 or pos.board[fr] != (pos.turn << 3 | KING):
            return None
        to = move >> 6
        for castle in castling_moves(pos):  # the king takes its rook, or steps two squares
            if castle & 63 == fr and ((castle >> 6) & 63 == to or king_destination(castle) == to):
                return Move(castle)
        return None

    def cannot_mate(self, colour: Side) -> bool | None:
        """Whether ``colour`` can no longer checkmate (Art. 5.1.2, 6.9, 7.5.5), ``None`` when
        undetermined: the analysis the log records for this event, else the mate oracle's
        (which the event will record)."""
        found = self.analysis
        if found is None or found.question is not Question.CAN_MATE:
            verdict = self.oracle(self.pos, colour)
            found = self.analysis = Analysis(Question.CAN_MATE, verdict.outcome, verdict.reason)
        outcome = found.outcome
        return None if outcome is Winnability.UNDETERMINED else outcome is Winnability.UNWINNABLE

    def cannot_win(self, winner: Side) -> bool | None:
        """Whether ``winner`` lacks the means to win on the opponent's flag or illegal move:
        no checkmate by any series of legal moves (S6.9, F23 6.9, 7.5.5), or under US Chess
        the material of rule 14E's list; ``None`` when the analysis cannot tell."""
        if self.profile.flag_rule is FlagRule.USCF_MATERIAL:
            return uscf_cannot_win_on_time(self.pos, winner)
        return self.cannot_mate(winner)

    def dead_reason(self) -> str | None:
        """Why the position on the board is dead (Art. 5.2.2), ``None`` unless proved: read
        from the log when replaying, else the dead check's (recorded with the event)."""
        if self.replaying:
            found = self.analysis
            if found is None or found.question is not Question.DEAD_POSITION:
                return None
            return found.reason
        reason = self.dead_check(self.pos)
        if reason is not None:
            self.analysis = Analysis(Question.DEAD_POSITION, Winnability.UNWINNABLE, reason)
        return reason

    def flagged(self) -> list[Side]:
        """The sides whose flag has fallen and still counts, first fallen first."""
        if self.clock is None:
            return []
        out: list[Side] = []
        seen = [0, 0]
        for flag in self.clock.flags:
            seen[flag.side] += 1
            if seen[flag.side] > self.flags_seen[flag.side] and flag.side not in out:
                out.append(flag.side)
        return out

    def clock_started(self) -> bool:
        """Whether the clocks have been started (by an event, or by the untimed presses)."""
        untimed = UNTIMED_PRESSES[self.profile.clock_start]
        return self.started or 0 < untimed <= self.presses

    def can_press(self) -> bool:
        """Whether the mover may complete a move on the clock now (running, or untimed)."""
        assert self.clock is not None
        return self.clock.running or self.presses < UNTIMED_PRESSES[self.profile.clock_start]

    # -- changing ----------------------------------------------------------------------

    def require_turn(self, side: Side, what: str) -> None:
        if side is not self.pos.turn:
            raise ArbiterError(
                f"{side.name.lower()} cannot {what}: {self.mover.name.lower()} has the move"
            )

    def require_clock(self, what: str) -> Clock:
        if self.clock is None:
            raise ArbiterError(f"cannot {what}: this game has no clock")
        return self.clock

    def note(self, article: str, text: str) -> Decision:
        """Record a decision on the scoresheet after the last move; returns it."""
        decision = Decision(article, text)
        self.notes.append((len(self.played), str(decision)))
        return decision

    def finish(self, result: Result, termination: Termination, reason: str) -> Decision:
        """End (or, by an arbiter's decision, re-decide) the game: offers lapse, clocks stop."""
        self.outcome = Outcome(result, termination, reason)
        self.pending = None
        self.offer = None
        self.touches.clear()
        self.bound = None
        self.sudden_death_claim = None
        if self.clock is not None and self.clock.running:
            self.clock.stop()
        return self.note(termination.article, f"{result.value}: {reason}")

    def add_time(self, side: Side, ms: int) -> None:
        """Give (or take) time; a flag cancelled by the new time no longer counts (Art. 6.13)."""
        clock = self.require_clock("change the time")
        clock.add_time(side, ms)
        self.adjusted[side] += ms
        self.forgive_flags()

    def forgive_flags(self) -> None:
        """A flag cancelled by time the arbiter gave no longer counts (Art. 6.13)."""
        assert self.clock is not None
        for side in (Side.WHITE, Side.BLACK):
            if self.clock.remaining(side) > 0:
                self.flags_seen[side] = sum(f.side is side for f in self.clock.flags)

    def restart_clock(self) -> None:
        """Restart the clock of the player to move after a stop, if it had been started."""
        if self.clock is not None and not self.clock.running and self.clock_started():
            self.clock.restart()

    def press(self) -> tuple[int, int]:
        """Complete the mover's move on the clock: his display after it and the time used;
        ``ArbiterError`` when the clocks are not running (Art. 6.5, 6.12)."""
        clock = self.clock
        assert clock is not None
        if not clock.running and not self.can_press():
            raise ArbiterError("the clocks are not running (Art. 6.5, 6.12): start them first")
        try:
            readings = clock.complete_move(self.pos.turn)
        except ClockError as exc:
            raise ArbiterError(str(exc)) from None
        self.presses += 1
        return readings
