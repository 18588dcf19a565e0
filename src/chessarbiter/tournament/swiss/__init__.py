"""Swiss pairing: the FIDE (Dutch) system (C.04.3, the 2025 rules in force from 2026, and
the 2017 rules), with Baku acceleration (C.04.5.1), and the Burstein system (C.04.4.2)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from math import ceil
from typing import Literal

from chessarbiter.clock import Side
from chessarbiter.tournament.records import Cell, Code, Entrant, Pairing, Scoring
from chessarbiter.tournament.swiss import burstein
from chessarbiter.tournament.swiss.dutch import PairingError, Round, pair
from chessarbiter.tournament.swiss.state import build_states

__all__ = ["SYSTEMS", "PairingError", "System", "baku_points", "pair_round"]

Acceleration = Literal["baku"] | Mapping[int, Sequence[Fraction]] | None
System = Literal["dutch", "burstein"]
SYSTEMS: tuple[System, ...] = ("dutch", "burstein")


def pair_round(entrants: Iterable[Entrant], cells: Mapping[int, Sequence[Cell]],
               round_no: int, *, total_rounds: int, rules: Literal["2025", "2017"] = "2025",
               scoring: Scoring | None = None, acceleration: Acceleration = None,
               initial_side: Side = Side.WHITE, absent: Iterable[int] = (),
               requested: Mapping[int, Code] | None = None, system: System = "dutch"
               ) -> Pairing:
    """Pair round ``round_no`` (from 1) from each entrant's cells of the earlier rounds, by
    the Dutch (``rules`` its edition) or the Burstein ``system``.

    ``absent`` players and those with a ``requested`` bye (half or zero point, C.04.2) are
    not paired. ``acceleration`` is ``"baku"`` (C.04.5.1) or virtual points per player and
    round (TRF ``XXA``; Burstein without it has its seeding rounds). Raises
    ``PairingError`` when the absolute criteria cannot be met.
    """
    if system not in SYSTEMS:
        raise ValueError(f"system: unknown pairing system {system!r} (dutch or burstein)")
    if rules not in ("2025", "2017"):
        raise ValueError(f"rules: unknown Dutch rules {rules!r} (2025 or 2017)")
    if round_no < 1 or round_no > total_rounds:
        raise ValueError(f"round_no: {round_no} is outside 1..{total_rounds}")
    scoring = scoring or Scoring()
    starts = sorted(e.start for e in entrants)
    every = {p: tuple(cells.get(p, ())) for p in starts}
    out = set(absent) | set(requested or {})
    if acceleration == "baku":
        virtual = baku_points(starts, total_rounds, scoring)
    else:
        virtual = {p: tuple(points) for p, points in (acceleration or {}).items()}
    if system == "burstein":
        return burstein.pair(burstein.field_of(every, round_no, scoring, out,
                                               virtual if acceleration else None,
                                               initial_side))
    states = build_states(every, round_no, scoring, virtual, rules=rules)
    players = tuple(p for p in starts if p not in out)
    rnd = Round(states=states, players=players, final=round_no == total_rounds,
                topscore=scoring.win * (round_no - 1) / 2, initial=initial_side,
                first=round_no == 1, rules=rules)
    return pair(rnd)


def baku_points(starts: Sequence[int], total_rounds: int, scoring: Scoring
                ) -> dict[int, tuple[Fraction, ...]]:
    """Baku acceleration (C.04.5.1): the first 2 x ceil(N/4) players by pairing number (GA)
    get a win's worth of virtual points before the first half of the accelerated rounds
    and a draw's worth before the rest; the accelerated rounds are the first half of the
    tournament (rounded up)."""
    group = sorted(starts)[:2 * ceil(len(starts) / 4)]
    accelerated = ceil(total_rounds / 2)
    full = ceil(accelerated / 2)
    points = tuple(scoring.win if r < full else scoring.draw if r < accelerated else Fraction(0)
                   for r in range(total_rounds))
    return {p: points for p in group}
