"""A round's pairing held until a test lets it go, run in the server's real pairing
process (so it is a module's function, its events proxies of a manager's)."""

from __future__ import annotations

from typing import Protocol

from chessarbiter.tournament.director import pair_next
from chessarbiter.tournament.events import Event
from chessarbiter.tournament.log import TournamentState


class Signal(Protocol):
    def set(self) -> None: ...

    def wait(self, timeout: float | None = None) -> bool: ...


def held_pairing(began: Signal, release: Signal, state: TournamentState) -> list[Event]:
    """Tells ``began``, waits for ``release`` (a minute at most), then pairs."""
    began.set()
    release.wait(60)
    return pair_next(state)
