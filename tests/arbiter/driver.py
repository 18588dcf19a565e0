"""A small driver for scenario tests: plays events on a game with a hand-moved time base."""

from __future__ import annotations

from typing import Any

from chessarbiter.arbiter import ClocksStarted, Decision, Event, Game, Moved
from chessarbiter.clock import Side, Start, TimeControl, parse_human
from chessarbiter.core import STARTING_FEN
from chessarbiter.laws.profiles import RuleProfile

W, B = Side.WHITE, Side.BLACK
S, MIN = 1000, 60_000


class Driver:
    """``d.play("e2e4 e7e5")`` moves for whoever has the move, ``dt`` ms apart;
    ``d.event(Resigned, side=W)`` fills in ``at_ms``. Clocks start at 0 unless ``start=False``."""

    def __init__(
        self,
        profile: RuleProfile,
        control: TimeControl | str | None = "90+30",
        *,
        fen: str = STARTING_FEN,
        start: bool = True,
        tags: dict[str, str] | None = None,
    ) -> None:
        tc = parse_human(control) if isinstance(control, str) else control
        self.game = Game(profile, tc, fen=fen, tags=tags)
        self.t = 0
        if tc is not None and start and profile.clock_start is Start.BLACK_STARTS_WHITE:
            self.game.apply(ClocksStarted(0))

    def tick(self, dt: int) -> int:
        self.t += dt
        return self.t

    def play(self, moves: str, dt: int = S, offer: bool = False) -> list[Decision]:
        out: list[Decision] = []
        for uci in moves.split():
            out += self.game.apply(Moved(self.tick(dt), self.game.to_move, uci, offer))
        return out

    def event(self, kind: type[Event], dt: int = S, **fields: Any) -> tuple[Decision, ...]:
        return self.game.apply(kind(at_ms=self.tick(dt), **fields))

    @property
    def result(self) -> str | None:
        outcome = self.game.outcome
        return None if outcome is None else outcome.result.value
