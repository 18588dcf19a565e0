"""What a challenge or a seek asks for, read from its form or JSON fields (lichess' names,
plus ``timeControl`` in any written form and ``profile``); ``ApiError`` 400 naming the
field otherwise."""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from chessarbiter.arbiter.game import Game
from chessarbiter.clock.controls import BonusMode, Period, TimeControl
from chessarbiter.clock.correspondence import (
    DAYS_PER_TURN,
    correspondence,
    looks_like_correspondence,
    parse_correspondence,
)
from chessarbiter.clock.errors import TimeControlError
from chessarbiter.clock.parse import parse_control, require_playable
from chessarbiter.core.position import STARTING_FEN
from chessarbiter.laws.profiles import RuleProfile, profile_for, require_playable_under
from chessarbiter.server.errors import ApiError

DEFAULT_PROFILE: Final = "online"
"""The rules of a game on the server unless the request names others."""
COLOURS: Final = ("white", "black", "random")
VARIANTS: Final = ("standard", "chess960", "fromPosition")
MAX_LIMIT_S: Final = 3 * 60 * 60
MAX_INCREMENT_S: Final = 180
MIN_LIMIT_S: Final = 15
"""The first period's time at least (lichess' shortest clock, 1/4+0): less is no game
(``0.01+0``: 0.6 s a side)."""
EMPTY_CONTROL: Final = "write one (e.g. 5+3), or - for a game without clocks"


@dataclass(frozen=True)
class GameRequest:
    """A game asked for: the clock (``None``: none), the rules, the start position, the
    colour the asker wants and whether it is rated (recorded only: the server keeps no
    ratings)."""

    control: TimeControl | None
    profile: RuleProfile
    fen: str = STARTING_FEN
    chess960: bool = False
    color: str = "random"
    rated: bool = False

    def game(self, white: str, black: str) -> Game:
        """The game, with the players' names on its scoresheet."""
        tags = {"Event": "chessarbiter server", "Date": time.strftime("%Y.%m.%d", time.gmtime()),
                "White": white, "Black": black}
        try:
            return Game(self.profile, self.control, fen=self.fen, chess960=self.chess960,
                        tags=tags)
        except ValueError as exc:  # FenError
            raise ApiError(400, f"fen: {exc}") from None

    def to_json(self) -> dict[str, Any]:
        """The request as JSON (kept in a cluster's Redis; :meth:`from_json` reads it)."""
        control = None if self.control is None else [
            [p.time_ms, p.moves, p.bonus_ms, p.mode.value] for p in self.control.periods]
        return {"control": control, "profile": self.profile.name, "fen": self.fen,
                "chess960": self.chess960, "color": self.color, "rated": self.rated}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameRequest:
        control = None if data["control"] is None else TimeControl(tuple(
            Period(time_ms, moves, bonus_ms, BonusMode(mode))
            for time_ms, moves, bonus_ms, mode in data["control"]))
        return cls(control, profile_for(control, data["profile"]), data["fen"],
                   data["chess960"], data["color"], data["rated"])

    def pairs_with(self, other: GameRequest) -> bool:
        """Whether two seeks ask for the same game with colours that fit."""
        return (self.control == other.control and self.profile == other.profile
                and self.fen == other.fen and self.chess960 == other.chess960
                and (self.color == "random" or other.color == "random"
                     or self.color != other.color))


def text_field(fields: Mapping[str, Any], name: str) -> str | None:
    """A field as text (``None`` when absent or null; numbers and booleans written as
    lichess' forms write them)."""
    value = fields.get(name)
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | str):
        return str(value)
    raise ApiError(400, f"{name}: expected a text or a number, not {type(value).__name__}")


def int_field(fields: Mapping[str, Any], name: str, low: int, high: int) -> int | None:
    text = text_field(fields, name)
    if text is None or text == "":
        return None
    try:
        value = int(text)
    except ValueError:
        raise ApiError(400, f"{name}: {text[:40]!r} is not a whole number") from None
    if not low <= value <= high:
        raise ApiError(400, f"{name}: {value} is not between {low} and {high}")
    return value


def bool_field(fields: Mapping[str, Any], name: str) -> bool:
    text = text_field(fields, name)
    if text is None or text == "":
        return False
    if text.lower() not in ("true", "false"):
        raise ApiError(400, f"{name}: expected true or false, not {text[:40]!r}")
    return text.lower() == "true"


def choice_field(fields: Mapping[str, Any], name: str, choices: tuple[str, ...],
                 default: str) -> str:
    text = text_field(fields, name)
    if text is None or text == "":
        return default
    if text not in choices:
        raise ApiError(400, f"{name}: {text[:40]!r} is not one of {list(choices)}")
    return text


def read_control(fields: Mapping[str, Any], *, minutes: bool = False) -> TimeControl | None:
    """The clock: lichess' ``days`` (correspondence, days per move), ``timeControl`` in any
    written form (``5+3``, ``G/60;d5``, ``40/90+30, 30+30``, ``untimed``, ``corr 3d``),
    else lichess' ``clock.limit`` and ``clock.increment`` in seconds (a seek's ``time`` in
    minutes and ``increment`` in seconds with ``minutes``);
    none of them: no clock."""
    days = read_days(fields)
    if days is not None:
        return days
    written = written_control(fields)
    if written and looks_like_correspondence(written):
        try:
            return parse_correspondence(written)
        except TimeControlError as exc:
            raise ApiError(400, f"timeControl: {exc}") from None
    if written:
        try:
            control = parse_control(written)
        except TimeControlError as exc:
            raise ApiError(400, f"timeControl: {exc}") from None
        return within_limits(control, written)
    if minutes:
        limit_min = int_field(fields, "time", 0, MAX_LIMIT_S // 60)
        limit = None if limit_min is None else limit_min * 60
        increment = int_field(fields, "increment", 0, MAX_INCREMENT_S)
    else:
        limit = int_field(fields, "clock.limit", 0, MAX_LIMIT_S)
        increment = int_field(fields, "clock.increment", 0, MAX_INCREMENT_S)
    if limit is None:
        if increment is not None:
            raise ApiError(400, "clock.limit: required with clock.increment")
        return None
    inc = increment or 0
    try:
        control = TimeControl((Period(limit * 1000, None, inc * 1000,
                                      BonusMode.INCREMENT if inc else BonusMode.NONE),))
        require_playable(control, f"{limit}+{inc}")
    except TimeControlError as exc:
        raise ApiError(400, f"clock.limit: {exc}") from None
    return within_limits(control, f"{limit}+{inc}", "clock.limit")


CLOCK_FIELDS: Final = ("clock.limit", "clock.increment", "time", "increment", "timeControl")


def read_days(fields: Mapping[str, Any]) -> TimeControl | None:
    """lichess' ``days``: a correspondence game of that many days per move, one of
    :data:`DAYS_PER_TURN`; ``None`` when absent or null (berserk sends null)."""
    text = text_field(fields, "days")
    if text is None or text == "":
        return None
    if not (text.isascii() and text.isdigit()) or int(text) not in DAYS_PER_TURN:
        raise ApiError(400, f"days: {text[:20]!r}: expected one of {list(DAYS_PER_TURN)} "
                            "(days per move)")
    clocked = [name for name in CLOCK_FIELDS if text_field(fields, name) not in (None, "")]
    if clocked:
        raise ApiError(400, f"days: a correspondence game has no clock: {clocked[0]} "
                            "cannot go with it")
    return correspondence(int(text))


def written_control(fields: Mapping[str, Any]) -> str | None:
    """``timeControl`` as written (``None``: absent); 400 when it is there but empty, never
    taken for a game without clocks."""
    written = text_field(fields, "timeControl")
    if written is not None and not written.strip():
        raise ApiError(400, f"timeControl: empty: {EMPTY_CONTROL}")
    return written


def within_limits(control: TimeControl | None, written: str,
                  field: str = "timeControl") -> TimeControl | None:
    """``control`` (written ``written``) if its first period's time is at least
    :data:`MIN_LIMIT_S` and each period's time at most :data:`MAX_LIMIT_S` and its bonus
    at most :data:`MAX_INCREMENT_S`, as the lichess fields are; ``ApiError`` 400 naming
    ``field`` otherwise."""
    if control is None:
        return None
    first = control.periods[0].time_ms
    if first < MIN_LIMIT_S * 1000:
        raise ApiError(400, f"{field}: {written[:40]!r}: the first period's time is at least "
                            f"{MIN_LIMIT_S} s, not {first / 1000:g} s")
    for period in control.periods:
        if period.time_ms > MAX_LIMIT_S * 1000 or period.bonus_ms > MAX_INCREMENT_S * 1000:
            raise ApiError(400, f"{field}: {written[:40]!r}: a period's time is at most "
                                f"{MAX_LIMIT_S // 60} minutes and its bonus at most "
                                f"{MAX_INCREMENT_S} s")
    return control


def read_request(fields: Mapping[str, Any], *, minutes: bool = False) -> GameRequest:
    """The game a challenge (or, with ``minutes``, a seek) asks for."""
    control = read_control(fields, minutes=minutes)
    name = text_field(fields, "profile") or DEFAULT_PROFILE
    try:
        profile = profile_for(control, name)
        require_playable_under(profile, control)
    except ValueError as exc:
        raise ApiError(400, f"profile: {exc}") from None
    variant = choice_field(fields, "variant", VARIANTS, "standard")
    fen = text_field(fields, "fen") or ""
    chess960 = variant == "chess960"
    if variant == "standard" and fen:
        variant = "fromPosition"
    if variant == "fromPosition" and not fen:
        raise ApiError(400, "fen: required for the variant fromPosition")
    if chess960 and not fen:
        fen = chess960_fen(secrets.randbelow(960))
    return GameRequest(control, profile, fen or STARTING_FEN, chess960,
                       choice_field(fields, "color", COLOURS, "random"),
                       bool_field(fields, "rated"))


def chess960_fen(number: int) -> str:
    """Chess960 start position ``number`` (0-959) in the Scharnagl numbering (518 is the
    standard position; FIDE Laws, Guidelines II): bishops on opposite colours, the king
    between the rooks, Black mirroring White."""
    rank: list[str | None] = [None] * 8
    n, light = divmod(number, 4)
    rank[2 * light + 1] = "B"
    n, dark = divmod(n, 4)
    rank[2 * dark] = "B"
    n, queen = divmod(n, 6)
    free = [i for i, piece in enumerate(rank) if piece is None]
    rank[free[queen]] = "Q"
    knights = [(a, b) for a in range(5) for b in range(a + 1, 5)][n]
    free = [i for i, piece in enumerate(rank) if piece is None]
    for k in knights:
        rank[free[k]] = "N"
    free = [i for i, piece in enumerate(rank) if piece is None]
    for square, piece in zip(free, "RKR", strict=True):
        rank[square] = piece
    white = "".join(p or "" for p in rank)
    return f"{white.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1"
