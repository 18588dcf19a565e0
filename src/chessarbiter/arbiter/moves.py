"""Moves, touches and illegal moves (Laws Art. 3-5, 7.5, 9.6), and the automatic endings.

Each handler validates the event against the :class:`Table` first and raises
:class:`ArbiterError` before changing anything; then it applies the event and returns its
decisions.
"""

from __future__ import annotations

from collections.abc import Callable

from chessarbiter.arbiter.decisions import Decision
from chessarbiter.arbiter.errors import ArbiterError
from chessarbiter.arbiter.events import IllegalMoveCompleted, Moved, MovedWithTwoHands, Touched
from chessarbiter.arbiter.mating import lose_unless_cannot_mate
from chessarbiter.arbiter.table import Table
from chessarbiter.clock.records import Side
from chessarbiter.core.errors import InvalidMoveError
from chessarbiter.core.movegen import has_legal_move, in_check
from chessarbiter.core.moves import Move, parse_uci_parts
from chessarbiter.core.position import Position
from chessarbiter.core.squares import BACK_RANKS, PAWN, QUEEN, SQUARE_NAMES, parse_square
from chessarbiter.laws.endings import Outcome, Result, Termination
from chessarbiter.laws.profiles import Lapse, OverTheBoard, RuleProfile
from chessarbiter.laws.repetition import (
    FIFTY_MOVE_PLIES,
    FIVEFOLD,
    SEVENTY_FIVE_MOVE_PLIES,
    THREEFOLD,
)

PERSISTENT_OFFERS = 3
"""Offers by one player from which the arbiter is told they may be annoying (Art. 11.5)."""


def on_moved(table: Table, event: Moved) -> list[Decision]:
    """A move made and completed (Art. 3, 4, 6.7), with a draw offer if made with it (9.1)."""
    if event.side is not table.pos.turn:
        table.require_turn(event.side, f"move {event.uci}")
    move = table.find_move(event.uci)
    if move is None:
        hint = " (record it as an illegal move)" if table.profile.over_the_board else ""
        raise ArbiterError(f"{event.uci} is not a legal move in {table.pos.fen()}{hint}")
    if (table.touches or table.bound is not None) and move not in table.allowed_moves():
        raise ArbiterError(f"{event.uci} breaks {_binding(table)}")
    if event.offers_draw:
        check_offer_allowed(table, event.side, with_move=True)
    return play(table, move, event.offers_draw)


def _binding(table: Table) -> str:
    if table.bound is not None:
        return f"Art. 9.5: the claimant's intended move {table.pos.uci(table.bound)} must be played"
    touched = ", ".join(SQUARE_NAMES[sq] for sq in table.touches)
    return f"touch-move (Art. 4.3-4.4): touched {touched}"


def check_offer_allowed(table: Table, side: Side, *, with_move: bool = False) -> None:
    """Art. 9.1.1: the event may forbid offers before a move; one pending offer at a time
    (an opponent's offer lapses by the move an offer is made with)."""
    first = table.profile.offers_from_move
    if table.pos.fullmove_number < first:
        raise ArbiterError(f"no draw offers before move {first} in this event (Art. 9.1.1)")
    if table.offer is side or (table.offer is not None and not with_move):
        raise ArbiterError(f"a draw offer by {table.offer.name.lower()} is already pending")


def persistent_offers(table: Table, side: Side) -> list[Decision]:
    """From :data:`PERSISTENT_OFFERS` offers on (with a move or not), the arbiter is told they
    may annoy the opponent (Art. 11.5, S12.5)."""
    count = table.offers[side]
    if count < PERSISTENT_OFFERS:
        return []
    return [table.note("11.5 (S12.5)", f"{side.name.lower()} has offered a draw {count} times: "
                                       "persistent offers may be penalised")]


def play(table: Table, move: Move, offers_draw: bool, *, legal: bool = True) -> list[Decision]:
    """Make a legal move: the clock press, the opponent's pending offer declined (9.1.2.1),
    touches done, the new position counted, then the automatic endings (none after an illegal
    move left standing, ``legal=False``: 5.1.1, 5.2.1, 5.2.2 need a move per Art. 3)."""
    pos = table.pos
    mover = pos.turn
    clock_ms = used_ms = None
    if table.clock is not None:
        clock_ms, used_ms = table.press()
    if table.touches:
        table.touches.clear()
    table.bound = None
    pos.push(move)
    table.moved()
    count = table.reps.add(pos.key())
    table.moves_made[mover] += 1
    table.played.append((move, mover, clock_ms, used_ms, offers_draw))
    decisions = []
    if table.offer is not None and table.offer is not mover:
        table.offer = None
        decisions.append(table.note("9.1.2.1", f"{mover.name.lower()} declines the draw offer "
                                                "by moving"))
    if offers_draw:
        table.offer = mover
        table.offers[mover] += 1
        decisions.append(Decision("9.1.2.1", f"{mover.name.lower()} offers a draw (=)"))
        decisions += persistent_offers(table, mover)
    ending = automatic_ending(table, count) if legal else None
    if ending is not None:
        decisions.append(ending)
    return decisions


def judge_start(table: Table) -> Decision | None:
    """A set-up position that is already checkmate, stalemate, dead or past the automatic
    move-count limits ends the game when it is created (Art. 5.1.1, 5.2.1, 5.2.2, 9.6.2)."""
    return automatic_ending(table, 1)


def automatic_ending(table: Table, count: int) -> Decision | None:
    """The endings that need no claim, checked after each move, in the Laws' order of
    precedence: checkmate (5.1.1) and stalemate (5.2.1), then :func:`automatic_draw`.
    ``count`` is how often the new position has occurred."""
    pos = table.pos
    checked = table.checked = in_check(pos)
    if has_legal_move(pos, checked):
        ending = automatic_draw(pos, table.profile, count, table.dead_reason)
        if ending is None:
            return None
    else:
        ending = no_move_ending(pos)
    return table.finish(ending.result, ending.termination, ending.reason)


def no_move_ending(pos: Position) -> Outcome:
    """The end when the side to move has no legal move: checkmate (5.1.1) or stalemate
    (5.2.1)."""
    if pos.is_check():
        winner = pos.turn.opponent
        return Outcome(Result.win_for(winner), Termination.CHECKMATE,
                       f"{_name(winner)} checkmates")
    return Outcome(Result.DRAW, Termination.STALEMATE, f"{_name(pos.turn)} is stalemated")


def automatic_draw(
    pos: Position, profile: RuleProfile, count: int, dead_reason: Callable[[], str | None]
) -> Outcome | None:
    """The draws that need no claim when the side to move has a legal move, in the Laws'
    order: dead position (5.2.2; ``dead_reason`` says why it is proved dead, else ``None``),
    75 moves (9.6.2; a mate on the last move stands), fivefold repetition (9.6.1); online,
    threefold and 50 moves too. ``count`` is how often the position has occurred."""
    reason = dead_reason() if profile.dead_position_automatic else None
    if reason is not None:
        return Outcome(Result.DRAW, Termination.DEAD_POSITION,
                       f"neither player can checkmate by any series of legal moves ({reason})")
    halfmoves = pos.halfmove_clock
    if profile.seventy_five_moves_automatic and halfmoves >= SEVENTY_FIVE_MOVE_PLIES:
        return Outcome(Result.DRAW, Termination.SEVENTY_FIVE_MOVES,
                       "75 moves by each player without a capture or pawn move")
    if count >= FIVEFOLD and profile.fivefold_automatic:
        return Outcome(Result.DRAW, Termination.FIVEFOLD_REPETITION,
                       "the same position for the fifth time")
    if profile.draw_claims_automatic:
        if count >= THREEFOLD:
            return Outcome(Result.DRAW, Termination.THREEFOLD_REPETITION,
                           "the same position for the third time (claimed automatically)")
        if halfmoves >= FIFTY_MOVE_PLIES:
            return Outcome(Result.DRAW, Termination.FIFTY_MOVES,
                           "50 moves by each player without a capture or pawn move "
                           "(claimed automatically)")
    return None


def on_touched(table: Table, event: Touched) -> list[Decision]:
    """A deliberate touch by the player having the move (Art. 4.3); under F23 it declines a
    pending offer (9.1.2.1) and ends the right to claim on this move (9.4)."""
    rules = board_rules(table, "touches")
    table.require_turn(event.side, "touch a piece")
    try:
        square = parse_square(event.square)
    except ValueError as exc:
        raise ArbiterError(str(exc)) from None
    if not table.pos.board[square]:
        raise ArbiterError(f"no piece stands on {event.square} to be touched")
    decisions = []
    if rules.offer_declined_by is Lapse.TOUCH and table.offer is event.side.opponent:
        table.offer = None
        decisions.append(table.note("9.1.2.1", f"{event.side.name.lower()} declines the draw "
                                               "offer by touching a piece"))
    if square not in table.touches:
        table.touches.append(square)
    return decisions


def on_illegal_move(table: Table, event: IllegalMoveCompleted) -> list[Decision]:
    """A completed illegal move (Art. 7.5; S7.4, 10.3): the position before it stands, the
    opponent gets time, the 2nd (F23) or 3rd (S) loses, drawn if the opponent cannot mate;
    touch-move binds the replacement. An unpromoted pawn on the last rank becomes a queen
    (F23 7.5.2); ``0000`` is a press without a move (7.5.3)."""
    rules = board_rules(table, "completed illegal moves")
    table.require_turn(event.side, f"play {event.uci}")
    fr = to = -1
    if event.uci != "0000":
        try:
            fr, to, _ = parse_uci_parts(event.uci)
        except InvalidMoveError as exc:
            raise ArbiterError(str(exc)) from None
        if table.find_move(event.uci) is not None:
            raise ArbiterError(f"{event.uci} is legal: record it as a move")
        if not table.pos.board[fr]:
            raise ArbiterError(f"{event.uci}: no piece stands on {SQUARE_NAMES[fr]}")
    queen = _queened(table, rules, event.uci, fr, to)
    if queen is not None and table.clock is not None and not table.can_press():
        raise ArbiterError("the clocks are not running (Art. 6.5, 6.12): start them first")
    side = event.side
    decisions = penalise(table, rules, side, "7.5.1", f"illegal move {event.uci}")
    if table.outcome is not None:
        return decisions
    if queen is not None:
        decisions.append(table.note("7.5.2", "the pawn becomes a queen"))
        return decisions + play(table, queen, False)
    table.touches = [sq for sq in (fr, to) if sq >= 0 and table.pos.board[sq]]
    if table.touches:
        decisions.append(table.note("7.5.1, 4.3", "touch-move binds the replacing move"))
    return decisions


def penalise(
    table: Table, rules: OverTheBoard, side: Side, article: str, what: str
) -> list[Decision]:
    """The penalty for a completed illegal move (F23 7.5.5; S10.3; USCF 11D) under the board's
    ``rules``: counted against ``side``; the losing one ends the game (drawn if the opponent
    cannot checkmate, F23), otherwise the opponent gets time."""
    table.illegal_moves[side] += 1
    count = table.illegal_moves[side]
    name = side.name.lower()
    decisions = [table.note(article, f"{what} by {name} (number {count})")]
    if rules.illegal_moves_to_lose is not None and count >= rules.illegal_moves_to_lose:
        winner = side.opponent
        cannot = (
            table.cannot_win(winner) if rules.illegal_loss_drawn_if_opponent_cannot_mate
            else False
        )
        decisions.append(lose_unless_cannot_mate(table, side, cannot, Termination.ILLEGAL_MOVES,
                                                 f"{name} loses by illegal move {count}",
                                                 f"{name}'s illegal move {count}, but "
                                                 f"{_name(winner)} cannot checkmate"))
        return decisions
    penalty = rules.illegal_move_penalty_ms
    if penalty and table.clock is not None:
        table.add_time(side.opponent, penalty)
        decisions.append(table.note("7.5.5", f"{penalty // 1000} s added to "
                                             f"{side.opponent.name.lower()}'s clock"))
    return decisions


def on_moved_with_two_hands(table: Table, event: MovedWithTwoHands) -> list[Decision]:
    """A legal move made with two hands and completed (F23 7.5.4): the move stands and is
    penalised as an illegal move (7.5.5). A move that ends the game needs no press (6.2.1.1)
    and is not penalised; 5.1.1 asks only for Art. 3 and 4.2-4.7, not 4.1."""
    rules = board_rules(table, "two-handed moves")
    if not rules.two_hands_as_illegal_move:
        raise ArbiterError(f"a two-handed move is not penalised as an illegal move under the "
                           f"{table.profile.name} profile (S4.1): record the move, the arbiter "
                           "may warn")
    decisions = on_moved(table, Moved(event.at_ms, event.side, event.uci))
    if table.outcome is not None:
        return decisions
    return decisions + penalise(table, rules, event.side, "7.5.4",
                                 f"two-handed move {event.uci}")


def _queened(table: Table, rules: OverTheBoard, text: str, fr: int, to: int) -> Move | None:
    """F23 7.5.2: the queen promotion an unpromoted pawn move to the last rank stands for."""
    if (
        not rules.unpromoted_pawn_becomes_queen
        or fr < 0
        or len(text) != 4
        or table.pos.board[fr] & 7 != PAWN
        or not BACK_RANKS[table.pos.turn ^ 1] >> to & 1
    ):
        return None
    move = table.find_move(text + "q")
    return move if move is not None and (move >> 12) & 7 == QUEEN else None


def board_rules(table: Table, what: str) -> OverTheBoard:
    """The over-the-board rules in force; ``ArbiterError`` under digital input, where
    ``what`` cannot happen."""
    rules = table.profile.input_mode
    if not isinstance(rules, OverTheBoard):
        raise ArbiterError(f"{what} are recorded only in over-the-board input, not under "
                           f"the {table.profile.name} profile")
    return rules


def _name(side: Side) -> str:
    return side.name.lower()

