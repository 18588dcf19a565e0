"""The built-in engine's level ladder on Stockfish's ``UCI_Elo`` scale.

``.venv/bin/python bench/ladder.py [--levels 1-10] [--anchors 1350,1600,1800,2000,2200]
[--games 100] [--tc 10s+0.1s] [--concurrency 1] [--pgn ladder.pgn] [--floor 0.2] [--chain]
[--chain-games N] [--placed LEVEL=ELO+-MARGIN ...] [--openings FILE] [--overhead MS]`` plays
the levels, strongest first, against Debian's Stockfish with ``UCI_LimitStrength`` at each
anchor ``UCI_Elo`` (one thread, 16 MB hash, ``--overhead`` its ``Move Overhead``: more than
its 10 ms keeps it from losing on time on a loaded machine), through the arbiter as
``chessarbiter match`` does (colours alternating, flags by the Laws), and prints per match
the score, the Elo difference and its 95% margin and the games lost on time (by either
side), and per level an estimate on Stockfish's scale. A level skips an anchor that a
stronger level of the run scored below ``--floor`` against: it would score less still, and
tell little.

With ``--chain`` a level that scored below ``--floor`` against every anchor it played (or
played none) plays the level above it too (``--chain-games`` games, from the ``--openings``
positions, by default ``bench/ladder_openings.epd``, each with both colours: two levels
without noise would play one game again and again from one position), if that level is
placed, by this run or by ``--placed`` (an earlier run's figure): the level's Elo is the
level above's plus the difference, with the two margins combined (errors add up along a
chain). A level's estimate weighs every match with a finite
difference by ``1 / margin^2`` (an anchor's Elo has no margin); a level that wins or loses
every game is only above or below its opponents. Last, the estimates fitted to rise with
the level (:func:`monotone`) as the entries of ``LADDER_ELO`` in ``engines/levels.py`` (the
table the level choosers show); ``--fit-only`` plays nothing and prints those entries for
the ``--placed`` levels (the figures of several runs together).

Stockfish refuses an ``UCI_Elo`` below its minimum (1350 for 15.1, 1320 for 16 on). The
figures mean something only from an idle machine: a loaded one slows both engines, but
not alike, so measured there they are no rating (the levels capped by depth and nodes
rarely use their time, and are slowed, not weakened).
"""

from __future__ import annotations

import argparse
import math
import re
import shutil
import sys
from dataclasses import dataclass, replace
from pathlib import Path
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
from chessarbiter.tournament.openings import START, Opening, read_openings

TIME_FORFEIT = '[Termination "time forfeit"]'
OPENINGS = Path(__file__).resolve().parent / "ladder_openings.epd"


@dataclass(frozen=True, slots=True)
class Placed:
    """An Elo on Stockfish's scale and its 95% margin (0 for an anchor's ``UCI_Elo``)."""

    elo: float
    margin: float = 0.0

    def __str__(self) -> str:
        return f"{self.elo:.0f} +- {self.margin:.0f}"


def levels(text: str) -> list[int]:
    """``1-10``, ``1,5,10`` or a mix."""
    out: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        out.extend(range(int(first), int(last or first) + 1))
    return out


def placed(text: str) -> tuple[int, Placed]:
    """``7=1450+-60``: a level placed by an earlier run."""
    found = re.fullmatch(r"(\d+)=(\d+(?:\.\d*)?)\+-(\d+(?:\.\d*)?)", text.strip())
    if found is None:
        raise argparse.ArgumentTypeError(f"{text!r}: expected LEVEL=ELO+-MARGIN")
    return int(found[1]), Placed(float(found[2]), float(found[3]))


def through(opponent: Placed, tally: Tally) -> Placed | None:
    """Where a match against ``opponent`` places the player, if its difference is finite:
    the opponent's Elo plus the difference, the margins combined as independent errors."""
    elo, margin = tally.elo(), tally.margin()
    if not (math.isfinite(elo) and math.isfinite(margin) and margin > 0):
        return None
    return Placed(opponent.elo + elo, math.hypot(opponent.margin, margin))


def rating(results: list[tuple[Placed, Tally]]) -> Placed | None:
    """The level's Elo from its matches against placed opponents (``1 / margin^2``
    weights), if a match had a finite difference."""
    found = [p for p in (through(o, t) for o, t in results) if p is not None]
    if not found:
        return None
    weights = [1 / p.margin ** 2 for p in found]
    value = sum(p.elo * w for p, w in zip(found, weights, strict=True)) / sum(weights)
    return Placed(value, 1 / math.sqrt(sum(weights)))


def monotone(places: dict[int, Placed]) -> dict[int, float]:
    """The placed levels' Elo fitted to rise with the level (pool adjacent violators,
    weights ``1 / margin^2``): a level measured above a stronger one (within the margins:
    a level whose cap the clock cuts plays like the one above) shares their weighted mean."""
    blocks: list[tuple[float, float, list[int]]] = []  # (mean, weight, levels)
    for level in sorted(places):
        found = places[level]
        mean, weight, members = found.elo, 1 / max(found.margin, 1.0) ** 2, [level]
        while blocks and blocks[-1][0] > mean:
            before, heavier, others = blocks.pop()
            mean = (before * heavier + mean * weight) / (heavier + weight)
            weight, members = heavier + weight, others + members
        blocks.append((mean, weight, members))
    return {level: mean for mean, _, members in blocks for level in members}


def estimate(results: list[tuple[Placed, Tally]]) -> str:
    """The level's Elo on the anchors' scale with its margin, or a bound."""
    found = rating(results)
    if found is not None:
        return str(found)
    if results and all(t.score == 1 for _, t in results):
        return f"above {max(o.elo for o, _ in results):.0f}"
    if results and all(t.score == 0 for _, t in results):
        return f"below {min(o.elo for o, _ in results):.0f}"
    return "unknown"


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
                        help="UCI_Elo values, comma-separated ('' for none)")
    parser.add_argument("--games", type=int, default=100, help="per level and anchor")
    parser.add_argument("--tc", default="10s+0.1s")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--stockfish", default=None, help="the program (default: stockfish)")
    parser.add_argument("--pgn", default=None, help="append every game to this file")
    parser.add_argument("--overhead", type=int, default=None,
                        help="Stockfish's Move Overhead, ms (default: its own, 10)")
    parser.add_argument("--floor", type=float, default=0.2,
                        help="skip an anchor a stronger level scored below this against")
    parser.add_argument("--chain", action="store_true",
                        help="each level also plays the level above, if placed")
    parser.add_argument("--chain-games", type=int, default=None,
                        help="per level-v-level match (default: --games)")
    parser.add_argument("--placed", type=placed, action="append", default=[],
                        help="LEVEL=ELO+-MARGIN from an earlier run (repeatable)")
    parser.add_argument("--openings", type=Path, default=OPENINGS,
                        help="EPD or PGN of the level-v-level matches' start positions")
    parser.add_argument("--fit-only", action="store_true",
                        help="play nothing: the LADDER_ELO entries of the --placed levels")
    args = parser.parse_args()
    if args.fit_only:
        print_table(dict(args.placed))
        return 0
    program = args.stockfish or shutil.which("stockfish") or shutil.which(
        "stockfish", path="/usr/games")
    if program is None:
        print("ladder: stockfish not found (Debian: apt-get install stockfish)", file=sys.stderr)
        return 2
    control = parse_control(args.tc)
    if control is None:
        print(f"ladder: --tc {args.tc!r}: no clock", file=sys.stderr)
        return 2
    try:
        openings = tuple(read_openings(args.openings))
    except (OSError, ValueError) as exc:
        print(f"ladder: --openings: {exc}", file=sys.stderr)
        return 2
    profile = replace(profile_for(control), input_mode=InputMode.DIGITAL, flags_automatic=True)
    anchors = [int(a) for a in args.anchors.split(",") if a.strip()]
    chain_games = args.games if args.chain_games is None else args.chain_games
    overhead = "" if args.overhead is None else f";Move Overhead={args.overhead}"
    order = sorted(set(args.levels), reverse=True)
    print(f"levels {order} against {program} at UCI_Elo {anchors}, {args.games} games "
          f"each at {args.tc}" + (f"; below {args.floor:.0%} against them, the level above, "
                                  f"{chain_games} games from {len(openings)} opening(s)"
                                  if args.chain else ""),
          flush=True)
    pgn = open(args.pgn, "a", encoding="utf-8") if args.pgn else None  # noqa: SIM115
    places: dict[int, Placed] = dict(args.placed)
    lowest: dict[int, float] = {}  # per anchor, the score of the weakest level that played it
    table: dict[int, int | None] = {}

    def match(level: int, opponent: str, name: str, key: int, games: int,
              starts: tuple[Opening, ...]) -> Tally:
        config = MatchConfig(f"engine:{level}", opponent, games, control, profile, starts,
                             seed=level * 10_000 + key, event=f"ladder: level {level} v {name}")
        check_engines(config)
        tally, flags = play(config, args.concurrency, pgn)
        print(f"level {level} v {name}: {tally.line()}, {flags} lost on time", end="",
              flush=True)
        return tally

    try:
        for level in order:
            results: list[tuple[Placed, Tally]] = []
            for anchor in anchors:
                if lowest.get(anchor, 1.0) < args.floor:
                    continue
                tally = match(level, f"uci:{program};UCI_LimitStrength=true;UCI_Elo={anchor};"
                              f"Threads=1;Hash=16{overhead}", f"UCI_Elo {anchor}", anchor,
                              args.games, START)
                print(flush=True)
                results.append((Placed(anchor), tally))
                lowest[anchor] = tally.score
            above = places.get(level + 1)
            if args.chain and above and all(t.score < args.floor for _, t in results):
                tally = match(level, f"engine:{level + 1}", f"level {level + 1}", level + 1,
                              chain_games, openings)
                via = through(above, tally)
                print(f" (level {level + 1} at {above}: {via})" if via else "", flush=True)
                results.append((above, tally))
            print(f"level {level}: about {estimate(results)} on Stockfish's UCI_Elo scale",
                  flush=True)
            found = rating(results)
            if found is not None:
                places[level] = found
            table[level] = None if found is None else round(found.elo)
    except EngineStartError as exc:
        print(f"ladder: {exc}", file=sys.stderr)
        return 2
    finally:
        if pgn is not None:
            pgn.close()
    print_table(places, sorted(table))
    return 0


def print_table(places: dict[int, Placed], levels: list[int] | None = None) -> None:
    """The entries of ``LADDER_ELO``: the placed levels' Elo fitted to rise with the level
    (:func:`monotone`), each with its own measurement beside it; ``None`` for a level
    of ``levels`` not placed."""
    fitted = monotone(places)
    print("LADDER_ELO entries for src/chessarbiter/engines/levels.py (fitted to rise with "
          "the level):")
    for level in sorted(set(levels or []) | set(places)):
        if level in fitted:
            print(f"    {level}: {round(fitted[level])},  # measured {places[level]}")
        else:
            print(f"    {level}: None,")


if __name__ == "__main__":
    sys.exit(main())
