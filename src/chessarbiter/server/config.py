"""The server's settings: where it listens, where games are kept, its time source, engines
and lag compensation."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from chessarbiter.clock.clock import monotonic_ms
from chessarbiter.laws.profiles import ONLINE, RuleProfile

ONLINE_LAG_MS: Final = 300
"""The lag compensation of the ``online`` profile: each move is stamped up to this much
before its arrival (never before the previous event), so a network delay is not charged to
the mover; a flag counts once this much has passed after it fell. The over-the-board
profiles (FIDE, US Chess) get none: their clocks are the players' own."""


def wall_clock_ms() -> int:
    """The wall clock in ms since the Unix epoch: the date a game was made and the dates
    of correspondence deadlines."""
    return time.time_ns() // 1_000_000


@dataclass(frozen=True)
class ServerConfig:
    """``host``/``port``: where to listen; ``db``: the SQLite file of games and accounts;
    ``now_ms``: the monotonic time source of every game (injectable for tests), but
    ``calendar_ms``: the wall clock that dates games and times correspondence games (their
    deadlines are dates: the time the server is down counts);
    ``timers``: schedule flag timers on the event loop (tests may turn them off and call
    :meth:`Hub.fire_due`); ``engines``: named UCI engines players may challenge
    (``name -> uci:COMMAND[;OPTION=VALUE...]``, as ``chessarbiter play --white``);
    ``engine_workers``: threads searching engine moves; ``lag_ms``: the lag compensation
    (``None``: by the game's profile, :func:`lag_for`); ``open_registration``: anyone may
    create a named account (``POST /api/register``); ``max_games``: live games at most;
    ``behind_proxy``: served behind a reverse proxy terminating TLS, whose
    ``X-Forwarded-Proto`` and ``X-Forwarded-For`` are trusted (docs/server.md, "Limits").
    ``db`` may be a ``postgresql://`` URI; with it, ``bus`` (a ``redis://`` URL) makes this
    process one of a cluster serving the same games (:mod:`chessarbiter.server.cluster.cluster`),
    reached by the others at ``advertise`` (``host:port``, default ``host:port``)."""

    host: str = "127.0.0.1"
    port: int = 8080
    db: Path | str = Path("games.sqlite")
    bus: str | None = None
    advertise: str | None = None
    now_ms: Callable[[], int] = monotonic_ms
    calendar_ms: Callable[[], int] = wall_clock_ms
    timers: bool = True
    engines: Mapping[str, str] = field(default_factory=dict)
    engine_workers: int = 2
    lag_ms: int | None = None
    open_registration: bool = False
    max_games: int = 20_000
    behind_proxy: bool = False

    def lag_for(self, profile: RuleProfile) -> int:
        """The lag compensation for a game under ``profile``."""
        if self.lag_ms is not None:
            return self.lag_ms
        return ONLINE_LAG_MS if profile.name == ONLINE.name else 0
