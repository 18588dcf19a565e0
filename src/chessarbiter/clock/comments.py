"""The ``[%clk h:mm:ss]`` and ``[%emt h:mm:ss]`` PGN comment commands, as integer milliseconds.

``%clk`` is a clock reading after a move, ``%emt`` the time the move took (Art. 8.1 allows the
scoresheet to record clock times). Seconds may carry up to three decimals (milliseconds).
"""

from __future__ import annotations

import re

_TIME = re.compile(r"([0-9]{1,9}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,3}))?")
_COMMAND = re.compile(r"\[%(\w+)\s+([^\]]*?)\s*\]")


def parse_clock_time(text: str) -> int:
    """``h:mm:ss`` or ``h:mm:ss.fff`` (up to nine hour digits) -> milliseconds."""
    match = _TIME.fullmatch(text)
    if match is None:
        raise ValueError(f"{text[:40]!r}: expected h:mm:ss (at most 9 hour digits and 3 "
                         "decimals)")
    hours, minutes, seconds, fraction = match.groups()
    if int(minutes) > 59 or int(seconds) > 59:
        raise ValueError(f"{text!r}: expected minutes and seconds below 60")
    millis = int((fraction or "0").ljust(3, "0"))
    return ((int(hours) * 60 + int(minutes)) * 60 + int(seconds)) * 1000 + millis


def format_clock_time(ms: int, decimals: int | None = None) -> str:
    """Milliseconds -> ``h:mm:ss[.f]``; ``decimals`` digits (truncated, as clocks display) or,
    when ``None``, as many as the value needs."""
    if ms < 0:
        raise ValueError(f"{ms} ms: expected a time >= 0")
    if decimals is not None and not 0 <= decimals <= 3:
        raise ValueError(f"{decimals} decimals: expected 0 to 3")
    seconds, millis = divmod(ms, 1000)
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    text = f"{hours}:{minutes:02}:{seconds:02}"
    digits = f"{millis:03}"
    digits = digits.rstrip("0") if decimals is None else digits[:decimals]
    return f"{text}.{digits}" if digits else text


def find_command(comment: str, name: str) -> int | None:
    """The time of the first ``[%name h:mm:ss]`` command in a comment, or ``None``."""
    for match in _COMMAND.finditer(comment):
        if match.group(1) == name:
            return parse_clock_time(match.group(2))
    return None


def find_clk(comment: str) -> int | None:
    """The ``%clk`` reading of a comment in milliseconds, or ``None``."""
    return find_command(comment, "clk")


def find_emt(comment: str) -> int | None:
    """The ``%emt`` time of a comment in milliseconds, or ``None``."""
    return find_command(comment, "emt")


def format_clk(ms: int, decimals: int | None = None) -> str:
    """``[%clk h:mm:ss]`` for a clock reading."""
    return f"[%clk {format_clock_time(ms, decimals)}]"


def format_emt(ms: int, decimals: int | None = None) -> str:
    """``[%emt h:mm:ss]`` for the time a move took."""
    return f"[%emt {format_clock_time(ms, decimals)}]"


def strip_commands(comment: str) -> str:
    """The comment's text without its ``[%name arguments]`` commands, spaces collapsed."""
    return " ".join(_COMMAND.sub(" ", comment).split())
