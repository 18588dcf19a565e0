"""Clock readings for the players' display."""

from __future__ import annotations


def format_ms(ms: int) -> str:
    """A clock reading: ``h:mm:ss`` from an hour, ``m:ss`` below, tenths under 20 seconds;
    a fallen flag reads ``0:00``."""
    if ms <= 0:
        return "0:00"
    seconds, rest = divmod(ms, 1000)
    hours, seconds = divmod(seconds, 3600)
    minutes, seconds = divmod(seconds, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    if minutes == 0 and seconds < 20:
        return f"0:{seconds:02d}.{rest // 100}"
    return f"{minutes}:{seconds:02d}"
