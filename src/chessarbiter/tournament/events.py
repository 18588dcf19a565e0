"""A tournament's events, the entries of its append-only log, and their JSON form.

Players are named in events by their registration number (1, 2, ... in the order they were
registered), which never changes; start (pairing) numbers are derived from the log.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import Enum
from fractions import Fraction
from typing import Any, ClassVar, Literal

from chessarbiter.clock import Side
from chessarbiter.tournament.records import Code, Scoring
from chessarbiter.tournament.tiebreaks import Unplayed


class TournamentError(ValueError):
    """An event the tournament refuses, or a log that cannot be read: names the field or the
    player and the reason."""


class System(Enum):
    """How the rounds are paired."""

    ROUND_ROBIN = "roundrobin"
    DOUBLE_ROUND_ROBIN = "double"
    SWISS = "swiss"


RESULTS: dict[str, tuple[Code, Code]] = {
    "1-0": (Code.WIN, Code.LOSS),
    "0-1": (Code.LOSS, Code.WIN),
    "1/2-1/2": (Code.DRAW, Code.DRAW),
    "+-": (Code.FORFEIT_WIN, Code.FORFEIT_LOSS),
    "-+": (Code.FORFEIT_LOSS, Code.FORFEIT_WIN),
    "--": (Code.FORFEIT_LOSS, Code.FORFEIT_LOSS),
}
"""A game's result as entered (``+-``: White wins by forfeit, ``--``: both forfeit) and the
codes of White's and Black's cells."""

REQUESTABLE: frozenset[Code] = frozenset({Code.HALF_BYE, Code.ZERO_BYE, Code.FULL_BYE})
"""The byes a player may request for a round (C.04.1, C.04.2)."""


@dataclass(frozen=True)
class Settings:
    """A tournament's settings, fixed when it is created."""

    name: str
    system: System
    rounds: int | None = None
    """Swiss rounds; a round robin's follow from the number of players."""
    scoring: Scoring = field(default_factory=Scoring)
    tiebreaks: tuple[str, ...] = ()
    """Tie-break names, most significant first (``chessarbiter.tournament.tiebreaks``)."""
    initial_side: Side = Side.WHITE
    """The colour of the top seed in round 1 (C.04.3)."""
    acceleration: Literal["baku"] | None = None
    """``"baku"`` for Baku acceleration (C.04.5.1)."""
    rules: Literal["2025", "2017"] = "2025"
    """The Dutch rules' edition: ``"2025"`` or ``"2017"``."""
    unplayed: Unplayed = Unplayed.FIDE_2024
    pairing: Literal["dutch", "burstein"] = "dutch"
    """A Swiss's pairing system: FIDE Dutch (C.04.3) or Burstein (C.04.4.2)."""


@dataclass(frozen=True)
class Event:
    """One entry of the log."""

    kind: ClassVar[str]


@dataclass(frozen=True)
class Created(Event):
    """The tournament is created with its settings (always the first event)."""

    kind: ClassVar[str] = "created"
    settings: Settings


@dataclass(frozen=True)
class Registered(Event):
    """A player is registered (a late entry once round 1 is paired)."""

    kind: ClassVar[str] = "registered"
    name: str
    rating: int = 0
    title: str = ""
    federation: str = ""
    fide_id: str = ""
    birth: str = ""
    sex: str = ""
    start: int | None = None
    """A start number the player keeps (a tournament imported from a TRF file); ``None``:
    derived from rating, title and name (C.04.2)."""


@dataclass(frozen=True)
class Withdrawn(Event):
    """The player is not paired from round ``round`` on."""

    kind: ClassVar[str] = "withdrawn"
    player: int
    round: int


@dataclass(frozen=True)
class ByeRequested(Event):
    """The player asked not to be paired in ``round`` and is given ``code`` (H, Z or F)."""

    kind: ClassVar[str] = "bye"
    player: int
    round: int
    code: Code


@dataclass(frozen=True)
class Paired(Event):
    """Round ``round`` is paired: (white, black) in board order and the pairing-allocated
    bye (registration numbers)."""

    kind: ClassVar[str] = "paired"
    round: int
    boards: tuple[tuple[int, int], ...]
    bye: int | None = None


@dataclass(frozen=True)
class ResultEntered(Event):
    """The result of the game White ``white`` plays in ``round``, entered or corrected
    (a later entry for the same game replaces an earlier one)."""

    kind: ClassVar[str] = "result"
    round: int
    white: int
    result: str


EVENTS: dict[str, type[Event]] = {cls.kind: cls for cls in (
    Created, Registered, Withdrawn, ByeRequested, Paired, ResultEntered)}


def _fraction(value: Fraction | None) -> str | None:
    return None if value is None else str(value)


def settings_to_dict(settings: Settings) -> dict[str, Any]:
    scoring = {f.name: _fraction(getattr(settings.scoring, f.name))
               for f in fields(settings.scoring)}
    return {"name": settings.name, "system": settings.system.value, "rounds": settings.rounds,
            "scoring": scoring, "tiebreaks": list(settings.tiebreaks),
            "initial_side": settings.initial_side.name.lower(),
            "acceleration": settings.acceleration, "rules": settings.rules,
            "unplayed": settings.unplayed.value, "pairing": settings.pairing}


def settings_from_dict(data: dict[str, Any]) -> Settings:
    values: dict[str, Any] = {name: None if value is None else Fraction(value)
                              for name, value in data["scoring"].items()}
    scoring = Scoring(**values)
    acceleration, rules = data["acceleration"], data["rules"]
    pairing = data.get("pairing", "dutch")  # logs written before Burstein have none
    if (acceleration not in (None, "baku") or rules not in ("2025", "2017")
            or pairing not in ("dutch", "burstein")):
        raise ValueError(f"acceleration {acceleration!r}, rules {rules!r} or pairing "
                         f"{pairing!r}: unknown")
    return Settings(str(data["name"]), System(data["system"]), data["rounds"], scoring,
                    tuple(data["tiebreaks"]), Side[data["initial_side"].upper()],
                    acceleration, rules, Unplayed(data["unplayed"]), pairing)


def event_to_dict(event: Event) -> dict[str, Any]:
    """The event as a JSON object (its kind is stored beside it)."""
    if isinstance(event, Created):
        return {"settings": settings_to_dict(event.settings)}
    data: dict[str, Any] = {f.name: getattr(event, f.name) for f in fields(event)}
    if isinstance(event, ByeRequested):
        data["code"] = event.code.value
    if isinstance(event, Paired):
        data["boards"] = [list(board) for board in event.boards]
    return data


def event_from_dict(kind: str, data: dict[str, Any]) -> Event:
    """The event of ``kind`` from its JSON object; ``TournamentError`` when it is not one."""
    cls = EVENTS.get(kind)
    if cls is None:
        raise TournamentError(f"event kind {kind!r}: unknown")
    try:
        if cls is Created:
            return Created(settings_from_dict(data["settings"]))
        values = dict(data)
        if cls is ByeRequested:
            values["code"] = Code(values["code"])
        if cls is Paired:
            values["boards"] = tuple((int(w), int(b)) for w, b in values["boards"])
        return cls(**values)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise TournamentError(f"{kind}: not a valid event ({exc})") from None
