"""What every store offers, and the error a store raises."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from chessarbiter.arbiter.events import Event
from chessarbiter.arbiter.game import Game


class StoreError(ValueError):
    """A store, a game or an event that cannot be read or written: names the game (and the
    event's sequence number) and the reason."""


@dataclass(frozen=True)
class GameInfo:
    """One game of a store's list: its id, scoresheet tags, outcome once it has ended and
    when it was last written (seconds since the epoch)."""

    game_id: str
    tags: Mapping[str, str]
    outcome: str | None
    updated: float


class EventStore(Protocol):
    """Games kept event by event; each write is on disk when the call returns."""

    def create(self, game: Game) -> str:
        """Record a new game (its setup, start analysis and the events so far); its id."""
        ...

    def append(self, game_id: str, event: Event, outcome: str | None = None) -> None:
        """Record one event the arbiter accepted (with its analysis), and the game's outcome
        when the event ended it."""
        ...

    def load(self, game_id: str) -> Game:
        """The game replayed from its setup and events, the analyses read back."""
        ...

    def games(self) -> list[GameInfo]:
        """Every game, oldest first."""
        ...

    def where(self, game_id: str) -> str:
        """Where the game is kept, for people."""
        ...

    def close(self) -> None:
        """Release the files."""
        ...


class Recording:
    """One game of a store, appended to as it is played (what :class:`LiveGame` writes to,
    with the game's outcome once an event ends it); closing it closes the store."""

    def __init__(self, store: EventStore, game_id: str, game: Game) -> None:
        self.store = store
        self.game_id = game_id
        self._game = game

    @property
    def where(self) -> str:
        return self.store.where(self.game_id)

    def append(self, event: Event) -> None:
        outcome = self._game.outcome
        self.store.append(self.game_id, event, None if outcome is None else str(outcome))

    def close(self) -> None:
        self.store.close()
