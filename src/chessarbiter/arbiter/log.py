"""The game log as JSON lines: a header line (format version, the dead-position analysis'
version, the setup and the analysis of the set-up position), then one event per line. Reading
a log replays it through the arbiter, so a game read back is identical: the analyses the log
records are read, not run again, whatever the version of the analysis reading it. A log
without the analysis' version (written before analyses were recorded) replays as it was
played, the analyses running again."""

from __future__ import annotations

import json
import re
from dataclasses import MISSING, fields
from enum import Enum
from typing import Any, Final

from chessarbiter.arbiter.errors import ArbiterError, LogFormatError
from chessarbiter.arbiter.events import (
    EVENT_TYPES,
    Analysis,
    ClaimKind,
    Event,
    Question,
    Ruling,
)
from chessarbiter.arbiter.game import Game
from chessarbiter.arbiter.oracles import DeadCheck, MateOracle, dead_position_check, mate_verdict
from chessarbiter.arbiter.setup import GameSetup
from chessarbiter.clock.records import Side
from chessarbiter.laws.deadpos.verdict import SOLVER_VERSION, Winnability
from chessarbiter.laws.endings import Result

LOG_VERSION: Final = 1
_KINDS: Final = {cls.kind: cls for cls in EVENT_TYPES}
_ENUMS: Final[dict[str, type[Enum]]] = {"claim": ClaimKind, "ruling": Ruling, "result": Result}
_INTS: Final = frozenset({"at_ms", "ms", "white_ms", "black_ms", "absent_ms"})
_TEXTS: Final = frozenset({"uci", "square", "reason"})
MAX_INT_DIGITS: Final = 30
"""The longest integer a log may hold (times are milliseconds: 18 digits span 30 million
years)."""
_KEY_BEFORE_INT: Final = re.compile(
    rf'"((?:[^"\\]|\\.)*)"\s*:\s*(?:-?[0-9]{{{MAX_INT_DIGITS + 1},}}|NaN|-?Infinity)'
)
"""The key before a value :func:`_json` refuses, to name the field."""


def event_to_dict(event: Event) -> dict[str, Any]:
    """An event as plain JSON values: ``kind`` first, sides as ``"white"``/``"black"``, an
    analysis as an object (left out when there is none)."""
    out: dict[str, Any] = {"kind": event.kind}
    for f in fields(event):
        value = getattr(event, f.name)
        if isinstance(value, Analysis):
            value = _analysis_to_dict(value)
        elif value is None and f.name == "analysis":
            continue
        elif isinstance(value, Side):
            value = value.name.lower()
        elif isinstance(value, Enum):
            value = value.value
        out[f.name] = value
    return out


def event_from_dict(data: Any) -> Event:
    """The event :func:`event_to_dict` wrote; ``LogFormatError`` naming the bad field."""
    if not isinstance(data, dict):
        raise LogFormatError(f"an event must be a JSON object, not {data!r}")
    kind = data.get("kind")
    cls = _KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None or not isinstance(kind, str):
        raise LogFormatError(f"unknown event kind {kind!r}: expected one of {sorted(_KINDS)}")
    names = {f.name for f in fields(cls)}
    unknown = sorted(set(data) - names - {"kind"})
    if unknown:
        raise LogFormatError(f"{kind}: unknown fields {unknown}")
    values = {}
    for f in fields(cls):
        if f.name not in data:
            if f.default is MISSING:
                raise LogFormatError(f"{kind}: the field {f.name!r} is missing")
            continue
        values[f.name] = _field(kind, f.name, data[f.name])
    return cls(**values)


def _field(kind: str, name: str, value: Any) -> Any:
    """One field's value, checked and converted."""
    try:
        if name == "side":
            return Side[value.upper()] if value in ("white", "black") else _bad()
        if name in _ENUMS:
            return _ENUMS[name](value)
        if name in _INTS:
            return value if type(value) is int else _bad()
        if name in _TEXTS or (name == "intended" and value is not None):
            return value if isinstance(value, str) else _bad()
        if name in ("offers_draw", "can_mate", "draw"):
            return value if isinstance(value, bool) else _bad()
        if name == "analysis":
            return _analysis(value)
        return value
    except (ValueError, AttributeError, TypeError):
        raise LogFormatError(f"{kind}: {name}={value!r} is not a valid value") from None


def _bad() -> Any:
    raise ValueError


def _analysis_to_dict(analysis: Analysis) -> dict[str, str]:
    return {"question": analysis.question.value, "outcome": analysis.outcome.value,
            "reason": analysis.reason}


def _analysis(value: Any) -> Analysis:
    """An analysis as :func:`_analysis_to_dict` wrote it."""
    if not isinstance(value, dict) or set(value) != {"question", "outcome", "reason"}:
        raise ValueError
    if not isinstance(value["reason"], str):
        raise ValueError
    return Analysis(Question(value["question"]), Winnability(value["outcome"]), value["reason"])


def to_jsonl(game: Game) -> str:
    """The game's log as JSON lines."""
    start = game.start_analysis
    header = {
        "version": LOG_VERSION,
        "solver": SOLVER_VERSION,
        "setup": game.setup.to_dict(),
        "start": None if start is None else _analysis_to_dict(start),
    }
    lines = [json.dumps(header)] + [json.dumps(event_to_dict(e)) for e in game.log]
    return "\n".join(lines) + "\n"


def from_jsonl(
    text: str,
    *,
    mate_oracle: MateOracle = mate_verdict,
    dead_check: DeadCheck = dead_position_check,
) -> Game:
    """Rebuild a game from :func:`to_jsonl`'s text by replaying it; ``LogFormatError`` (or the
    :class:`ArbiterError` of a rejected event) names the line. The oracles only answer what
    the log does not record (all of it in a log without ``solver`` in its header)."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise LogFormatError("empty game log: expected a header line")
    header = _json(*lines[0])
    if not isinstance(header, dict) or header.get("version") != LOG_VERSION:
        raise LogFormatError(f"line {lines[0][0]}: expected a header with version {LOG_VERSION}")
    if not isinstance(header.get("setup"), dict):
        found = json.dumps(header.get("setup"))
        raise LogFormatError(f"line {lines[0][0]}: setup: expected an object (the game setup), "
                             f"found {found[:40]}{'...' if len(found) > 40 else ''}")
    recorded = "solver" in header
    try:
        setup = GameSetup.from_dict(header["setup"])
        if recorded and not isinstance(header["solver"], str):
            raise ValueError(f"solver={header['solver']!r} is not a version text")
        start = header.get("start")
        start = None if start is None else _analysis(start)
    except ValueError as exc:
        raise LogFormatError(f"line {lines[0][0]}: {exc or 'start: not an analysis'}") from None
    game = Game.replay(setup, (), mate_oracle=mate_oracle, dead_check=dead_check, start=start,
                       recorded=recorded)
    for number, line in lines[1:]:
        data = _json(number, line)
        try:
            event = event_from_dict(data)
        except LogFormatError as exc:
            raise LogFormatError(f"line {number}: {exc}") from None
        try:
            game.replay_event(event, recorded=recorded)
        except ArbiterError as exc:
            raise ArbiterError(f"line {number}: {exc}") from exc
    return game


class _NotJson(ValueError):
    """What the JSON reader's hooks raise: a value a log never holds."""


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _NotJson(f"an integer of {len(text.lstrip('-'))} digits (at most "
                       f"{MAX_INT_DIGITS})")
    return int(text)


def _json_constant(name: str) -> Any:
    raise _NotJson(f"{name} is no JSON number")


def _json(number: int, line: str) -> Any:
    """One line's JSON value; ``LogFormatError`` naming the line (and the field of an
    integer too long to read: Python refuses those of over 4,300 digits)."""
    try:
        return json.loads(line, parse_int=_json_int, parse_constant=_json_constant)
    except json.JSONDecodeError as exc:
        raise LogFormatError(f"line {number}: not JSON ({exc.msg})") from None
    except _NotJson as exc:
        key = _KEY_BEFORE_INT.search(line)
        where = f"{key[1]}: " if key else ""
        raise LogFormatError(f"line {number}: {where}{exc}") from None
    except RecursionError:
        raise LogFormatError(f"line {number}: not JSON (nested too deeply)") from None
