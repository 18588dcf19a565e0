"""The built-in engine's level ladder on Stockfish's ``UCI_Elo`` scale.

``.venv/bin/python bench/ladder.py [--levels 1-10] [--anchors 1350,1600,1800,2000,2200]
[--games 100] [--tc 10s+0.1s] [--concurrency 1] [--pgn ladder.pgn]`` plays each level
against Debian's Stockfish with ``UCI_LimitStrength`` at each anchor ``UCI_Elo`` (one
thread, 16 MB hash), through the arbiter as ``chessarbiter match`` does (colours
alternating, flags by the Laws), and prints per match the score, the Elo difference and its
95% margin and the games lost on time (by either side), and per level an estimate on
Stockfish's scale: the anchors' ``UCI_Elo`` plus the difference, averaged with weights
``1 / margin^2`` over the matches with a finite difference. A level that wins or loses
every game is only above or below its anchors. Last, the estimates as the entries of
``LADDER_ELO`` in ``engines/levels.py`` (the table the level choosers show).

Stockfish refuses an ``UCI_Elo`` below its minimum (1350 for 15.1, 1320 for 16 on). The
figures mean something only from an idle machine: a loaded one slows both engines, but
not alike, so measured there they are no rating.
"""

from __future__ import annotations

import argparse
import math
import shutil
import sys
from dataclasses import replace
from typing import IO

from chessarbiter.clock import parse_control
from chessarbiter.laws.profiles import InputMode, profile_for
from chessarbiter.tournament.elo import Tally
from chessarbiter.tournament.match import (
    EngineStartError,
    GameReport,
    MatchConfig,
    check_engines,
    run_match,
)

TIME_FORFEIT = '[Termination "time forfeit"]'


def levels(text: str) -> list[int]:
    """``1-10``, ``1,5,10`` or a mix."""
    out: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        out.extend(range(int(first), int(last or first) + 1))
    return out


def rating(results: list[tuple[int, Tally]]) -> tuple[float, float] | None:
    """The level's Elo on the anchors' scale and its margin, if a match had a finite
    difference."""
    weighted = [(anchor + t.elo(), t.margin()) for anchor, t in results
                if math.isfinite(t.elo()) and math.isfinite(t.margin()) and t.margin() > 0]
    if not weighted:
        return None
    weights = [1 / m ** 2 for _, m in weighted]
    value = sum(e * w for (e, _), w in zip(weighted, weights, strict=True)) / sum(weights)
    return value, 1 / math.sqrt(sum(weights))


def estimate(results: list[tuple[int, Tally]]) -> str:
    """The level's Elo on the anchors' scale with its margin, or a bound."""
    found = rating(results)
    if found is None:
        if all(t.score == 1 for _, t in results):
            return f"above {max(a for a, _ in results)}"
        if all(t.score == 0 for _, t in results):
            return f"below {min(a for a, _ in results)}"
        return "unknown"
    return f"{found[0]:.0f} +- {found[1]:.0f}"


def play(config: MatchConfig, concurrency: int, pgn: IO[str] | None) -> tuple[Tally, int]:
    """The match's tally and its games lost on time."""
    flags: list[GameReport] = []

    def progress(_: Tally, report: GameReport) -> None:
        if TIME_FORFEIT in report.pgn:
            flags.append(report)

    return run_match(config, concurrency=concurrency, pgn=pgn, progress=progress), len(flags)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", type=levels, default=levels("1-10"))
    parser.add_argument("--anchors", default="1350,1600,1800,2000,2200",
                        help="UCI_Elo values, comma-separated")
    parser.add_argument("--games", type=int, default=100, help="per level and anchor")
    parser.add_argument("--tc", default="10s+0.1s")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--stockfish", default=None, help="the program (default: stockfish)")
    parser.add_argument("--pgn", default=None, help="append every game to this file")
    args = parser.parse_args()
    program = args.stockfish or shutil.which("stockfish") or shutil.which(
        "stockfish", path="/usr/games")
    if program is None:
        print("ladder: stockfish not found (Debian: apt-get install stockfish)", file=sys.stderr)
        return 2
    control = parse_control(args.tc)
    if control is None:
        print(f"ladder: --tc {args.tc!r}: no clock", file=sys.stderr)
        return 2
    profile = replace(profile_for(control), input_mode=InputMode.DIGITAL, flags_automatic=True)
    anchors = [int(a) for a in args.anchors.split(",")]
    print(f"levels {args.levels} against {program} at UCI_Elo {anchors}, {args.games} games "
          f"each at {args.tc}", flush=True)
    pgn = open(args.pgn, "a", encoding="utf-8") if args.pgn else None  # noqa: SIM115
    table: dict[int, int | None] = {}
    try:
        for level in args.levels:
            results: list[tuple[int, Tally]] = []
            for anchor in anchors:
                opponent = (f"uci:{program};UCI_LimitStrength=true;UCI_Elo={anchor};"
                            "Threads=1;Hash=16")
                config = MatchConfig(f"engine:{level}", opponent, args.games, control, profile,
                                     seed=level * 10_000 + anchor,
                                     event=f"ladder: level {level} v UCI_Elo {anchor}")
                try:
                    check_engines(config)
                except EngineStartError as exc:
                    print(f"ladder: {exc}", file=sys.stderr)
                    return 2
                tally, flags = play(config, args.concurrency, pgn)
                results.append((anchor, tally))
                print(f"level {level} v UCI_Elo {anchor}: {tally.line()}, "
                      f"{flags} lost on time", flush=True)
            print(f"level {level}: about {estimate(results)} on Stockfish's UCI_Elo scale",
                  flush=True)
            found = rating(results)
            table[level] = None if found is None else round(found[0])
    finally:
        if pgn is not None:
            pgn.close()
    print("LADDER_ELO entries for src/chessarbiter/engines/levels.py:")
    for level, elo in table.items():
        print(f"    {level}: {elo},")
    return 0


if __name__ == "__main__":
    sys.exit(main())
