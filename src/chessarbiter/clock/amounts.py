"""Exact decimal amounts of time in text <-> integer milliseconds, without floats."""

from __future__ import annotations

import re

from chessarbiter.clock.errors import TimeControlError, shown

SECOND = 1000
MINUTE = 60 * SECOND

MAX_DIGITS = 9
"""The most digits a whole number of a time control may have (before a decimal point)."""
_DECIMAL = re.compile(r"([0-9]+)(?:\.([0-9]+))?")


def read_amount(token: str, unit_ms: int, text: str, at: int, what: str,
                form: str = "digits") -> int:
    """Read ``token`` (digits, optional decimals) in units of ``unit_ms`` as milliseconds.

    ``text`` and ``at`` (the token's offset in it), ``what`` and ``form`` (how it may be
    written) only serve the error message.
    """
    match = _DECIMAL.fullmatch(token)
    if match is None and token[:1] == "-" and _DECIMAL.fullmatch(token[1:]):
        raise TimeControlError(
            f"{shown(text)} at {at}: {shown(token)}: negative {what}: a clock cannot count "
            "less than no time"
        )
    if match is None:
        raise TimeControlError(
            f"{shown(text)} at {at}: {shown(token)}: expected {what} ({form})"
        )
    whole = read_count(match[1], text, at, what)
    fraction = (match[2] or "").rstrip("0")
    scale: int = 10 ** len(fraction)
    # six or more significant decimals of a second or a minute are never whole milliseconds
    numerator = (whole * scale + int(fraction or "0")) * unit_ms if len(fraction) < 6 else 1
    if numerator % scale:
        raise TimeControlError(
            f"{shown(text)} at {at}: {shown(token)}: expected {what} in whole milliseconds"
        )
    return numerator // scale


def read_count(token: str, text: str, at: int, what: str) -> int:
    """A whole number written in ASCII digits, at most :data:`MAX_DIGITS` of them (leading
    zeros aside); ``TimeControlError`` otherwise."""
    if not (token.isascii() and token.isdigit()):
        raise TimeControlError(
            f"{shown(text)} at {at}: {shown(token)}: expected {what} (digits)"
        )
    digits = token.lstrip("0") or "0"
    if len(digits) > MAX_DIGITS:
        raise TimeControlError(
            f"{shown(text)} at {at}: {what} of {len(digits)} digits: expected at most {MAX_DIGITS}"
        )
    return int(digits)


def write_amount(ms: int, unit_ms: int) -> str:
    """Write ``ms`` in units of ``unit_ms`` as the shortest exact decimal."""
    whole, rest = divmod(ms, unit_ms)
    if not rest:
        return str(whole)
    digits = ""
    for _ in range(12):
        rest *= 10
        digit, rest = divmod(rest, unit_ms)
        digits += str(digit)
        if not rest:
            return f"{whole}.{digits}"
    raise TimeControlError(f"{ms} ms is no finite decimal of {unit_ms} ms units")
