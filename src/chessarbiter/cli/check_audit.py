"""The arbiter's audit of one recorded game (the ``check`` command's analysis).

For a game read from PGN it finds: an illegal or unreadable move (Art. 3, 8.1); a game that
went on after it had ended (checkmate Art. 5.1.1, stalemate 5.2.1, dead position 5.2.2,
fivefold repetition 9.6.1, 75 moves 9.6.2); a Result that the final position contradicts;
the first moments a player could have claimed a draw (threefold repetition 9.2, including a
move about to be made, and the 50-move rule 9.3); and clock readings (``%clk``) that the
TimeControl tag cannot explain (Art. 6.2).

Dead positions and "cannot checkmate" (Art. 5.2.2, 6.9) are decided by the laws package's
quick analysis, which answers "unwinnable" only when it has proved it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from chessarbiter.clock import (
    BonusMode,
    NoControl,
    TimeControl,
    TimeControlError,
    format_clock_time,
    parse_pgn_tag,
)
from chessarbiter.core.position import Position
from chessarbiter.laws.deadpos import Outcome, can_checkmate, is_dead_position
from chessarbiter.notation.game import RecordedGame
from chessarbiter.notation.san import write_san

"""a1, c1, ... (a square is dark when its file and rank have the same parity)."""
CLOCK_TOLERANCE_MS: Final = 1000
"""PGN clock readings are usually rounded to whole seconds."""

ERROR, WARNING, CLAIM = "error", "warning", "claim"


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing the audit found about a game."""

    severity: str
    """``error`` (the record breaks the Laws or cannot be read), ``warning`` (an
    inconsistency that the Laws do not settle), ``claim`` (a draw a player could claim)."""
    code: str
    message: str
    ply: int = 0
    """The half-move it concerns (1 = the game's first move), 0 for the whole game."""
    move: str = ""
    """The move as a scoresheet numbers it, e.g. ``23...Qxd7``."""


@dataclass(slots=True)
class Audit:
    """What the audit found about one game."""

    game: RecordedGame
    plies: int = 0
    ending: str = ""
    """How the final position ends the game by itself: ``checkmate``, ``stalemate``,
    ``dead position``, ``fivefold repetition``, ``75-move rule``, or empty."""
    findings: list[Finding] = field(default_factory=list)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == ERROR]


def dead_position(pos: Position) -> bool:
    """Whether neither side can ever checkmate (Art. 5.2.2), as far as the quick analysis
    proves."""
    return is_dead_position(pos, mode="quick") is Outcome.UNWINNABLE


def cannot_checkmate(pos: Position, colour: int) -> bool:
    """Whether ``colour`` is proved unable to checkmate by any series of legal moves (Art. 6.9)."""
    return can_checkmate(pos, colour, mode="quick").unwinnable


def move_label(pos: Position, move: int) -> str:
    """``12.Nf3`` or ``12...Nf6`` for a legal move in ``pos``."""
    dots = "..." if pos.turn else "."
    return f"{pos.fullmove_number}{dots}{write_san(pos, move)}"


class _Replay:
    """Follows the main line, remembering what the audit needs."""

    def __init__(self, audit: Audit) -> None:
        self.audit = audit
        self.pos = audit.game.start_position()
        self.counts: dict[int, int] = {self.pos.key(): 1}
        self.twice: set[int] = set()
        self.threefold_move = False
        self.threefold = False
        self.fifty_move = False
        self.fifty = False
        self.end_ply = 0

    def add(self, severity: str, code: str, message: str, ply: int = 0, move: str = "") -> None:
        self.audit.findings.append(Finding(severity, code, message, ply, move))

    def before(self, ply: int) -> None:
        """Claims a player can make by declaring the move about to be made (9.2.1, 9.3.1)."""
        pos = self.pos
        if not self.threefold_move and self.twice:
            for move in pos.legal_moves():
                pos.push(move)
                repeats = pos.key() in self.twice
                pos.pop()
                if repeats:
                    self.threefold_move = True
                    label = move_label(pos, move)
                    self.add(CLAIM, "threefold-move", f"threefold repetition claimable by writing "
                             f"{label}, which repeats a position a third time (Art. 9.2.1)",
                             ply, label)
                    break
        if not self.fifty_move and pos.halfmove_clock == 99:
            for move in pos.legal_moves():
                if not pos.board[(move >> 6) & 63] and pos.board[move & 63] & 7 != 1:
                    self.fifty_move = True
                    label = move_label(pos, move)
                    self.add(CLAIM, "fifty-moves-move", f"50-move rule claimable by writing "
                             f"{label}, the 50th move of each player without capture or pawn "
                             "move (Art. 9.3.1)", ply, label)
                    break

    def after(self, ply: int, label: str) -> None:
        """Repetitions, the move counters and automatic ends after a move."""
        pos = self.pos
        if pos.halfmove_clock == 0:
            self.counts.clear()
            self.twice.clear()
        key = pos.key()
        count = self.counts[key] = self.counts.get(key, 0) + 1
        if count == 2:
            self.twice.add(key)
        if count == 3 and not self.threefold:
            self.threefold = True
            self.add(CLAIM, "threefold", "threefold repetition claimable: this position has "
                     "now appeared three times (Art. 9.2.2)", ply, label)
        if pos.halfmove_clock >= 100 and not self.fifty:
            self.fifty = True
            self.add(CLAIM, "fifty-moves", "50-move rule claimable: 50 moves by each player "
                     "without capture or pawn move (Art. 9.3.2)", ply, label)
        if self.audit.ending:
            return
        if count >= 5:
            self.audit.ending = "fivefold repetition"
        elif pos.halfmove_clock >= 150 and not pos.is_checkmate():
            self.audit.ending = "75-move rule"
        elif pos.halfmove_clock == 0 and pos.count_legal_moves() and dead_position(pos):
            self.audit.ending = "dead position"
        if self.audit.ending:
            self.end_ply = ply


_ARTICLES: Final = {
    "checkmate": "Art. 5.1.1",
    "stalemate": "Art. 5.2.1",
    "dead position": "Art. 5.2.2",
    "fivefold repetition": "Art. 9.6.1",
    "75-move rule": "Art. 9.6.2",
}


def audit_game(game: RecordedGame) -> Audit:
    """Audit a game read from PGN."""
    audit = Audit(game)
    try:
        replay = _Replay(audit)
    except ValueError as exc:
        audit.findings.append(Finding(ERROR, "position", f"starting position: {exc}"))
        return audit
    pos = replay.pos
    after_end = ""
    clocks: list[tuple[int, int, str]] = []
    for ply, record in enumerate(game.moves, 1):
        replay.before(ply)
        label = move_label(pos, record.move)
        if audit.ending and not after_end:
            after_end = label
            replay.add(ERROR, "after-end", f"{label} was played after the game had ended by "
                       f"{audit.ending} ({_ARTICLES[audit.ending]})", ply, label)
        if record.clock_ms is not None:
            clocks.append((ply, record.clock_ms, label))
        pos.push(record.move)
        replay.after(ply, label)
    audit.plies = len(game.moves)
    if not audit.ending:
        if pos.is_checkmate():
            audit.ending = "checkmate"
        elif pos.is_stalemate():
            audit.ending = "stalemate"
    _read_error(audit, pos)
    _result(audit, pos)
    _clock(audit, clocks)
    return audit


def _read_error(audit: Audit, pos: Position) -> None:
    error = audit.game.error
    if error is None:
        return
    where = ""
    if error.move_number:
        where = f"{error.move_number}{'...' if error.black else '.'}{error.text}"
    if error.kind in ("illegal", "ambiguous", "invalid") and audit.ending in ("checkmate",
                                                                               "stalemate"):
        message = (f"{where} was recorded after the game had ended by {audit.ending} "
                   f"({_ARTICLES[audit.ending]})")
        code = "after-end"
    else:
        message = f"line {error.line}: {error.message}"
        code = error.kind if error.kind != "invalid" else "unreadable-move"
    audit.findings.append(Finding(ERROR, code, message, error.ply, where))


_WINNERS: Final = {"1-0": 0, "0-1": 1}


def _result(audit: Audit, pos: Position) -> None:
    """The Result tag against the final position (Art. 5, 6.9, 9.6)."""
    game = audit.game
    tag = game.tags.get("Result")
    if tag is None:
        audit.findings.append(Finding(WARNING, "no-result", "no Result tag"))
        tag = game.result
    elif tag != game.result:
        audit.findings.append(Finding(WARNING, "result-marker", f"Result tag {tag!r} differs "
                                      f"from the movetext's termination marker {game.result!r}"))
    if audit.game.error is not None:
        return
    ending = audit.ending
    winner = _WINNERS.get(tag)
    if ending == "checkmate":
        mated = pos.turn
        expected = "0-1" if mated == 0 else "1-0"
        if tag != expected:
            severity = WARNING if tag == "*" else ERROR
            audit.findings.append(Finding(severity, "result", f"Result {tag!r}, but "
                                          f"{'White' if mated == 0 else 'Black'} is checkmated: "
                                          f"the result is {expected} (Art. 5.1.1)"))
    elif ending and winner is not None:
        audit.findings.append(Finding(ERROR, "result", f"Result {tag!r}, but the game ended "
                                      f"drawn by {ending} ({_ARTICLES[ending]})"))
    elif winner is not None and "time" in game.tags.get("Termination", "").lower() and (
        cannot_checkmate(pos, winner)
    ):
        audit.findings.append(Finding(ERROR, "result", f"Result {tag!r} on time, but the "
                                      "winner cannot checkmate by any series of legal moves: "
                                      "the game is drawn (Art. 6.9)"))


def _clock(audit: Audit, clocks: list[tuple[int, int, str]]) -> None:
    """``%clk`` readings that exceed what the time control gives (Art. 6.2)."""
    value = audit.game.tags.get("TimeControl")
    if not clocks or value is None:
        return
    try:
        control = parse_pgn_tag(value)
    except TimeControlError as exc:
        audit.findings.append(Finding(WARNING, "time-control", f"TimeControl tag: {exc}"))
        return
    if isinstance(control, NoControl) or any(
        p.mode is BonusMode.HOURGLASS for p in control.periods
    ):
        return
    first = audit.game.start_position().turn
    previous = [control.periods[0].time_ms] * 2
    made = [0, 0]
    reported = [False, False]
    for ply, reading, label in clocks:
        side = (first + ply - 1) % 2
        allowed = previous[side] + _allowance(control, made[side])
        made[side] += 1
        if reading > allowed + CLOCK_TOLERANCE_MS and not reported[side]:
            reported[side] = True
            audit.findings.append(Finding(
                WARNING, "clock",
                f"{'White' if side == 0 else 'Black'}'s clock reads "
                f"{format_clock_time(reading)} after {label}, more than the "
                f"{format_clock_time(allowed)} that TimeControl {value!r} allows (Art. 6.2)",
                ply, label,
            ))
        previous[side] = reading


def _allowance(control: TimeControl, made: int) -> int:
    """The most a player's clock can gain with his next move after ``made`` moves: the
    bonus, plus the next period's time when the move completes a period."""
    index, in_period = control.period_index(made)
    period = control.periods[index]
    gain = period.bonus_ms
    if period.moves is not None and in_period + 1 == period.moves:
        gain += control.periods[min(index + 1, len(control.periods) - 1)].time_ms
    return gain
