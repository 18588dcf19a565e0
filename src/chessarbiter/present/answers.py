"""The session's typed results (:mod:`chessarbiter.session.results`) as lines for the
players: moves as the scoresheet writes them or in words, the arbiter's decisions made
readable, the result once the game is over, whose move it is and the clocks."""

from __future__ import annotations

from chessarbiter.arbiter.decisions import Decision
from chessarbiter.clock.controls import TimeControl
from chessarbiter.clock.records import Side
from chessarbiter.present.clocks import format_ms
from chessarbiter.present.controls import control_words
from chessarbiter.present.moves import move_words
from chessarbiter.present.wording import readable
from chessarbiter.session.commands import Verb
from chessarbiter.session.results import (
    Answer,
    EngineFailed,
    Played,
    Refused,
    Resumed,
    Ruling,
    Situation,
)


def played_words(played: Played, *, spoken: bool) -> str:
    """A move played: ``2. Nf3``, ``2. Nf3 (=)`` with a draw offer, or in words."""
    words = move_words(played.before, played.move, spoken=spoken)
    if played.offer_draw:
        words += ", offers a draw" if spoken else " (=)"
    return words


def _over(after: Situation, *, spoken: bool) -> list[str]:
    if after.outcome is None:
        return []
    return [readable(f"game over: {after.outcome}", after.position, spoken=spoken)]


def _states_the_outcome(decision: Decision, after: Situation) -> bool:
    """Whether ``decision`` is the game's end that the "game over" line says (said once)."""
    outcome = after.outcome
    return (outcome is not None and decision.article == outcome.termination.article
            and decision.text.endswith(outcome.reason))


def answer_lines(answer: Answer, *, spoken: bool = False) -> list[str]:
    """What to tell the players (``spoken``: in words for a screen reader)."""
    after = answer.after
    if isinstance(answer, Refused):
        return [readable(answer.reason, after.position, spoken=spoken)]
    if isinstance(answer, Resumed):
        if answer.last is None:
            where = "before the first move"
        else:
            where = "after " + move_words(answer.last.before, answer.last.move, spoken=spoken)
        return [f"game resumed {where}; {status_text(after, spoken=spoken)}; "
                f"{clock_text(after.clocks)}"]
    if isinstance(answer, EngineFailed):
        if answer.move is not None:
            said = readable(f"{answer.move}: {answer.reason}", after.position, spoken=spoken)
            first = f"{answer.name} played {said}"
        else:
            first = f"{answer.name} failed: {answer.failure.kind}: {answer.failure.detail}"
        return [first, *_over(after, spoken=spoken)]
    return _ruling_lines(answer, spoken=spoken)


def _ruling_lines(ruling: Ruling, *, spoken: bool) -> list[str]:
    after = ruling.after
    lines = [readable(f"{d}", after.position, spoken=spoken) for d in ruling.decisions
             if not _states_the_outcome(d, after)]
    lines += _over(after, spoken=spoken)
    if ruling.played is not None:
        return [played_words(ruling.played, spoken=spoken), *lines]
    if ruling.action is Verb.OFFER:
        return ["draw offered", *lines]
    if ruling.action is Verb.ACCEPT or ruling.action is Verb.DECLINE:
        return lines or [f"draw offer {ruling.action}d"]
    if ruling.action is Verb.CLAIM:
        return lines or ["claim recorded"]
    return lines


def status_text(now: Situation, *, spoken: bool = False) -> str:
    """Whose move it is, a pending offer, or the result."""
    if now.outcome is not None:
        return readable(f"game over: {now.outcome}", now.position, spoken=spoken)
    text = f"{now.to_move.name.lower()} to move"
    if now.pending_offer is not None:
        text += f"; {now.pending_offer.name.lower()} offers a draw"
    return text


def clock_text(clocks: tuple[int, int] | None) -> str:
    """Both clocks, in words a screen reader speaks well."""
    if clocks is None:
        return "no clock in this game"
    white, black = (format_ms(ms) for ms in clocks)
    return f"white {white}, black {black}"


def introduction(people: list[Side], engines: dict[Side, str],
                 control: TimeControl | None) -> str:
    """Who plays which side (``people`` at the keyboard, ``engines`` by name) and the time
    control, in one sentence."""
    words = control_words(control)
    if len(people) == 2:
        return f"two people play, white and black, at this keyboard; {words}"
    if len(people) == 1:
        side = people[0]
        return f"you play {side.name.lower()} against {engines[side.opponent]}; {words}"
    return f"{engines[Side.WHITE]} plays white against {engines[Side.BLACK]}; {words}"
