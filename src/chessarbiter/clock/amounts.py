"""Exact decimal amounts of time in text <-> integer milliseconds, without floats."""

from __future__ import annotations

import re

from chessarbiter.clock.errors import TimeControlError

SECOND = 1000
MINUTE = 60 * SECOND

_DECIMAL = re.compile(r"(\d+)(?:\.(\d+))?")


def read_amount(token: str, unit_ms: int, text: str, at: int, what: str) -> int:
    """Read ``token`` (digits, optional decimals) in units of ``unit_ms`` as milliseconds.

    ``text`` and ``at`` (the token's offset in it) and ``what`` only serve the error message.
    """
    match = _DECIMAL.fullmatch(token)
    if match is None:
        raise TimeControlError(f"{text!r} at {at}: {token!r}: expected {what} (digits)")
    whole, fraction = match[1], match[2] or ""
    scale: int = 10 ** len(fraction)
    numerator = (int(whole) * scale + int(fraction or "0")) * unit_ms
    if numerator % scale:
        raise TimeControlError(
            f"{text!r} at {at}: {token!r}: expected {what} in whole milliseconds"
        )
    return numerator // scale


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
