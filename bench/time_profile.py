"""How players used their clock, from the ``%emt`` and ``%clk`` comments of PGN games.

``.venv/bin/python bench/time_profile.py GAMES.pgn... [--player NAME]`` prints, for each
player (the White and Black tags; ``--player`` for one), the median over its games of the
mean think time a move in bands of move numbers, the clock after its 20th and 40th moves,
and its lowest clock in the game (with the lowest of all games). A game counts in a band
only with a timed move of that player there; the clock figures only with a ``%clk`` there.
The files of ``bench/selfplay.py --pgn`` and of ``chessarbiter match --pgn`` (and so
``bench/ladder.py --pgn``) carry both comments.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from statistics import mean, median
from typing import Final

from chessarbiter.notation.game import RecordedGame
from chessarbiter.notation.pgn_reader import read_pgn_file

BANDS: Final = ((1, 10), (11, 20), (21, 30), (31, 40), (41, 60), (61, 999))
"""Move numbers (inclusive) over which a game's think times are averaged."""
CLOCK_AT: Final = (20, 40)


@dataclass(slots=True)
class Profile:
    """One player's figures, a value per game."""

    games: int = 0
    bands: list[list[float]] = field(default_factory=lambda: [[] for _ in BANDS])
    clock_at: list[list[int]] = field(default_factory=lambda: [[] for _ in CLOCK_AT])
    lowest: list[int] = field(default_factory=list)


def add_game(profiles: dict[str, Profile], game: RecordedGame) -> None:
    """Add the timed moves of both players of ``game`` to their profiles."""
    pos = game.start_position()
    first_move, first_turn = pos.fullmove_number, pos.turn
    timed: list[list[tuple[int, int, int | None]]] = [[], []]  # by side: move, emt, clock
    for ply, record in enumerate(game.moves):
        side = (first_turn + ply) % 2
        number = first_move + (first_turn + ply) // 2
        if record.emt_ms is not None:
            timed[side].append((number, record.emt_ms, record.clock_ms))
    for side, tag in enumerate(("White", "Black")):
        moves = timed[side]
        if not moves:
            continue
        profile = profiles[game.tags.get(tag, "?")]
        profile.games += 1
        for band, (low, high) in enumerate(BANDS):
            spent = [emt for number, emt, _ in moves if low <= number <= high]
            if spent:
                profile.bands[band].append(mean(spent))
        clocks = [(number, clock) for number, _, clock in moves if clock is not None]
        for i, at in enumerate(CLOCK_AT):
            profile.clock_at[i] += [clock for number, clock in clocks if number == at]
        if clocks:
            profile.lowest.append(min(clock for _, clock in clocks))


def report(name: str, profile: Profile) -> str:
    """The profile's lines of text."""
    def ms(values: list[float] | list[int]) -> str:
        return f"{median(values):.0f}" if values else "-"

    bands = ", ".join(f"{low}-{high if high < 999 else ''} {ms(values)}"
                      for (low, high), values in zip(BANDS, profile.bands, strict=True))
    clocks = ", ".join(f"after move {at} {ms(values)}"
                       for at, values in zip(CLOCK_AT, profile.clock_at, strict=True))
    lowest = (f"lowest clock {ms(profile.lowest)} (lowest of all {min(profile.lowest)})"
              if profile.lowest else "no clock")
    return (f"{name}: {profile.games} games; ms a move by move number (median of games): "
            f"{bands}\n  clock {clocks}; {lowest}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", type=Path, nargs="+")
    parser.add_argument("--player", help="only this player (a White or Black tag)")
    args = parser.parse_args()
    profiles: dict[str, Profile] = defaultdict(Profile)
    for path in args.pgn:
        for game in read_pgn_file(path):
            add_game(profiles, game)
    for name in sorted(profiles):
        if args.player is None or name == args.player:
            print(report(name, profiles[name]))


if __name__ == "__main__":
    main()
