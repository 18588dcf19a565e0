"""Offers, claims and resignation (Laws Art. 5.1.2, 5.2.3, 9.1-9.5, 10.2 / Guidelines III).

Each handler validates against the :class:`Table` first, raising :class:`ArbiterError` before
changing anything, then applies the event and returns its decisions.
"""

from __future__ import annotations

from chessarbiter.arbiter import timing
from chessarbiter.arbiter.decisions import Decision
from chessarbiter.arbiter.errors import ArbiterError
from chessarbiter.arbiter.events import (
    ClaimKind,
    DrawClaimed,
    DrawOffered,
    OfferAccepted,
    OfferDeclined,
    Resigned,
    Ruling,
    SuddenDeathClaimed,
    SuddenDeathRuled,
)
from chessarbiter.arbiter.mating import lose_unless_cannot_mate
from chessarbiter.arbiter.moves import check_offer_allowed, persistent_offers
from chessarbiter.arbiter.table import Table
from chessarbiter.clock.records import Side
from chessarbiter.core.moves import Move, parse_uci_parts
from chessarbiter.laws.endings import Result, Termination
from chessarbiter.laws.profiles import Lapse, OverTheBoard
from chessarbiter.laws.repetition import fifty_move_claim_correct, threefold_claim_correct

SUDDEN_DEATH_CLAIM_BELOW_MS = 2 * 60_000
"""S10.2, F23 III.5, USCF 14H: a claim needs less than two minutes on the claimant's clock."""


def on_offered(table: Table, event: DrawOffered) -> list[Decision]:
    """A draw offer at any time (Art. 9.1.2.1: valid, though the proper time is with a move)."""
    check_offer_allowed(table, event.side)
    side = event.side
    table.offer = side
    table.offers[side] += 1
    decisions = [table.note("9.1.2.1", f"{_name(side)} offers a draw")]
    return decisions + persistent_offers(table, side)


def on_accepted(table: Table, event: OfferAccepted) -> list[Decision]:
    """Agreement ends the game at once (Art. 5.2.3; F23: once both players have moved)."""
    _require_offer_to(table, event.side, "accept")
    least = table.profile.agreement_min_moves
    if min(table.moves_made) < least:
        raise ArbiterError(f"no agreement before both players have made {least} move(s) "
                           "(Art. 5.2.3)")
    return [table.finish(Result.DRAW, Termination.AGREEMENT,
                         f"{_name(event.side)} accepts the draw offer")]


def on_declined(table: Table, event: OfferDeclined) -> list[Decision]:
    """The offer is rejected orally (Art. 9.1.2.1)."""
    _require_offer_to(table, event.side, "decline")
    table.offer = None
    return [table.note("9.1.2.1", f"{_name(event.side)} declines the draw offer")]


def _require_offer_to(table: Table, side: Side, what: str) -> None:
    if table.offer is not side.opponent:
        raise ArbiterError(f"{_name(side)} cannot {what}: no draw offer by "
                           f"{_name(side.opponent)} is pending")


def on_claimed(table: Table, event: DrawClaimed) -> list[Decision]:
    """A threefold (Art. 9.2) or 50-move (9.3) claim; correct: drawn at once; incorrect: the
    penalty (S9.5b, F23 9.5.3, A.3), the intended move must be played, and under F23 the claim
    stands as a draw offer (9.1.2.3)."""
    side = event.side
    table.require_turn(side, "claim a draw (only the player having the move may)")
    profile = table.profile
    rules = profile.input_mode
    if table.touches and (
        isinstance(rules, OverTheBoard) and rules.claim_right_lost_by is Lapse.TOUCH
    ):
        raise ArbiterError(f"{_name(side)} has touched a piece: the right to claim on this "
                           "move is lost (F23 9.4)")
    intended = _intended(table, event.intended)
    what = "threefold repetition" if event.claim is ClaimKind.THREEFOLD else "the 50-move rule"
    on = f" with the intended move {event.intended}" if event.intended else ""
    if event.intended is not None and (intended is None or intended not in table.allowed_moves()):
        correct = False
    elif event.claim is ClaimKind.THREEFOLD:
        correct = threefold_claim_correct(table.pos, table.reps, intended)
    else:
        correct = fifty_move_claim_correct(table.pos, intended)
    if not correct and profile.incorrect_claims_rejected:
        raise ArbiterError(f"incorrect claim of {what}{on}: rejected")
    article = "9.2" if event.claim is ClaimKind.THREEFOLD else "9.3"
    if correct:
        termination = (
            Termination.THREEFOLD_REPETITION
            if event.claim is ClaimKind.THREEFOLD
            else Termination.FIFTY_MOVES
        )
        return [table.finish(Result.DRAW, termination, f"{_name(side)} claims {what}{on}")]
    decisions = [table.note(f"{article}, 9.5", f"{_name(side)}'s claim of {what}{on} is "
                                               "incorrect: the game continues")]
    decisions += _claim_penalty(table, side)
    if intended is not None and intended in table.allowed_moves():
        table.bound = intended
        decisions.append(table.note("9.5", f"{_name(side)} must play {event.intended}"))
    elif event.intended is not None:
        fr = parse_uci_parts(event.intended)[0]
        if table.pos.board[fr] and fr not in table.touches:
            table.touches.append(fr)
    if profile.claim_is_offer and table.offer is None:
        table.offer = side
        decisions.append(table.note("9.1.2.3", f"{_name(side)}'s claim stands as a draw offer"))
    return decisions


def _intended(table: Table, text: str | None) -> Move | None:
    """The intended move; an illegal one is refused by a digital interface."""
    if text is None:
        return None
    move = table.find_move(text)
    if move is None and not table.profile.over_the_board:
        raise ArbiterError(f"the intended move {text} is not legal")
    return move


def _claim_penalty(table: Table, side: Side) -> list[Decision]:
    """S9.5b: half the claimant's time (at most 3 min) off, 3 min to the opponent; F23 9.5.3:
    2 min (A.3: 1 min) to the opponent."""
    if table.clock is None:
        return []
    profile = table.profile
    decisions = []
    left = table.clock.remaining(side)
    deduction = min(left // 2, profile.claim_deduction_max_ms) if left > 0 else 0
    if deduction:
        table.add_time(side, -deduction)
        decisions.append(table.note("S9.5b", f"{deduction // 1000} s deducted from "
                                             f"{_name(side)}'s clock"))
    if profile.claim_penalty_ms:
        table.add_time(side.opponent, profile.claim_penalty_ms)
        decisions.append(table.note("9.5.3", f"{profile.claim_penalty_ms // 1000} s added to "
                                             f"{_name(side.opponent)}'s clock"))
    return decisions


def on_resigned(table: Table, event: Resigned) -> list[Decision]:
    """Resignation loses (Art. 5.1.2); under F23 it draws if the opponent cannot mate (the
    arbiter rules when the analysis cannot tell)."""
    side = event.side
    winner = side.opponent
    loss = f"{_name(side)} resigns"
    if not table.profile.resignation_drawn_if_opponent_cannot_mate:
        return [table.finish(Result.win_for(winner), Termination.RESIGNATION, loss)]
    cannot = table.cannot_mate(winner)
    return [lose_unless_cannot_mate(table, side, cannot, Termination.RESIGNATION, loss,
                                    f"{loss}, but {_name(winner)} cannot checkmate")]


def on_sudden_death_claimed(table: Table, event: SuddenDeathClaimed) -> list[Decision]:
    """Under two minutes in a period without increment or delay, the player having the move
    stops the clocks and claims a draw (S10.2, F23 Guidelines III.5, USCF 14H)."""
    side = event.side
    if not table.profile.sudden_death_claims:
        raise ArbiterError(f"no sudden-death draw claims under the {table.profile.name} profile")
    table.require_turn(side, "claim a sudden-death draw")
    clock = table.require_clock("claim a sudden-death draw")
    if not clock.in_sudden_death(side):
        raise ArbiterError(f"{_name(side)} is not in a sudden-death period without increment "
                           "or delay (S10.1)")
    left = clock.remaining(side)
    if not 0 < left < SUDDEN_DEATH_CLAIM_BELOW_MS:
        raise ArbiterError(f"{_name(side)} has {left} ms: the claim needs less than two "
                           "minutes, before the flag falls (S10.2)")
    if clock.running:
        clock.stop()
    table.sudden_death_claim = side
    return [table.note("III.5 (S10.2)", f"{_name(side)} claims a draw in the sudden-death "
                                        "finish: the arbiter rules")]


def on_sudden_death_ruled(table: Table, event: SuddenDeathRuled) -> list[Decision]:
    """The arbiter's ruling: draw; or postpone (the opponent may get two minutes, S10.2b,
    III.5.2) or reject (two minutes, III.5.3; S10.2a knows no rejection), the game
    continuing. After a postponed claim a fallen flag waits for the final ruling (S10.2c,
    III.5.2): draw, or reject: the flag counts."""
    pending = table.sudden_death_claim
    if pending is None:
        raise ArbiterError("no sudden-death claim awaits a ruling")
    ruling = event.ruling
    bonus = _sudden_death_bonus(table, event)
    if table.postponed and table.flagged():
        if ruling is Ruling.POSTPONE:
            raise ArbiterError("a flag has fallen after the postponed claim: the arbiter "
                               "declares the result now (III.5.2, S10.2c)")
        if ruling is Ruling.DRAW:
            return [table.finish(Result.DRAW, Termination.SUDDEN_DEATH_CLAIM,
                                 "the arbiter declares the postponed claim drawn after "
                                 f"{_name(pending)}'s flag fell")]
        table.sudden_death_claim = None
        return [table.note("III.5.2 (S10.2c)", "the arbiter does not draw: the flag counts"),
                *timing.flag_stands(table)]
    if ruling is Ruling.DRAW:
        return [table.finish(Result.DRAW, Termination.SUDDEN_DEATH_CLAIM,
                             f"the arbiter upholds {_name(pending)}'s claim")]
    if ruling is Ruling.REJECT and not table.profile.sudden_death_reject:
        raise ArbiterError("the arbiter declares the game drawn or postpones the decision; "
                           f"no rejection under the {table.profile.name} profile (S10.2a)")
    table.sudden_death_claim = None
    table.postponed = table.postponed or ruling is Ruling.POSTPONE
    decisions = [table.note("III.5 (S10.2)", f"the arbiter {ruling.value}s the claim")]
    if bonus:
        table.add_time(pending.opponent, bonus)
        decisions.append(table.note("III.5 (S10.2b)", f"{bonus // 1000} s added to "
                                                      f"{_name(pending.opponent)}'s clock"))
    table.restart_clock()
    return decisions


def _sudden_death_bonus(table: Table, event: SuddenDeathRuled) -> int:
    """The time for the claimant's opponent: the arbiter's choice on postponing (S10.2b,
    III.5.2: "may be awarded two extra minutes"), the profile's two minutes on rejecting
    (III.5.3)."""
    chosen = event.bonus_ms
    if chosen is None:
        return table.profile.sudden_death_bonus_ms
    if event.ruling is not Ruling.POSTPONE:
        raise ArbiterError(f"sudden-death-ruling: bonus_ms is the arbiter's choice only when "
                           f"postponing, not with {event.ruling.value}")
    if type(chosen) is not int or chosen < 0:
        raise ArbiterError(f"sudden-death-ruling: bonus_ms={chosen!r} is not a time in ms "
                           "(an int >= 0)")
    return chosen


def _name(side: Side) -> str:
    return side.name.lower()
