"""Irregularities found during the game (Laws Art. 7; S7): an illegal move left standing and
found later or claimed (F23 7.5.1, A.5.2; S7.4), a wrong initial position (7.2.1; S7.1a) and
colours reversed (7.3; S7.2).

Each handler validates against the :class:`Table` first, raising :class:`ArbiterError` before
changing anything, then applies the event and returns its decisions. A reinstated position is
re-derived from the moves recorded before the irregularity.
"""

from __future__ import annotations

from dataclasses import replace

from chessarbiter.arbiter.decisions import Decision
from chessarbiter.arbiter.errors import ArbiterError
from chessarbiter.arbiter.events import (
    ColoursReversed,
    IllegalMoveClaimed,
    IllegalMoveFound,
    IllegalMoveUnnoticed,
    WrongInitialPosition,
)
from chessarbiter.arbiter.moves import board_rules, penalise, play
from chessarbiter.arbiter.setup import GameSetup
from chessarbiter.arbiter.table import Table
from chessarbiter.clock.records import Side
from chessarbiter.core.errors import InvalidMoveError
from chessarbiter.core.fen import parse_fen
from chessarbiter.core.moves import Move, make_move, parse_uci_parts, uci
from chessarbiter.core.squares import BACK_RANKS, KING, PAWN, SQUARE_NAMES
from chessarbiter.laws.repetition import RepetitionTable

SET_UP_CLAIM_MOVES = 10
"""F23 A.5.1.2: no claim on the set-up once ten moves have been completed by each player."""


def on_illegal_move_unnoticed(table: Table, event: IllegalMoveUnnoticed) -> list[Decision]:
    """An illegal move completed and not noticed: it stands on the board (the clock pressed,
    the scoresheet records it) until it is found (7.5.1) or claimed (A.5.2). It ends nothing
    (5.1.1, 5.2.1, 5.2.2 need a move per Art. 3). Only a move that leaves a position a game
    can go on from is accepted: none onto a piece of one's own or the king, none leaving the
    mover's king attacked or a pawn on the first or last rank (3.10.3; A.5.4)."""
    board_rules(table, "unnoticed illegal moves")
    table.require_turn(event.side, f"play {event.uci}")
    move = _standing_move(table, event.uci)
    if table.clock is not None and not table.can_press():
        raise ArbiterError("the clocks are not running (Art. 6.5, 6.12): start them first")
    decisions = play(table, move, False, legal=False)
    table.unnoticed.append(len(table.records))
    return decisions


def _standing_move(table: Table, text: str) -> Move:
    """The illegal move ``text`` as it would stand on the board; ``ArbiterError`` if it is
    legal or cannot stand."""
    try:
        fr, to, promo = parse_uci_parts(text)
    except InvalidMoveError as exc:
        raise ArbiterError(str(exc)) from None
    if table.find_move(text) is not None:
        raise ArbiterError(f"{text} is legal: record it as a move")
    pos = table.pos
    piece, target = pos.board[fr], pos.board[to]
    if not piece or piece >> 3 != pos.turn:
        raise ArbiterError(f"{text}: no piece of the player to move stands on {SQUARE_NAMES[fr]}")
    if fr == to or (target and (target >> 3 == pos.turn or target & 7 == KING)):
        raise ArbiterError(f"{text} cannot stand on the board (Art. 3.1, 1.4.1)")
    if promo and (piece & 7 != PAWN or not BACK_RANKS[pos.turn ^ 1] >> to & 1):
        raise ArbiterError(f"{text}: only a pawn reaching the last rank is promoted")
    move = make_move(fr, to, promo)
    after = pos.copy()
    after.push(move)
    try:
        parse_fen(after.fen(), chess960=after.chess960)
    except ValueError as exc:
        raise ArbiterError(f"{text} leaves an illegal position (Art. 3.10.3, A.5.4; {exc}): "
                           "record it as an illegal move corrected at once") from None
    return move


def on_illegal_move_claimed(table: Table, event: IllegalMoveClaimed) -> list[Decision]:
    """The player having the move claims the opponent's last move, an unnoticed illegal move,
    before making his own (F23 A.5.2): as found by the arbiter (7.5.1, 7.5.5)."""
    table.require_turn(event.side, "claim an illegal move (only before making one's own move)")
    ply = len(table.records)
    if ply not in table.unnoticed:
        raise ArbiterError(f"{event.side.opponent.name.lower()}'s last move was not recorded as "
                           "an unnoticed illegal move")
    return _reinstate(table, ply, "A.5.2, 7.5.1")


def on_illegal_move_found(table: Table, event: IllegalMoveFound) -> list[Decision]:
    """The arbiter finds an unnoticed illegal move (F23 7.5.1, S7.4): the position before it
    is reinstated, touch-move binds the replacing move (4.3), the clocks keep their times
    (7.1: the arbiter may set them, 6.13) with the move to the player of the illegal move, and
    the penalty follows (7.5.5; S10.3). Under A.5.2 only before the opponent's next move."""
    ply = event.ply
    if type(ply) is not int or ply not in table.unnoticed:
        raise ArbiterError(f"illegal-move-found: ply={ply!r} is not an unnoticed illegal move "
                           f"(those standing: {table.unnoticed})")
    if table.profile.limited_supervision and ply != len(table.records):
        raise ArbiterError(f"the illegal move of ply {ply} stands: the opponent has made his "
                           "next move (A.5.2)")
    return _reinstate(table, ply, "7.5.1 (S7.4)")


def _reinstate(table: Table, ply: int, article: str) -> list[Decision]:
    """The position immediately before ``ply``, re-derived from the moves before it; the
    notes made since go before the replacing move."""
    rules = board_rules(table, "illegal moves")
    record = table.records[ply - 1]
    side, move = record.side, record.move
    restore(table, ply - 1)
    pos = table.pos
    table.touches = [sq for sq in (move & 63, (move >> 6) & 63) if pos.board[sq]]
    text = uci(move, pos.chess960)
    decisions = [table.note(article, f"the position before {side.name.lower()}'s illegal move "
                                     f"{text} (ply {ply}) is reinstated; touch-move (4.3) binds "
                                     "the replacing move")]
    return decisions + penalise(table, rules, side, "7.5.5 (S10.3)", f"illegal move {text}")


def restore(table: Table, count: int) -> None:
    """The position after the first ``count`` moves recorded, re-derived from them: the
    later moves are dropped (their notes go after the last move kept), and with them the
    pending offer, a bound move and the touches; the clocks keep their times, the move on
    them going to the side to move (its move counts selecting its period)."""
    kept = table.records[:count]
    pos = parse_fen(table.setup.fen, chess960=table.setup.chess960)
    reps = RepetitionTable()
    reps.add(pos.key())
    for earlier in kept:
        pos.push(earlier.move)
        reps.add(pos.key())
    table.pos, table.reps = pos, reps
    table.moved()
    table.keep_records(count)
    table.notes = [(min(after, count), text) for after, text in table.notes]
    table.moves_made = [sum(r.side is s for r in kept) for s in (Side.WHITE, Side.BLACK)]
    table.unnoticed = [p for p in table.unnoticed if p <= count]
    table.offer = None
    table.takeback = None
    table.bound = None
    table.touches = []
    if table.clock is not None:
        table.clock.set_displays(*table.clock.readings(), to_move=table.mover,
                                 moves=(table.moves_made[0], table.moves_made[1]))


def on_wrong_initial_position(table: Table, event: WrongInitialPosition) -> list[Decision]:
    """The initial position was incorrect: the game is cancelled and a new one played from
    the correct position (F23 7.2.1, S7.1a); under A.5.1.2 no claim once ten moves each have
    been completed."""
    setup = _new_setup(table, event.fen)
    if table.profile.limited_supervision and min(table.moves_made) >= SET_UP_CLAIM_MOVES:
        raise ArbiterError(f"no claim regarding incorrect set-up once {SET_UP_CLAIM_MOVES} "
                           "moves have been completed by each player (A.5.1.2)")
    return _new_game(table, setup, "7.2.1 (S7.1a)", "the initial position was incorrect")


def on_colours_reversed(table: Table, event: ColoursReversed) -> list[Decision]:
    """Colours reversed: under F23 7.3 a new game with the correct colours unless both players
    have made the profile's ten moves, else the game continues; under S7.2 it continues unless
    the arbiter rules otherwise (``new_game``)."""
    chosen = event.new_game
    if chosen is not None and type(chosen) is not bool:
        raise ArbiterError(f"colours-reversed: new_game={chosen!r} is not true, false or null")
    limit = table.profile.colours_reversed_moves
    if limit is None:
        new_game = bool(chosen)
    else:
        new_game = min(table.moves_made) < limit
        if chosen is not None and chosen is not new_game:
            ruling = "a new game" if new_game else "the game continues"
            raise ArbiterError(f"Art. 7.3 decides: {ruling} ({min(table.moves_made)} of "
                               f"{limit} moves by both players)")
    if not new_game:
        return [table.note("7.3 (S7.2)", "the game began with colours reversed: it continues")]
    return _new_game(table, table.setup, "7.3 (S7.2)",
                     "the game began with colours reversed: the players change colours")


def _new_setup(table: Table, fen: object) -> GameSetup:
    if not isinstance(fen, str):
        raise ArbiterError(f"wrong-initial-position: fen={fen!r} is not a FEN")
    try:
        return replace(table.setup, fen=fen)
    except ValueError as exc:
        raise ArbiterError(f"wrong-initial-position: {exc}") from None


def _new_game(table: Table, setup: GameSetup, article: str, why: str) -> list[Decision]:
    """Start the game afresh from ``setup`` (position, clocks, scoresheet, counts), keeping
    the notes as notes before the first move; the clocks wait to be started (6.5)."""
    notes, now = [(0, text) for _, text in table.notes], table.now
    Table.__init__(table, setup, table.oracle, table.dead_check)
    table.notes, table.now = notes, now
    return [table.note(article, f"{why}: a new game is played")]
