"""The arbiter (Laws Art. 4-13): a game as an event log, every ending, offers, claims,
illegal moves, penalties and rule profiles.

Quick tour::

    from chessarbiter.arbiter import ClocksStarted, Game, Moved, to_jsonl, to_pgn
    from chessarbiter.clock import Side, parse_human
    from chessarbiter.laws.profiles import FIDE_2023

    game = Game(FIDE_2023, parse_human("90+30"), tags={"White": "A", "Black": "B"})
    game.apply(ClocksStarted(at_ms=0))
    decisions = game.apply(Moved(at_ms=5_000, side=Side.WHITE, uci="e2e4"))
    game.outcome, game.state(), to_jsonl(game), to_pgn(game)

Flags, resignations and illegal-move losses ask the full dead-position analysis whether the
opponent can still checkmate (when it cannot tell, the arbiter rules: ``ArbiterRuled``); the
set-up position and every move are checked for a dead position (see
:mod:`chessarbiter.arbiter.oracles`). Both can be replaced: ``Game(..., mate_oracle=...,
dead_check=...)``. Their answers are recorded in the log (``Analysis``) and read back, not
asked again, when a log is replayed.
"""

from chessarbiter.arbiter.decisions import Decision
from chessarbiter.arbiter.errors import ArbiterError, FlagFallenError, GameOverError, LogFormatError
from chessarbiter.arbiter.events import (
    ARBITER_EVENTS,
    EVENT_TYPES,
    Analysis,
    ArbiterRuled,
    BothLost,
    ClaimKind,
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
    Question,
    Resigned,
    ResultDeclared,
    Ruling,
    SuddenDeathClaimed,
    SuddenDeathRuled,
    TimeAdded,
    Touched,
    Warned,
    WrongInitialPosition,
)
from chessarbiter.arbiter.game import Game, GameState
from chessarbiter.arbiter.log import (
    LOG_VERSION,
    event_from_dict,
    event_to_dict,
    from_jsonl,
    to_jsonl,
)
from chessarbiter.arbiter.scoresheet import recorded_game, to_pgn
from chessarbiter.arbiter.setup import GameSetup
from chessarbiter.arbiter.table import MoveRecord

__all__ = [
    "ARBITER_EVENTS",
    "EVENT_TYPES",
    "LOG_VERSION",
    "Analysis",
    "ArbiterError",
    "ArbiterRuled",
    "BothLost",
    "ClaimKind",
    "ClocksSet",
    "ClocksStarted",
    "ClocksStopped",
    "ColoursReversed",
    "Decision",
    "DrawClaimed",
    "DrawOffered",
    "Event",
    "FlagClaimed",
    "FlagFallenError",
    "FlagObserved",
    "Forfeited",
    "Game",
    "GameOverError",
    "GameSetup",
    "GameState",
    "IllegalMoveClaimed",
    "IllegalMoveCompleted",
    "IllegalMoveFound",
    "IllegalMoveUnnoticed",
    "LogFormatError",
    "MoveRecord",
    "Moved",
    "MovedWithTwoHands",
    "OfferAccepted",
    "OfferDeclined",
    "Question",
    "Resigned",
    "ResultDeclared",
    "Ruling",
    "SuddenDeathClaimed",
    "SuddenDeathRuled",
    "TimeAdded",
    "Touched",
    "Warned",
    "WrongInitialPosition",
    "event_from_dict",
    "event_to_dict",
    "from_jsonl",
    "recorded_game",
    "to_jsonl",
    "to_pgn",
]
