"""``chessarbiter match``: engine against engine under the Laws, with a live score line and
a PGN file of every game (``%clk``, Termination, the arbiter's reasons); each finished game
is also stored, with every event, in ``games.sqlite`` beside the PGN file unless ``--store``
names another store (as for ``play``: a SQLite file, or a folder of JSON-lines journals)."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from chessarbiter.cli import match_tournament
from chessarbiter.cli.args import control_and_profile
from chessarbiter.cli.errors import CommandError
from chessarbiter.cli.pgn_out import make_folder, open_for_games

if TYPE_CHECKING:
    from chessarbiter.tournament.match import MatchConfig


def register(subparsers: Any) -> None:
    """Add the ``match`` subcommand."""
    parser = subparsers.add_parser("match", help="play an engine match under the Laws")
    parser.add_argument("--games", type=int, default=2, help="number of games (default 2)")
    parser.add_argument("--tc", default="1+0.1",
                        help="time control: as for play ('1+0.1' is a minute + 0.1 s a move; "
                             "'10s+0.1s' ten seconds), or cutechess's 'tc=10+0.1' in seconds "
                             "(default 1+0.1)")
    parser.add_argument("--pgn", type=Path, required=True,
                        help="PGN file for the games (its folder is created if missing)")
    parser.add_argument("--engine", action="append", default=[], metavar="SPEC",
                        help="a player as for play: engine[:LEVEL] (the built-in engine) or "
                             "uci:COMMAND[;OPTION=VALUE...], or a bare UCI command; give it "
                             "twice for two engines (default: the built-in engine)")
    parser.add_argument("--store", metavar="PATH",
                        help="where the games are kept event by event: a SQLite file (default "
                             "games.sqlite beside --pgn), or a folder (an existing one, or a "
                             "path ending in /) of JSON-lines journals")
    parser.add_argument("--openings", type=Path, help="PGN or EPD file of start positions")
    parser.add_argument("--profile", default="auto", help="rule profile (default by --tc)")
    parser.add_argument("--chess960", action="store_true", help="Chess960 castling")
    parser.add_argument("--concurrency", type=int, default=os.cpu_count() or 1,
                        help="games at a time, each in its own process (default and most: "
                             f"the cores, {os.cpu_count()}; never more than --games)")
    parser.add_argument("--resign", type=int, metavar="CP",
                        help="adjudicate a loss when both engines agree on CP centipawns")
    parser.add_argument("--draw", type=int, metavar="CP",
                        help="adjudicate a draw from move 40 when both see at most CP")
    parser.add_argument("--seed", type=int, help="seed for the built-in engine's randomness")
    match_tournament.register_options(parser)
    parser.set_defaults(func=run)


def config_from(args: argparse.Namespace) -> MatchConfig:
    """The match the arguments describe; ``CommandError`` naming a bad argument."""
    from chessarbiter.laws.profiles import InputMode
    from chessarbiter.session.players import engine_spec, player_from_spec
    from chessarbiter.tournament.match import Adjudication, MatchConfig
    from chessarbiter.tournament.openings import START, read_openings

    engines = [engine_spec(e) for e in args.engine] or ["engine:10"]
    if len(engines) > 2:
        raise CommandError("--engine: at most two engines")
    if len(engines) == 1:
        engines.insert(0, "engine:10")
    if args.games < 1:
        raise CommandError("--games must be at least 1")
    for spec in engines:
        try:
            player_from_spec(spec)
        except ValueError as exc:
            raise CommandError(f"--engine: {exc}") from None
    control, profile = control_and_profile(args.tc, args.profile, runner=True)
    openings = START
    if args.openings is not None:
        try:
            openings = tuple(read_openings(args.openings, chess960=args.chess960))
        except OSError as exc:
            raise CommandError(f"--openings: {args.openings}: {exc.strerror or exc}") from None
        except ValueError as exc:
            raise CommandError(f"--openings: {exc}") from None
    adjudication = Adjudication(resign_cp=args.resign, draw_cp=args.draw)
    return MatchConfig(engines[0], engines[1], args.games, control,
                       replace(profile, input_mode=InputMode.DIGITAL, flags_automatic=True),
                       openings, args.chess960,
                       adjudication, args.seed)


def run(args: argparse.Namespace) -> int:
    """Play the match once every engine has started and answered the UCI handshake; the
    last line is the first engine's score and Elo difference. With ``--tournament``, a
    tournament between all the engines (``cli.match_tournament``)."""
    if args.tournament is not None:  # the first two engines' config gives the shared settings
        base = config_from(argparse.Namespace(**{**vars(args), "engine": args.engine[:2]}))
        from chessarbiter.session.players import engine_spec

        return match_tournament.run_tournament(args, [engine_spec(e) for e in args.engine],
                                               base)
    from chessarbiter.present.controls import control_words
    from chessarbiter.store import StoreError, open_store
    from chessarbiter.tournament.elo import Tally
    from chessarbiter.tournament.match import (
        EngineStartError,
        GameReport,
        check_engines,
        run_match,
    )

    config = config_from(args)
    try:
        names = check_engines(config)
    except EngineStartError as exc:
        raise CommandError(f"--engine: {exc}") from None
    make_folder(args.pgn)
    try:
        store = open_store(args.store if args.store is not None
                           else str(args.pgn.parent / "games.sqlite"))
    except StoreError as exc:
        raise CommandError(f"--store: {exc}") from None
    try:
        pgn = open_for_games(args.pgn)
    except CommandError:
        store.close()
        raise
    cores = os.cpu_count() or 1
    concurrency = max(1, min(args.concurrency, cores, config.games))
    first, second = names[config.first], names[config.second]
    print(f"{first} vs {second}: {config.games} games, {control_words(config.control)}, "
          f"{config.profile.name}, {concurrency} at a time", file=sys.stderr)

    def progress(tally: Tally, report: GameReport) -> None:
        print(f"\rgame {tally.games}/{config.games}: {tally.line()}   ", end="",
              file=sys.stderr, flush=True)

    try:
        with pgn:
            tally = run_match(config, concurrency=concurrency, pgn=pgn, progress=progress,
                              store=store)
    except StoreError as exc:  # not bad input: the store failed while the match was played
        print(f"\nchessarbiter match: error: --store: {exc}; the match stopped: the games "
              f"played so far are in {args.pgn}", file=sys.stderr)
        return 1
    except BaseException:  # interrupted: the progress line is ended before the word
        print(file=sys.stderr)
        raise
    finally:
        store.close()
    print(file=sys.stderr)
    print(f"{first} vs {second}: {tally.line()}")
    return 0
