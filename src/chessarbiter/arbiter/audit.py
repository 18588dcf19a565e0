"""The arbiter's audit of one recorded game (what ``chessarbiter check`` reports).

For a game read from PGN it finds: an illegal or unreadable move (Art. 3, 8.1); a game that
went on after it had ended (checkmate Art. 5.1.1, stalemate 5.2.1, dead position 5.2.2,
fivefold repetition 9.6.1, 75 moves 9.6.2): an error, or a *void-moves* note when the
recorded result is the one the end gives; a Result that the final position contradicts;
the first moments a player could have claimed a draw (threefold repetition 9.2, including a
move about to be made, and the 50-move rule 9.3); and clock readings (``%clk``) that the
TimeControl tag cannot explain (Art. 6.2).

The endings and claims are the arbiter's own rules under a profile (FIDE 2023 unless told):
:func:`~chessarbiter.arbiter.moves.automatic_draw` and
:func:`~chessarbiter.arbiter.moves.no_move_ending` after the moves, the per-move dead-position
proof of :mod:`chessarbiter.arbiter.oracles`, and the claims of
:mod:`chessarbiter.laws.repetition`. The replay stays cheap per move, so that whole databases
can be audited: positions are counted from the last capture or pawn move on (none before can
stand again), a move that would repeat a position is looked for only while a position stands
twice (from the key difference it would make), mate and stalemate only where the record ends
(after them no move is legal), and SAN is written only for the moves a finding names.
"Cannot checkmate" on a time loss (6.9) is proved by material, or, when every pawn of that
side is locked head-on, by the quick analysis (which answers "unwinnable" only when proved).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, partial
from typing import Final

from chessarbiter.arbiter.moves import automatic_draw, no_move_ending
from chessarbiter.arbiter.oracles import dead_position_check
from chessarbiter.clock import (
    BonusMode,
    NoControl,
    TimeControl,
    TimeControlError,
    format_clock_time,
    parse_pgn_tag,
)
from chessarbiter.core.moves import Move
from chessarbiter.core.position import Position
from chessarbiter.core.squares import BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK, Side
from chessarbiter.core.zobrist import PIECE_KEYS, TURN_KEY
from chessarbiter.laws.deadpos import can_checkmate
from chessarbiter.laws.deadpos.material import cannot_mate_by_material
from chessarbiter.laws.endings import Outcome, Result, Termination
from chessarbiter.laws.profiles import FIDE_2023, RuleProfile
from chessarbiter.laws.repetition import (
    FIFTY_MOVE_PLIES,
    THREEFOLD,
    RepetitionTable,
    fifty_move_claim_correct,
    threefold_claim_correct,
)
from chessarbiter.notation.game import RecordedGame
from chessarbiter.notation.san import write_san

CLOCK_TOLERANCE_MS: Final = 1000
"""PGN clock readings are usually rounded to whole seconds."""

ERROR, WARNING, NOTE, CLAIM = "error", "warning", "note", "claim"

_ENDINGS: Final = {
    Termination.CHECKMATE: ("checkmate", "Art. 5.1.1"),
    Termination.STALEMATE: ("stalemate", "Art. 5.2.1"),
    Termination.DEAD_POSITION: ("dead position", "Art. 5.2.2"),
    Termination.FIVEFOLD_REPETITION: ("fivefold repetition", "Art. 9.6.1"),
    Termination.SEVENTY_FIVE_MOVES: ("75-move rule", "Art. 9.6.2"),
}
"""The name and article a report gives each automatic end."""
_NO_MOVE: Final = (Termination.CHECKMATE, Termination.STALEMATE)
_WINNERS: Final = {Result.win_for(side).value: side for side in Side}


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing the audit found about a game."""

    severity: str
    """``error`` (the record breaks the Laws or cannot be read), ``warning`` (an
    inconsistency that the Laws do not settle), ``note`` (moves recorded after the game
    had ended, void under a result that stands), ``claim`` (a draw a player could claim)."""
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
    end: Outcome | None = None
    """How the game ended by itself (an automatic end: mate, stalemate, dead position,
    fivefold repetition, 75 moves), ``None`` if it did not."""
    findings: list[Finding] = field(default_factory=list)

    @property
    def ending(self) -> str:
        """The end's name as reported: ``checkmate``, ``stalemate``, ``dead position``,
        ``fivefold repetition``, ``75-move rule``, or empty."""
        return "" if self.end is None else _ENDINGS[self.end.termination][0]

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == ERROR]


def _locked(pos: Position, colour: Side) -> bool:
    """Whether every pawn of ``colour`` stands right in front of an opposing pawn."""
    pieces = pos.pieces
    own = pieces[colour << 3 | PAWN]
    other = pieces[colour.opponent << 3 | PAWN]
    ahead = own >> 8 if colour else own << 8
    return not ahead & ~other


def cannot_checkmate(pos: Position, colour: Side) -> bool:
    """Whether ``colour`` is proved unable to checkmate by any series of legal moves (Art. 6.9):
    by material, or, with its pawns locked, by the quick analysis."""
    if cannot_mate_by_material(pos.pieces, colour):
        return True
    return _locked(pos, colour) and can_checkmate(pos, colour, mode="quick").unwinnable


def move_label(pos: Position, move: int) -> str:
    """``12.Nf3`` or ``12...Nf6`` for a legal move in ``pos``."""
    dots = "..." if pos.turn else "."
    return f"{pos.fullmove_number}{dots}{write_san(pos, move)}"


@cache
def _piece_steps() -> dict[int, tuple[int, int, int]]:
    """Key difference -> (piece, square, square) of a piece stepping between two squares
    (either way) with the turn passing."""
    found = {}
    for colour in Side:
        for kind in (KNIGHT, BISHOP, ROOK, QUEEN, KING):
            keys = PIECE_KEYS[colour << 3 | kind]
            for a in range(64):
                for b in range(a + 1, 64):
                    found[keys[a] ^ keys[b] ^ TURN_KEY] = (colour << 3 | kind, a, b)
    return found


def repeating_move(pos: Position, reps: RepetitionTable, twice: set[int]) -> int:
    """A legal move that would make a position of ``twice`` (counted in ``reps``) stand a
    third time (Art. 9.2.1), or 0.

    Such a move is a piece step without capture (anything else makes a position that never
    stood before), so a candidate is found from the difference between the keys; only a
    candidate is tested for legality and, made, counted."""
    key = pos.key()
    board = pos.board
    steps = _piece_steps()
    for other in twice:
        step = steps.get(key ^ other)
        if step is None:
            continue
        piece, a, b = step
        if piece >> 3 != pos.turn:
            continue
        if board[a] == piece and not board[b]:
            move = Move(a | b << 6)
        elif board[b] == piece and not board[a]:
            move = Move(b | a << 6)
        else:
            continue
        if pos.is_legal(move) and threefold_claim_correct(pos, reps, move):
            return move
    return 0


def _fifty_move(pos: Position) -> int:
    """A legal move that would complete 50 moves by each player without a capture or pawn
    move (Art. 9.3.1), or 0."""
    return next((move for move in pos.legal_moves() if fifty_move_claim_correct(pos, move)), 0)


def _label_at(game: RecordedGame, ply: int) -> str:
    """The label of the main line's move ``ply`` (1 = first), replaying to it."""
    return _labels(game, [ply])[ply]


def _labels(game: RecordedGame, plies: list[int]) -> dict[int, str]:
    """The labels of the main line's moves ``plies`` (in order), in one replay."""
    labels: dict[int, str] = {}
    if not plies:
        return labels
    pos = game.start_position()
    wanted = iter(plies)
    ply = next(wanted)
    for at, record in enumerate(game.moves[: plies[-1]], 1):
        if at == ply:
            labels[ply] = move_label(pos, record.move)
            ply = next(wanted, 0)
        pos.push(record.move)
    return labels


def audit_game(game: RecordedGame, profile: RuleProfile = FIDE_2023) -> Audit:
    """Audit a game read from PGN under ``profile``'s automatic endings."""
    audit = Audit(game)
    findings = audit.findings
    try:
        pos = game.start_position()
    except ValueError as exc:
        findings.append(Finding(ERROR, "position", f"starting position: {exc}"))
        return audit
    reps = RepetitionTable()
    reps.add(pos.key())
    twice: set[int] = set()
    threefold_move = threefold = fifty_move = fifty = False
    end: Outcome | None = None
    end_ply = 0
    clocks: list[tuple[int, int]] = []
    dead = partial(dead_position_check, pos)
    second, last_but_one = THREEFOLD - 1, FIFTY_MOVE_PLIES - 1
    for ply, record in enumerate(game.moves, 1):
        if twice and not threefold_move:
            repeat = repeating_move(pos, reps, twice)
            if repeat:
                threefold_move = True
                label = move_label(pos, repeat)
                findings.append(Finding(
                    CLAIM, "threefold-move", f"threefold repetition claimable by writing "
                    f"{label}, which repeats a position a third time (Art. 9.2.1)", ply, label))
        if pos.halfmove_clock == last_but_one and not fifty_move:
            step = _fifty_move(pos)
            if step:
                fifty_move = True
                label = move_label(pos, step)
                findings.append(Finding(
                    CLAIM, "fifty-moves-move", f"50-move rule claimable by writing {label}, "
                    "the 50th move of each player without capture or pawn move "
                    "(Art. 9.3.1)", ply, label))
        if record.clock_ms is not None:
            clocks.append((ply, record.clock_ms))
        if end is not None and not end_ply:
            end_ply = ply
        pos.push(record.move)
        halfmove = pos.halfmove_clock
        if halfmove == 0:
            reps.clear()
            twice.clear()
        key = pos.key()
        count = reps.add(key)
        if count == second:
            twice.add(key)
        elif count >= THREEFOLD and not threefold:
            threefold = True
            label = _label_at(game, ply)
            findings.append(Finding(CLAIM, "threefold", f"threefold repetition claimable after "
                                    f"{label}: this position has now appeared three times "
                                    "(Art. 9.2.2)", ply, label))
        if halfmove >= FIFTY_MOVE_PLIES and not fifty:
            fifty = True
            label = _label_at(game, ply)
            findings.append(Finding(CLAIM, "fifty-moves", f"50-move rule claimable after {label}: "
                                    "50 moves by each player without capture or pawn move "
                                    "(Art. 9.3.2)", ply, label))
        if end is None:
            found = automatic_draw(pos, profile, count, dead)
            if found is not None and pos.has_legal_move():  # else mated or stalemated
                end = found
    audit.plies = len(game.moves)
    if end is None and not pos.has_legal_move():
        end = no_move_ending(pos)
    audit.end = end
    _void_moves(audit, end_ply)
    _read_error(audit)
    _result(audit, pos)
    _clock(audit, clocks)
    return audit


def _recorded_result(game: RecordedGame) -> str:
    return game.tags.get("Result", game.result)


def _void_moves(audit: Audit, end_ply: int) -> None:
    """Moves recorded after the game ended (also an unplayable one after a mate or
    stalemate): void when the recorded result is the end's, else an error."""
    game = audit.game
    error = game.error
    end = audit.end
    if end is None:
        return
    after_mate = error is not None and error.kind in ("illegal", "ambiguous", "invalid") and (
        end.termination in _NO_MOVE
    )
    if not end_ply and not after_mate:
        return
    if end_ply:
        label = _label_at(game, end_ply)
        ply = end_ply
    else:
        assert error is not None
        label = f"{error.move_number}{'...' if error.black else '.'}{error.text}"
        ply = error.ply
    name, article = _ENDINGS[end.termination]
    ended = f"{name} ({article})"
    result = end.result.value
    if _recorded_result(game) == result:
        recorded = audit.plies - end_ply + 1 if end_ply else 1
        audit.findings.append(Finding(
            NOTE, "void-moves", f"{label} and what follows ({recorded} recorded "
            f"move{'s' if recorded > 1 else ''}) came after the game had ended by {ended}: "
            f"void; the result {result} stands", ply, label))
    else:
        audit.findings.append(Finding(ERROR, "after-end", f"{label} was played after the "
                                      f"game had ended by {ended}", ply, label))


def _read_error(audit: Audit) -> None:
    error = audit.game.error
    if error is None:
        return
    if error.kind in ("illegal", "ambiguous", "invalid") and (
        audit.end is not None and audit.end.termination in _NO_MOVE
    ):
        return  # the move came after the end (see _void_moves)
    where = ""
    message = f"line {error.line}: {error.message}"
    if error.move_number:
        where = f"{error.move_number}{'...' if error.black else '.'}{error.text}"
        message = f"{where} (line {error.line}): {error.message}"
    code = error.kind if error.kind != "invalid" else "unreadable-move"
    audit.findings.append(Finding(ERROR, code, message, error.ply, where))


def _result(audit: Audit, pos: Position) -> None:
    """The Result tag against the game's automatic end, whatever was recorded after it, or
    else against the final position (Art. 5, 6.9, 9.6)."""
    game = audit.game
    tag = game.tags.get("Result")
    if tag is None:
        audit.findings.append(Finding(WARNING, "no-result", "no Result tag"))
        tag = game.result
    elif tag != game.result:
        audit.findings.append(Finding(WARNING, "result-marker", f"Result tag {tag!r} differs "
                                      f"from the movetext's termination marker {game.result!r}"))
    end = audit.end
    if end is None and game.error is not None:
        return  # the final position is unknown; an end before the error stands
    winner = _WINNERS.get(tag)
    if end is not None and end.termination is Termination.CHECKMATE:
        expected = end.result.value
        if tag != expected:
            severity = WARNING if tag == "*" else ERROR
            mated = _WINNERS[expected].opponent
            audit.findings.append(Finding(severity, "result", f"Result {tag!r}, but "
                                          f"{mated.name.title()} is checkmated: "
                                          f"the result is {expected} (Art. 5.1.1)"))
    elif end is not None and winner is not None:
        name, article = _ENDINGS[end.termination]
        audit.findings.append(Finding(ERROR, "result", f"Result {tag!r}, but the game ended "
                                      f"drawn by {name} ({article})"))
    elif winner is not None and "time" in game.tags.get("Termination", "").lower() and (
        cannot_checkmate(pos, winner)
    ):
        audit.findings.append(Finding(ERROR, "result", f"Result {tag!r} on time, but the "
                                      "winner cannot checkmate by any series of legal moves: "
                                      "the game is drawn (Art. 6.9)"))


def _clock(audit: Audit, clocks: list[tuple[int, int]]) -> None:
    """Every ``%clk`` reading that exceeds what the time control gives (Art. 6.2)."""
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
    over: list[tuple[int, Side, int, int]] = []
    for ply, reading in clocks:
        side = first if ply % 2 else first.opponent
        allowed = previous[side] + _allowance(control, made[side])
        made[side] += 1
        if reading > allowed + CLOCK_TOLERANCE_MS:
            over.append((ply, side, reading, allowed))
        previous[side] = reading
    labels = _labels(audit.game, [ply for ply, *_ in over])
    for ply, side, reading, allowed in over:
        label = labels[ply]
        audit.findings.append(Finding(
            WARNING, "clock",
            f"{side.name.title()}'s clock reads {format_clock_time(reading)} after {label}, "
            f"more than the {format_clock_time(allowed)} that TimeControl {value!r} allows "
            "(Art. 6.2)", ply, label,
        ))


def _allowance(control: TimeControl, made: int) -> int:
    """The most a player's clock can gain with his next move after ``made`` moves: the
    bonus, plus the next period's time when the move completes a period."""
    index, in_period = control.period_index(made)
    period = control.periods[index]
    gain = period.bonus_ms
    if period.moves is not None and in_period + 1 == period.moves:
        gain += control.periods[min(index + 1, len(control.periods) - 1)].time_ms
    return gain
