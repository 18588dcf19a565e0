"""``chessarbiter match --tournament FORMAT``: a round robin (``roundrobin``, ``double``), a
Swiss (``swiss``, ``--rounds``) or a gauntlet (the first ``--engine`` against each other one,
``--games`` each) between the ``--engine`` players, games under the Laws as in a match.
Prints the standings, the engines named as they play (``id name`` and settings, numbered
when two play alike), with each engine's tally and Elo difference against its opponents; a
round robin or Swiss is kept in the SQLite ``--store`` as a tournament (``chessarbiter
tournament standings --db STORE``) and written to ``--trf`` when asked."""

from __future__ import annotations

import argparse
import math
import os
import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from chessarbiter.cli.errors import CommandError
from chessarbiter.cli.pgn_out import make_folder, open_for_games

if TYPE_CHECKING:
    from chessarbiter.tournament.engines import EngineTournament, Outcome, Played
    from chessarbiter.tournament.match import MatchConfig


def register_options(parser: argparse.ArgumentParser) -> None:
    """The match command's tournament options."""
    parser.add_argument("--tournament", choices=("roundrobin", "double", "swiss", "gauntlet"),
                        help="play a tournament between all the --engine players")
    parser.add_argument("--rounds", type=int, default=7, help="rounds of a Swiss (default 7)")
    parser.add_argument("--trf", help="write the round robin or Swiss as a TRF file")
    parser.add_argument("--name", default="chessarbiter engine tournament",
                        help="the tournament's name (PGN Event)")


def tournament_from(args: argparse.Namespace, specs: list[str],
                    base: MatchConfig) -> EngineTournament:
    """The tournament the arguments describe (``specs``: the players; ``base``: the match
    settings the arguments give); ``CommandError`` naming a bad argument."""
    from chessarbiter.session.players import player_from_spec
    from chessarbiter.tournament.engines import EngineTournament

    if len(specs) < 2:
        raise CommandError("--engine: a tournament needs at least two engines")
    for spec in specs:
        try:
            player_from_spec(spec)
        except ValueError as exc:
            raise CommandError(f"--engine: {exc}") from None
    rounds = args.rounds if args.tournament == "swiss" else args.games
    if rounds < 1:
        raise CommandError(f"--{'rounds' if args.tournament == 'swiss' else 'games'} must be "
                           "at least 1")
    return EngineTournament(tuple(specs), args.tournament, base.control, base.profile, rounds,
                            base.openings, base.chess960, base.adjudication, base.seed,
                            args.name)


def run_tournament(args: argparse.Namespace, specs: list[str], base: MatchConfig) -> int:
    """Check every engine starts, play the tournament, print the standings."""
    from chessarbiter.present.controls import control_words
    from chessarbiter.store import StoreError, open_store
    from chessarbiter.store.opening import is_folder
    from chessarbiter.store.tournaments import TournamentStore
    from chessarbiter.tournament.engines import run_engine_tournament
    from chessarbiter.tournament.match import EngineStartError, MatchConfig, check_engines

    event = tournament_from(args, specs, base)
    names: dict[str, str] = {}
    for spec in dict.fromkeys(event.players):
        try:
            names |= check_engines(MatchConfig(spec, spec, 1, event.control, event.profile,
                                               chess960=event.chess960))
        except EngineStartError as exc:
            raise CommandError(f"--engine: {exc}") from None
    event = replace(event, shown=tuple(names[spec] for spec in event.players))
    make_folder(args.pgn)
    where = args.store if args.store is not None else str(args.pgn.parent / "games.sqlite")
    try:
        games = open_store(where)
        store = None if is_folder(where) or event.format == "gauntlet" else TournamentStore(
            Path(where))
    except StoreError as exc:
        raise CommandError(f"--store: {exc}") from None
    try:
        pgn = open_for_games(args.pgn)
    except CommandError:
        games.close()
        if store is not None:
            store.close()
        raise
    concurrency = max(1, min(args.concurrency, os.cpu_count() or 1))
    print(f"{event.format} of {len(event.players)} engines, {control_words(event.control)}, "
          f"{event.profile.name}, {concurrency} at a time", file=sys.stderr)

    def progress(played: Played, outcome: Outcome) -> None:
        print(f"\rround {played.pairing.round}: {outcome.games} games played   ", end="",
              file=sys.stderr, flush=True)

    try:
        with pgn:
            outcome = run_engine_tournament(event, concurrency=concurrency, pgn=pgn,
                                            games_store=games, store=store, progress=progress)
    finally:  # also when interrupted: the progress line is ended
        games.close()
        if store is not None:
            store.close()
        print(file=sys.stderr)
    print(table(outcome))
    if args.trf is not None and outcome.state is not None:
        _write_trf(args.trf, outcome)
    return 0


def _write_trf(path: str, outcome: Outcome) -> None:
    from chessarbiter.tournament.director import trf_text

    assert outcome.state is not None
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="") as out:
            out.write(trf_text(outcome.state))
    except OSError as exc:
        raise CommandError(f"--trf: {path}: {exc.strerror or exc}") from None
    print(f"wrote {path}", file=sys.stderr)


def _elo(value: float) -> str:
    return f"{value:+.0f}" if math.isfinite(value) else ("+inf" if value > 0 else "-inf")


def table(outcome: Outcome) -> str:
    """The standings (with tie-breaks for a round robin or Swiss; by score for a gauntlet)
    and each engine's games, tally and Elo difference against its opponents."""
    from chessarbiter.cli.tournament_text import points
    from chessarbiter.tournament.director import ranking

    rows: list[tuple[str, str, Fraction | None, tuple[Fraction, ...]]]
    if outcome.state is not None:
        rows = [(str(r.place), r.entrant.name, r.points, r.values)
                for r in ranking(outcome.state)]
        tiebreaks = outcome.state.settings.tiebreaks
    else:
        order = sorted(outcome.names, key=lambda n: -outcome.tallies[n].score)
        rows = [(str(i), n, None, ()) for i, n in enumerate(order, 1)]
        tiebreaks = ()
    width = max(len(name) for name in outcome.names)
    lines = [f"{'Pl':>3}  {'Engine':<{width}} {'Pts':>5}"
             + "".join(f" {t:>7}" for t in tiebreaks) + "  Games   +   -   =     Elo"]
    for place, name, score, values in rows:
        tally = outcome.tallies[name]
        shown = points(score) if score is not None else f"{tally.wins + tally.draws / 2:g}"
        margin = tally.margin()
        lines.append(f"{place:>3}  {name:<{width}} {shown:>5}"
                     + "".join(f" {points(v):>7}" for v in values)
                     + f"  {tally.games:5d} {tally.wins:3d} {tally.losses:3d} {tally.draws:3d}"
                     + f" {_elo(tally.elo()):>7} +- "
                     + (f"{margin:.0f}" if math.isfinite(margin) else "inf"))
    return "\n".join(lines)
