"""The options a UCI engine declares (its ``option name ... type ...`` lines) and the settings
asked of it checked against them before they are sent: an unknown name, a ``spin`` value
outside ``min``-``max``, a ``combo`` value none of its ``var``s or a ``check`` value other
than true/false is an :class:`OptionError`. UCI option names are not case sensitive.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

_KEYWORDS: Final = ("type", "default", "min", "max", "var")

QUIET_OPTIONS: Final = frozenset({
    "hash", "threads", "clear hash", "ponder", "move overhead", "debug log file",
    "uci_showwdl", "uci_chess960",
})
"""Settings that give the engine resources or change what it reports, not how it plays:
left out of the name an engine plays under (:func:`playing_name`). ``UCI_Chess960`` is the
variant, which the game itself says."""


class OptionError(ValueError):
    """A setting the engine does not declare, or a value its declaration does not allow."""


@dataclass(frozen=True, slots=True)
class DeclaredOption:
    """One ``option`` line: its name, type (``check``, ``spin``, ``combo``, ``button``,
    ``string``), default, bounds (``spin``) and choices (``combo``)."""

    name: str
    type: str
    default: str = ""
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()

    def value_for(self, value: str) -> str:
        """``value`` as the engine should receive it (``check``: lower case; ``combo``: its
        ``var`` as declared); :class:`OptionError` when the declaration does not allow it."""
        text = value.strip()
        if self.type == "check":
            if text.lower() not in ("true", "false"):
                raise OptionError(f"option {self.name!r} = {value!r}: expected true or false")
            return text.lower()
        if self.type == "spin":
            bounds = f"from {self.low} to {self.high}"
            try:
                number = int(text)
            except ValueError:
                raise OptionError(f"option {self.name!r} = {value!r}: expected a whole "
                                  f"number {bounds}") from None
            if (self.low is not None and number < self.low) or (
                    self.high is not None and number > self.high):
                raise OptionError(f"option {self.name!r} = {number}: outside its range, "
                                  f"{bounds}")
            return str(number)
        if self.type == "combo":
            for choice in self.choices:
                if choice.lower() == text.lower():
                    return choice
            raise OptionError(f"option {self.name!r} = {value!r}: expected one of "
                              + ", ".join(self.choices))
        return text


def read_option(line: str) -> DeclaredOption | None:
    """The option an ``option name N type T [default D] [min A] [max B] [var V]...`` line
    declares (names and values may hold spaces); ``None`` for any other or malformed line."""
    words = line.split()
    if words[:2] != ["option", "name"] or "type" not in words[3:]:
        return None
    at = words.index("type", 3)
    fields: dict[str, list[str]] = {}
    choices: list[str] = []
    key, value_words = "type", list[str]()
    for word in [*words[at + 1:], "var"]:  # a last "var" closes the last field
        if word in _KEYWORDS:
            if key == "var":
                choices.append(" ".join(value_words))
            else:
                fields.setdefault(key, value_words)
            key, value_words = word, []
        else:
            value_words.append(word)
    name, kind = " ".join(words[2:at]), " ".join(fields["type"])
    try:
        low = int(" ".join(fields["min"])) if "min" in fields else None
        high = int(" ".join(fields["max"])) if "max" in fields else None
    except ValueError:
        return None
    if not kind:
        return None
    return DeclaredOption(name, kind, " ".join(fields.get("default", [])), low, high,
                          tuple(c for c in choices if c))


def checked_settings(declared: Mapping[str, DeclaredOption],
                     settings: Mapping[str, str | int | bool]) -> dict[str, str]:
    """``settings`` by their declared names with the values to send; :class:`OptionError`
    naming the first setting the engine does not declare or allow. ``declared`` is keyed
    by lower-case name."""
    checked: dict[str, str] = {}
    for name, value in settings.items():
        option = declared.get(name.strip().lower())
        if option is None:
            close = difflib.get_close_matches(
                name, [o.name for o in declared.values()], n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise OptionError(f"no option {name!r}{hint}")
        text = str(value).lower() if isinstance(value, bool) else str(value)
        checked[option.name] = option.value_for(text)
    return checked


def playing_name(name: str, settings: Mapping[str, str]) -> str:
    """The name an engine plays under: its ``id name`` and the settings that change its play
    (all but :data:`QUIET_OPTIONS`), e.g. ``Stockfish 15.1 (Skill Level=3)``."""
    shown = [f"{key}={value}" for key, value in settings.items()
             if key.lower() not in QUIET_OPTIONS]
    return f"{name} ({', '.join(shown)})" if shown else name
