"""The arbiter's audit of one recorded game (the ``check`` command's analysis).

For a game read from PGN it finds: an illegal or unreadable move (Art. 3, 8.1); a game that
went on after it had ended (checkmate Art. 5.1.1, stalemate 5.2.1, dead position 5.2.2,
fivefold repetition 9.6.1, 75 moves 9.6.2): an error, or a *void-moves* note when the
recorded result is the one the end gives; a Result that the final position contradicts;
the first moments a player could have claimed a draw (threefold repetition 9.2, including a
move about to be made, and the 50-move rule 9.3); and clock readings (``%clk``) that the
TimeControl tag cannot explain (Art. 6.2).

The replay is cheap per move, so that whole databases can be audited: repetitions are
counted on the positions' keys, a move that would repeat a position is looked up from the
key difference it would make (only while a position already stands twice), and SAN is
written only for the moves a finding names. A dead position (Art. 5.2.2) is found after
every move by the arbiter's per-move proof (:mod:`chessarbiter.laws.deadpos.proof`); "cannot
checkmate" on a time loss (6.9) by material, and by the quick analysis (which answers
"unwinnable" only when it has proved it) when every pawn of that side is locked head-on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
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
from chessarbiter.core.squares import BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK, Side
from chessarbiter.core.zobrist import PIECE_KEYS, TURN_KEY
from chessarbiter.laws.deadpos import can_checkmate
from chessarbiter.laws.deadpos.material import cannot_mate_by_material
from chessarbiter.laws.deadpos.proof import proved_dead
from chessarbiter.notation.game import RecordedGame
from chessarbiter.notation.san import write_san

CLOCK_TOLERANCE_MS: Final = 1000
"""PGN clock readings are usually rounded to whole seconds."""

ERROR, WARNING, NOTE, CLAIM = "error", "warning", "note", "claim"


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
    ending: str = ""
    """How the game ended by itself: ``checkmate``, ``stalemate``, ``dead position``,
    ``fivefold repetition``, ``75-move rule``, or empty."""
    findings: list[Finding] = field(default_factory=list)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == ERROR]


def _locked(pos: Position, colour: int) -> bool:
    """Whether every pawn of ``colour`` stands right in front of an opposing pawn."""
    pieces = pos.pieces
    own = pieces[colour << 3 | PAWN]
    other = pieces[(colour ^ 1) << 3 | PAWN]
    ahead = own >> 8 if colour else own << 8
    return not ahead & ~other


def dead_position(pos: Position) -> bool:
    """Whether neither side can ever checkmate (Art. 5.2.2), as the arbiter's per-move proof
    finds it."""
    return proved_dead(pos) is not None


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
    for colour in (0, 1):
        for kind in (KNIGHT, BISHOP, ROOK, QUEEN, KING):
            keys = PIECE_KEYS[colour << 3 | kind]
            for a in range(64):
                for b in range(a + 1, 64):
                    found[keys[a] ^ keys[b] ^ TURN_KEY] = (colour << 3 | kind, a, b)
    return found


def repeating_move(pos: Position, twice: set[int]) -> int:
    """A legal move that would make a position of ``twice`` stand a third time, or 0.

    Such a move is a piece step without capture that keeps the castling rights (anything
    else makes a position that never stood before), so it is found from the difference
    between the keys; only a move that fits is tested for legality."""
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
            move = a | b << 6
        elif board[b] == piece and not board[a]:
            move = b | a << 6
        else:
            continue
        if pos.is_legal(move):
            return move
    return 0


def _label_at(game: RecordedGame, ply: int) -> str:
    """The label of the main line's move ``ply`` (1 = first), replaying to it."""
    pos = game.start_position()
    for record in game.moves[: ply - 1]:
        pos.push(record.move)
    return move_label(pos, game.moves[ply - 1].move)


_ARTICLES: Final = {
    "checkmate": "Art. 5.1.1",
    "stalemate": "Art. 5.2.1",
    "dead position": "Art. 5.2.2",
    "fivefold repetition": "Art. 9.6.1",
    "75-move rule": "Art. 9.6.2",
}
_WINNERS: Final = {"1-0": Side.WHITE, "0-1": Side.BLACK}


def audit_game(game: RecordedGame) -> Audit:
    """Audit a game read from PGN."""
    audit = Audit(game)
    findings = audit.findings
    try:
        pos = game.start_position()
    except ValueError as exc:
        findings.append(Finding(ERROR, "position", f"starting position: {exc}"))
        return audit
    counts: dict[int, int] = {pos.key(): 1}
    twice: set[int] = set()
    threefold_move = threefold = fifty_move = fifty = False
    ending = ""
    end_ply = 0
    ended_at: Position | None = None
    clocks: list[tuple[int, int]] = []
    for ply, record in enumerate(game.moves, 1):
        move = record.move
        if twice and not threefold_move:
            repeat = repeating_move(pos, twice)
            if repeat:
                threefold_move = True
                label = move_label(pos, repeat)
                findings.append(Finding(
                    CLAIM, "threefold-move", f"threefold repetition claimable by writing "
                    f"{label}, which repeats a position a third time (Art. 9.2.1)", ply, label))
        if pos.halfmove_clock == 99 and not fifty_move:
            board = pos.board
            for step in pos.legal_moves():
                if not board[(step >> 6) & 63] and board[step & 63] & 7 != PAWN:
                    fifty_move = True
                    label = move_label(pos, step)
                    findings.append(Finding(
                        CLAIM, "fifty-moves-move", f"50-move rule claimable by writing {label}, "
                        "the 50th move of each player without capture or pawn move "
                        "(Art. 9.3.1)", ply, label))
                    break
        if record.clock_ms is not None:
            clocks.append((ply, record.clock_ms))
        if ending and not end_ply:
            end_ply = ply
        pos.push(move)
        halfmove = pos.halfmove_clock
        if halfmove == 0:
            counts.clear()
            twice.clear()
        key = pos.key()
        count = counts[key] = counts.get(key, 0) + 1
        if count == 2:
            twice.add(key)
        elif count == 3 and not threefold:
            threefold = True
            findings.append(Finding(CLAIM, "threefold", "threefold repetition claimable: this "
                                    "position has now appeared three times (Art. 9.2.2)",
                                    ply, _label_at(game, ply)))
        if halfmove >= 100 and not fifty:
            fifty = True
            findings.append(Finding(CLAIM, "fifty-moves", "50-move rule claimable: 50 moves by "
                                    "each player without capture or pawn move (Art. 9.3.2)",
                                    ply, _label_at(game, ply)))
        if ending:
            continue
        if count >= 5:
            ending = "fivefold repetition"
        elif halfmove >= 150 and not pos.is_checkmate():
            ending = "75-move rule"
        elif dead_position(pos) and pos.count_legal_moves():
            ending = "dead position"
        if ending:
            ended_at = pos.copy()
    audit.plies = len(game.moves)
    if not ending:
        if pos.is_checkmate():
            ending = "checkmate"
        elif pos.is_stalemate():
            ending = "stalemate"
        ended_at = pos
    audit.ending = ending
    _void_moves(audit, end_ply, ended_at)
    _read_error(audit)
    _result(audit, pos)
    _clock(audit, clocks)
    return audit


def _ending_result(audit: Audit, ended_at: Position | None) -> str:
    """The result the automatic end gives (Art. 5.1.1, 5.2, 9.6)."""
    if audit.ending == "checkmate" and ended_at is not None:
        return "0-1" if ended_at.turn == 0 else "1-0"
    return "1/2-1/2"


def _recorded_result(game: RecordedGame) -> str:
    return game.tags.get("Result", game.result)


def _void_moves(audit: Audit, end_ply: int, ended_at: Position | None) -> None:
    """Moves recorded after the game ended (also an unplayable one after a mate or
    stalemate): void when the recorded result is the end's, else an error."""
    game = audit.game
    error = game.error
    after_mate = error is not None and error.kind in ("illegal", "ambiguous", "invalid") and (
        audit.ending in ("checkmate", "stalemate")
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
    ended = f"{audit.ending} ({_ARTICLES[audit.ending]})"
    result = _ending_result(audit, ended_at)
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
    if error.kind in ("illegal", "ambiguous", "invalid") and audit.ending in ("checkmate",
                                                                               "stalemate"):
        return  # the move came after the end (see _void_moves)
    where = ""
    if error.move_number:
        where = f"{error.move_number}{'...' if error.black else '.'}{error.text}"
    code = error.kind if error.kind != "invalid" else "unreadable-move"
    audit.findings.append(Finding(ERROR, code, f"line {error.line}: {error.message}",
                                  error.ply, where))


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


def _clock(audit: Audit, clocks: list[tuple[int, int]]) -> None:
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
    for ply, reading in clocks:
        side = (first + ply - 1) % 2
        allowed = previous[side] + _allowance(control, made[side])
        made[side] += 1
        if reading > allowed + CLOCK_TOLERANCE_MS and not reported[side]:
            reported[side] = True
            label = _label_at(audit.game, ply)
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
