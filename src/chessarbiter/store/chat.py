"""A game's chat: lines people wrote beside the game, kept with its record.

A chat line is not an event of the game: the Laws rule on none of it, so it is not in the
arbiter's log and never replayed by it. The store keeps a game's lines as a second
append-only stream of the same game (the table ``chat`` beside ``events``, its rows
referring to the game's), in the order they were written, each with the number of the
game's events when it was written: a replay of the game interleaves them where they fell."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable


@dataclass(frozen=True)
class ChatLine:
    """One line: its ``room`` (``player``, ``spectator``), its ``author`` (an account's
    name) and ``text``; ``events`` the game's events when it was written, ``at_ms`` when
    (wall ms)."""

    room: str
    author: str
    text: str
    events: int
    at_ms: int


@runtime_checkable
class ChatStore(Protocol):
    """A store that keeps games' chat lines (SQLite, PostgreSQL)."""

    def append_chat(self, game_id: str, line: ChatLine) -> None:
        """Record one line of the game's chat; on disk when it returns."""
        ...

    def chat(self, game_id: str) -> list[ChatLine]:
        """The game's lines, in the order they were written."""
        ...
