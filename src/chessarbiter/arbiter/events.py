"""What can happen in a game, as immutable events (the game's log).

Every event carries ``at_ms``, the reading of the game's monotonic time source when it happened
(the clock's time base, integer milliseconds); a log's times never go back. Players' events name
the ``side`` that acts. Moves are written in UCI (``e2e4``, ``e7e8q``, ``e1g1``; king-takes-rook
``e1h1`` for castling in Chess960). Each event class has a ``kind``, its name in the JSON log.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

from chessarbiter.clock.records import Side
from chessarbiter.core.position import STARTING_FEN
from chessarbiter.laws.deadpos.verdict import Winnability
from chessarbiter.laws.endings import Result


class ClaimKind(Enum):
    """The draws a player claims (Art. 9.2, 9.3)."""

    THREEFOLD = "threefold"
    FIFTY_MOVES = "fifty-moves"


class Ruling(Enum):
    """The arbiter's answer to a sudden-death draw claim (S10.2, F23 Guidelines III.5)."""

    DRAW = "draw"
    POSTPONE = "postpone"
    """Decide later (the opponent may get two minutes); the arbiter may still declare a draw."""
    REJECT = "reject"
    """Claim rejected; the opponent gets two minutes (F23 III.5)."""


class Question(Enum):
    """What the arbiter asked the dead-position analysis."""

    DEAD_POSITION = "dead-position"
    """After a move: is the position dead (Art. 5.2.2)? Recorded only when it is."""
    CAN_MATE = "can-mate"
    """On a resignation, a flag or a losing illegal move: can the opponent still checkmate
    (Art. 5.1.2, 6.9, 7.5.5)?"""


@dataclass(frozen=True, slots=True)
class Analysis:
    """The dead-position analysis' answer to ``question``, recorded by the arbiter with the
    event that asked for it (never given by a player), so that a replay reads it instead of
    asking again: ``UNWINNABLE`` for a dead position, or whether the opponent can mate."""

    question: Question
    outcome: Winnability
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Moved:
    """A move made and completed by the clock press (Art. 6.7; a game-ending move needs no
    press). ``offers_draw``: the player offered a draw after moving, before pressing (9.1)."""

    kind: ClassVar[str] = "move"
    at_ms: int
    side: Side
    uci: str
    offers_draw: bool = False
    analysis: Analysis | None = None


@dataclass(frozen=True, slots=True)
class DrawOffered:
    """A draw offer at a time other than with a move (still valid: Art. 9.1.2.1, S9.1)."""

    kind: ClassVar[str] = "offer"
    at_ms: int
    side: Side


@dataclass(frozen=True, slots=True)
class OfferAccepted:
    """The opponent of the offering player accepts: the game is drawn (Art. 5.2.3)."""

    kind: ClassVar[str] = "accept"
    at_ms: int
    side: Side


@dataclass(frozen=True, slots=True)
class OfferDeclined:
    """The opponent of the offering player rejects the offer orally (Art. 9.1.2.1)."""

    kind: ClassVar[str] = "decline"
    at_ms: int
    side: Side


@dataclass(frozen=True, slots=True)
class DrawClaimed:
    """A claim under Art. 9.2 or 9.3 by the player having the move, on the position on the
    board or on the ``intended`` move written but not yet played (9.2.1, 9.3.1)."""

    kind: ClassVar[str] = "claim"
    at_ms: int
    side: Side
    claim: ClaimKind
    intended: str | None = None


@dataclass(frozen=True, slots=True)
class Resigned:
    """The player resigns (Art. 5.1.2)."""

    kind: ClassVar[str] = "resign"
    at_ms: int
    side: Side
    analysis: Analysis | None = None


@dataclass(frozen=True, slots=True)
class FlagObserved:
    """The arbiter (or the server) sees a flag down (Art. 6.8)."""

    kind: ClassVar[str] = "flag"
    at_ms: int
    analysis: Analysis | None = None


@dataclass(frozen=True, slots=True)
class FlagClaimed:
    """``side`` claims that the opponent's flag has fallen (Art. 6.8)."""

    kind: ClassVar[str] = "flag-claim"
    at_ms: int
    side: Side
    analysis: Analysis | None = None


@dataclass(frozen=True, slots=True)
class Touched:
    """The player having the move deliberately touches the piece on ``square`` (Art. 4.3-4.4;
    over-the-board input)."""

    kind: ClassVar[str] = "touch"
    at_ms: int
    side: Side
    square: str


@dataclass(frozen=True, slots=True)
class IllegalMoveCompleted:
    """An illegal move completed by pressing the clock (Art. 7.5; over-the-board input). ``uci``
    is what was played (``0000``: the clock pressed without a move, F23 7.5.3)."""

    kind: ClassVar[str] = "illegal-move"
    at_ms: int
    side: Side
    uci: str
    analysis: Analysis | None = None


@dataclass(frozen=True, slots=True)
class SuddenDeathClaimed:
    """The player having the move, under two minutes in a period without increment, stops the
    clocks and claims a draw (S10.2, F23 Guidelines III.5, USCF 14H)."""

    kind: ClassVar[str] = "sudden-death-claim"
    at_ms: int
    side: Side


@dataclass(frozen=True, slots=True)
class SuddenDeathRuled:
    """The arbiter's decision on the pending sudden-death claim, or after a postponed claim on
    a fallen flag (S10.2c, F23 III.5.2: ``DRAW``, or ``REJECT``: the flag counts).
    ``bonus_ms``: the time the arbiter gives the opponent on postponing (S10.2b, III.5.2
    "may be awarded two extra minutes"); ``None``: the profile's two minutes."""

    kind: ClassVar[str] = "sudden-death-ruling"
    at_ms: int
    ruling: Ruling
    bonus_ms: int | None = None


@dataclass(frozen=True, slots=True)
class ClocksStopped:
    """The arbiter stops the clocks (Art. 6.12)."""

    kind: ClassVar[str] = "stop-clocks"
    at_ms: int


@dataclass(frozen=True, slots=True)
class ClocksStarted:
    """Black or the arbiter starts White's clock (Art. 6.5), or the arbiter restarts the
    clocks after a stop (6.12)."""

    kind: ClassVar[str] = "start-clocks"
    at_ms: int


@dataclass(frozen=True, slots=True)
class TimeAdded:
    """The arbiter adds (``ms`` > 0) or removes (``ms`` < 0) time (Art. 13.4b-c, 13.5)."""

    kind: ClassVar[str] = "add-time"
    at_ms: int
    side: Side
    ms: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class ClocksSet:
    """The arbiter sets both displays after an irregularity (Art. 6.13)."""

    kind: ClassVar[str] = "set-clocks"
    at_ms: int
    white_ms: int
    black_ms: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Warned:
    """The arbiter warns a player (Art. 13.4a), e.g. for persistent draw offers (12.5)."""

    kind: ClassVar[str] = "warning"
    at_ms: int
    side: Side
    reason: str


@dataclass(frozen=True, slots=True)
class ResultDeclared:
    """The arbiter declares the result (e.g. after a postponed sudden-death claim, S10.2c, or
    a fivefold repetition under USCF 14K); it replaces any result the game had."""

    kind: ClassVar[str] = "declare-result"
    at_ms: int
    result: Result
    reason: str


@dataclass(frozen=True, slots=True)
class Forfeited:
    """The arbiter declares the game lost by ``side`` (S12.7, 13.4d; F23 11.7, 12.9)."""

    kind: ClassVar[str] = "forfeit"
    at_ms: int
    side: Side
    reason: str


@dataclass(frozen=True, slots=True)
class BothLost:
    """The arbiter declares the game lost by both players, 0-0 (S12.8, F23 11.8)."""

    kind: ClassVar[str] = "both-lose"
    at_ms: int
    reason: str


@dataclass(frozen=True, slots=True)
class MovedWithTwoHands:
    """A legal move made with two hands and completed by the clock press (F23 7.5.4: penalised
    as an illegal move, 7.5.5; the move stands). Over-the-board input."""

    kind: ClassVar[str] = "two-hands-move"
    at_ms: int
    side: Side
    uci: str
    analysis: Analysis | None = None


@dataclass(frozen=True, slots=True)
class IllegalMoveUnnoticed:
    """An illegal move completed and not noticed at once: it stands on the board until the
    arbiter finds it (F23 7.5.1, S7.4) or the opponent claims it (A.5.2). Over-the-board
    input; a move leaving an illegal position (3.10.3) is not accepted."""

    kind: ClassVar[str] = "illegal-move-unnoticed"
    at_ms: int
    side: Side
    uci: str


@dataclass(frozen=True, slots=True)
class IllegalMoveClaimed:
    """``side`` claims the opponent's last move, an unnoticed illegal move, before making
    his own next move (F23 A.5.2)."""

    kind: ClassVar[str] = "illegal-move-claim"
    at_ms: int
    side: Side
    analysis: Analysis | None = None


@dataclass(frozen=True, slots=True)
class IllegalMoveFound:
    """The arbiter finds that the move of ``ply`` (1 = the game's first move) was an
    unnoticed illegal move: the position before it is reinstated (F23 7.5.1, S7.4)."""

    kind: ClassVar[str] = "illegal-move-found"
    at_ms: int
    ply: int
    analysis: Analysis | None = None


@dataclass(frozen=True, slots=True)
class WrongInitialPosition:
    """The arbiter finds that the initial position was incorrect: a new game is played from
    ``fen``, the correct one (F23 7.2.1, S7.1a)."""

    kind: ClassVar[str] = "wrong-initial-position"
    at_ms: int
    fen: str = STARTING_FEN


@dataclass(frozen=True, slots=True)
class ColoursReversed:
    """The arbiter finds that the game began with colours reversed (F23 7.3, S7.2).
    ``new_game``: the arbiter's ruling where the profile leaves it to him (S7.2); ``None``:
    as the rule says."""

    kind: ClassVar[str] = "colours-reversed"
    at_ms: int
    new_game: bool | None = None


@dataclass(frozen=True, slots=True)
class ArbiterRuled:
    """The arbiter's ruling when the analysis could not tell whether the opponent of a player
    who resigned, whose flag fell or who completed a losing illegal move can still checkmate
    (Art. 5.1.2, 6.9, 7.5.5): ``can_mate`` decides between the loss and the draw."""

    kind: ClassVar[str] = "arbiter-ruling"
    at_ms: int
    can_mate: bool
    reason: str


@dataclass(frozen=True, slots=True)
class TakebackProposed:
    """A player proposes taking back moves (online practice, the profile's ``takebacks``):
    his own last move, or, with the move his, the opponent's last and his own before it."""

    kind: ClassVar[str] = "takeback-offer"
    at_ms: int
    side: Side


@dataclass(frozen=True, slots=True)
class TakebackAccepted:
    """The opponent of the proposer agrees: the moves are taken back."""

    kind: ClassVar[str] = "takeback-accept"
    at_ms: int
    side: Side


@dataclass(frozen=True, slots=True)
class TakebackDeclined:
    """The opponent of the proposer (or the proposer, withdrawing it) declines."""

    kind: ClassVar[str] = "takeback-decline"
    at_ms: int
    side: Side


@dataclass(frozen=True, slots=True)
class TimeGiven:
    """A player gives the opponent ``ms`` of his own accord (online practice, the profile's
    ``players_give_time``)."""

    kind: ClassVar[str] = "give-time"
    at_ms: int
    side: Side
    ms: int


@dataclass(frozen=True, slots=True)
class AbandonmentClaimed:
    """A player claims the game (``draw``: a draw) because the opponent has been gone for
    ``absent_ms``, as the server measured it (online practice, the profile's
    ``abandonment_ms``)."""

    kind: ClassVar[str] = "abandonment-claim"
    at_ms: int
    side: Side
    absent_ms: int
    draw: bool = False


Event = (
    Moved
    | DrawOffered
    | OfferAccepted
    | OfferDeclined
    | DrawClaimed
    | Resigned
    | FlagObserved
    | FlagClaimed
    | Touched
    | IllegalMoveCompleted
    | SuddenDeathClaimed
    | SuddenDeathRuled
    | ClocksStopped
    | ClocksStarted
    | TimeAdded
    | ClocksSet
    | Warned
    | ResultDeclared
    | Forfeited
    | BothLost
    | MovedWithTwoHands
    | IllegalMoveUnnoticed
    | IllegalMoveClaimed
    | IllegalMoveFound
    | WrongInitialPosition
    | ColoursReversed
    | ArbiterRuled
    | TakebackProposed
    | TakebackAccepted
    | TakebackDeclined
    | TimeGiven
    | AbandonmentClaimed
)

EVENT_TYPES: tuple[type[Event], ...] = (
    Moved,
    DrawOffered,
    OfferAccepted,
    OfferDeclined,
    DrawClaimed,
    Resigned,
    FlagObserved,
    FlagClaimed,
    Touched,
    IllegalMoveCompleted,
    SuddenDeathClaimed,
    SuddenDeathRuled,
    ClocksStopped,
    ClocksStarted,
    TimeAdded,
    ClocksSet,
    Warned,
    ResultDeclared,
    Forfeited,
    BothLost,
    MovedWithTwoHands,
    IllegalMoveUnnoticed,
    IllegalMoveClaimed,
    IllegalMoveFound,
    WrongInitialPosition,
    ColoursReversed,
    ArbiterRuled,
    TakebackProposed,
    TakebackAccepted,
    TakebackDeclined,
    TimeGiven,
    AbandonmentClaimed,
)
"""Every event class, in the order of the union above."""

ARBITER_EVENTS: frozenset[type[Event]] = frozenset(
    {SuddenDeathRuled, ClocksStopped, ClocksStarted, TimeAdded, ClocksSet, Warned,
     ResultDeclared, Forfeited, BothLost, IllegalMoveFound, WrongInitialPosition,
     ColoursReversed, ArbiterRuled}
)
"""The arbiter's actions; the others are the players' (and the flag observation)."""
