"""What a game starts from: rules, time control, position and scoresheet tags."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from chessarbiter.clock.controls import BonusMode, Period, TimeControl
from chessarbiter.clock.errors import TimeControlError
from chessarbiter.core.fen import parse_fen
from chessarbiter.core.position import STARTING_FEN
from chessarbiter.laws.profiles import FIDE_2023, RuleProfile, require_playable_under


@dataclass(frozen=True)
class GameSetup:
    """A game's fixed data: the rule profile, the time control (``None``: no clock), the start
    position (FEN, Chess960 or not) and the scoresheet's tags (Event, White, Black, ...).
    A FEN that cannot be read raises the core's ``FenError`` (a ``ValueError``), a control
    the profile does not play (correspondence under an over-the-board profile) a
    ``ValueError``."""

    profile: RuleProfile = FIDE_2023
    control: TimeControl | None = None
    fen: str = STARTING_FEN
    chess960: bool = False
    tags: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        require_playable_under(self.profile, self.control)
        parse_fen(self.fen, chess960=self.chess960)
        for key, value in self.tags.items():
            if not isinstance(key, str) or not key.isidentifier() or not isinstance(value, str):
                raise ValueError(f"scoresheet tag {key!r}={value!r}: expected a name and a text")

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values."""
        control = None
        if self.control is not None:
            control = [
                {"time_ms": p.time_ms, "moves": p.moves, "bonus_ms": p.bonus_ms,
                 "mode": p.mode.value}
                for p in self.control.periods
            ]
        return {
            "profile": self.profile.to_dict(),
            "control": control,
            "fen": self.fen,
            "chess960": self.chess960,
            "tags": dict(self.tags),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameSetup:
        """The setup written by :meth:`to_dict`; ``ValueError`` naming what is wrong."""
        missing = [k for k in ("profile", "control", "fen", "chess960", "tags") if k not in data]
        if missing:
            raise ValueError(f"game setup: missing fields {missing}")
        profile = data["profile"]
        if not isinstance(profile, dict):
            raise ValueError("game setup: 'profile' must be an object")
        control = data["control"]
        if control is not None and not isinstance(control, list):
            raise ValueError("game setup: 'control' must be a list of periods or null")
        if not isinstance(data["fen"], str) or not isinstance(data["chess960"], bool):
            raise ValueError("game setup: 'fen' must be a text and 'chess960' true or false")
        if not isinstance(data["tags"], dict):
            raise ValueError("game setup: 'tags' must be an object")
        return cls(
            RuleProfile.from_dict(profile),
            None if control is None else _control(control),
            data["fen"],
            data["chess960"],
            dict(data["tags"]),
        )


def _control(periods: list[Any]) -> TimeControl:
    out = []
    for index, period in enumerate(periods):
        try:
            out.append(
                Period(
                    _int(period["time_ms"]),
                    None if period["moves"] is None else _int(period["moves"]),
                    _int(period["bonus_ms"]),
                    BonusMode(period["mode"]),
                )
            )
        except (KeyError, TypeError, ValueError, TimeControlError) as exc:
            raise ValueError(f"game setup: time control period {index + 1}: {exc!r}") from None
    return TimeControl(tuple(out))


def _int(value: Any) -> int:
    if type(value) is not int:
        raise ValueError(f"{value!r} is not an integer")
    return value
