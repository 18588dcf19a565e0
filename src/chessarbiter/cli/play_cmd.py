"""``chessarbiter play``: a game at the terminal, against the built-in engine by default.

Each side is ``human``, ``engine`` (the built-in engine, ``engine:LEVEL`` for a level 1-10) or
``uci:COMMAND`` (an external UCI engine). The game is stored event by event (so a crash
loses nothing; ``--resume`` continues it) in a SQLite database, ``games/games.sqlite`` unless
``--store`` names another (a folder there keeps one JSON-lines journal per game instead), and
saved as PGN in ``--dir`` when it ends or is interrupted. ``--list`` lists the stored games; a
store that does not exist is not created (no games, exit code 0). A store that fails while
the game is played stops it: one line on stderr, exit code 1, everything recorded before
kept (``--resume`` continues from there).
"""

from __future__ import annotations

import argparse
import datetime
import signal
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from chessarbiter.cli.args import control_and_profile, fen_text
from chessarbiter.cli.errors import CommandError, Terminated

if TYPE_CHECKING:
    from chessarbiter.session.play import Play
    from chessarbiter.store import EventStore

def register(subparsers: Any) -> None:
    """Add the ``play`` subcommand."""
    parser = subparsers.add_parser("play", help="play a game at the terminal")
    parser.add_argument("--tc", default="5+3",
                        help="time control: '5+3' (minutes + seconds a move), '10s+0.1s' "
                             "(units named), '40/90+30, 30+30', 'G/60;d5', 'none' "
                             "(default 5+3)")
    parser.add_argument("--profile", default="auto",
                        help="rule profile (default: FIDE 2023 standard, rapid or blitz by the "
                             "time control)")
    side = ("human, engine[:LEVEL] (the built-in engine, LEVEL 1-10, default 3; --levels "
            "lists each level's Elo) or uci:COMMAND")
    parser.add_argument("--white", default="human", help=side)
    parser.add_argument("--black", default="engine", help=side)
    parser.add_argument("--levels", action="store_true",
                        help="list the built-in engine's levels with their Elo, and exit")
    parser.add_argument("--fen", default="startpos", help="start position (FEN or startpos)")
    parser.add_argument("--chess960", action="store_true", help="Chess960 castling")
    parser.add_argument("--accessible", action="store_true",
                        help="line mode for screen readers: moves and board in words")
    parser.add_argument("--ascii", action="store_true", help="letters instead of chess glyphs")
    parser.add_argument("--dir", default="games", type=Path,
                        help="where the PGN (and the default store) go (default ./games)")
    parser.add_argument("--store", metavar="PATH",
                        help="where games are kept event by event: a SQLite file (default "
                             "DIR/games.sqlite), or a folder (an existing one, or a path "
                             "ending in /) of JSON-lines journals, one per game")
    parser.add_argument("--resume", metavar="GAME",
                        help="continue a game: a number is a game id of the --store database; "
                             "anything else is a journal file (.jsonl)")
    parser.add_argument("--list", action="store_true",
                        help="list the games of --store (id, last written, players, outcome)")
    parser.add_argument("--seed", type=int, help="seed for the built-in engine's randomness")
    parser.set_defaults(func=run)


def store_path(args: argparse.Namespace) -> str:
    """The ``--store`` the arguments name (``DIR/games.sqlite`` by default)."""
    return args.store if args.store is not None else str(args.dir / "games.sqlite")


def _open(args: argparse.Namespace, stem: str = "game") -> EventStore:
    """The store ``--store`` names; ``CommandError`` if it cannot be opened."""
    from chessarbiter.store import JsonlStore, StoreError, open_store

    where = store_path(args)
    try:
        if args.store is None:
            args.dir.mkdir(parents=True, exist_ok=True)
        store = open_store(where)
    except StoreError as exc:
        raise CommandError(f"--store: {exc}") from None
    except OSError as exc:
        raise CommandError(f"--dir: {args.dir}: {exc.strerror or exc}") from None
    if isinstance(store, JsonlStore):
        store.stem = stem
    return store


def _pgn_path(args: argparse.Namespace, store: EventStore, game_id: str) -> Path:
    """The game's PGN: beside its journal in a JSON-lines store, else ``DIR/STORE-ID.pgn``."""
    from chessarbiter.store import JsonlStore

    if isinstance(store, JsonlStore):
        return store.path(game_id).with_suffix(".pgn")
    try:
        args.dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        store.close()
        raise CommandError(f"--dir: {args.dir}: {exc.strerror or exc}") from None
    return Path(args.dir) / f"{Path(store_path(args)).stem}-{game_id}.pgn"


def _missing(where: str) -> bool:
    """Whether the store ``where`` names does not exist (a database server's always may)."""
    from chessarbiter.store.names import is_postgres

    return not is_postgres(where) and not Path(where).exists()


def list_games(args: argparse.Namespace) -> int:
    """Print the games of ``--store``, one a line: id, last written, players, outcome. A
    store that does not exist is not created: there are no games (said on stderr)."""
    from chessarbiter.store import StoreError

    where = store_path(args)
    if _missing(where):
        print(f"no stored games: {where} does not exist", file=sys.stderr)
        return 0
    store = _open(args)
    try:
        games = store.games()
    except StoreError as exc:
        raise CommandError(f"--store: {exc}") from None
    finally:
        store.close()
    if not games:
        print(f"no stored games in {where}", file=sys.stderr)
    for info in games:
        when = datetime.datetime.fromtimestamp(info.updated).strftime("%Y-%m-%d %H:%M")
        players = f"{info.tags.get('White', '?')} - {info.tags.get('Black', '?')}"
        print(f"{info.game_id}\t{when}\t{players}\t{info.outcome or 'unfinished'}")
    return 0


def build(args: argparse.Namespace) -> Play:
    """The game the arguments describe, stored; ``CommandError`` naming a bad argument."""
    from chessarbiter.arbiter.game import Game
    from chessarbiter.clock.records import Side
    from chessarbiter.core.errors import ChessError
    from chessarbiter.laws.profiles import InputMode
    from chessarbiter.session.live import LiveGame, Recorder
    from chessarbiter.session.play import Play
    from chessarbiter.session.players import EnginePlayer, player_from_spec, start_player
    from chessarbiter.store import Recording, StoreError
    from chessarbiter.store.journal import Journal, JournalError

    engines: dict[Side, EnginePlayer] = {}
    for side, spec in ((Side.WHITE, args.white), (Side.BLACK, args.black)):
        try:
            player = player_from_spec(spec, seed=args.seed, chess960=args.chess960)
        except ValueError as exc:
            raise CommandError(f"--{side.name.lower()}: {exc}") from None
        if player is not None:
            engines[side] = player
    for side, player in engines.items():
        failure = start_player(player)  # an engine that cannot play is refused now, not at its move
        if failure is not None:
            for started in engines.values():
                started.close()
            raise CommandError(f"--{side.name.lower()}: {failure.detail}")
    recorder: Recorder
    if args.resume is not None and not args.resume.isdigit():
        path = Path(args.resume)
        try:
            game, recorder, cut = Journal.resume(path)
        except JournalError as exc:
            raise CommandError(f"--resume: {exc}") from None
        if cut:
            print(f"note: {path}: an unfinished last line was dropped")
        pgn = path.with_suffix(".pgn")
    elif args.resume is not None:
        if _missing(store_path(args)):
            raise CommandError(f"--resume: no game {args.resume}: {store_path(args)} does not "
                               "exist")
        store = _open(args)
        try:
            game = store.load(args.resume)
        except StoreError as exc:
            store.close()
            raise CommandError(f"--resume: {exc}") from None
        recorder = Recording(store, args.resume, game)
        pgn = _pgn_path(args, store, args.resume)
    else:
        control, profile = control_and_profile(args.tc, args.profile)
        # The terminal only lets legal moves through: Art. 7.5 never arises.
        profile = replace(profile, input_mode=InputMode.DIGITAL)
        names = {s: ("Human" if s not in engines else engines[s].name) for s in Side}
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        tags = {
            "Event": "Casual game", "Site": "chessarbiter terminal",
            "Date": datetime.date.today().strftime("%Y.%m.%d"), "Round": "-",
            "White": names[Side.WHITE], "Black": names[Side.BLACK],
        }
        try:
            game = Game(profile, control, fen=fen_text(args.fen), chess960=args.chess960,
                        tags=tags)
        except ChessError as exc:
            raise CommandError(f"--fen: {exc}") from None
        store = _open(args, stem=f"game-{stamp}")
        try:
            game_id = store.create(game)
        except StoreError as exc:
            store.close()
            raise CommandError(f"--store: {exc}") from None
        recorder = Recording(store, game_id, game)
        pgn = _pgn_path(args, store, game_id)
    live = LiveGame(game, journal=recorder)
    return Play(live, engines, pgn_path=pgn)


def run(args: argparse.Namespace) -> int:
    """Play until the game ends and the players quit."""
    from chessarbiter.clock.records import Side

    if args.dir.exists() and not args.dir.is_dir():
        raise CommandError(f"--dir: {args.dir}: not a folder")
    if args.list:
        return list_games(args)
    if args.levels:
        from chessarbiter.engines.levels import LADDER_ELO, elo_label

        for level in sorted(LADDER_ELO):
            print(f"level {level:>2}: {elo_label(level)}")
        return 0
    play = build(args)
    if args.accessible:
        from chessarbiter.tui.accessible import run_accessible

        run_accessible(play)
    else:
        from chessarbiter.tui.app import GameApp

        people = play.humans()
        orientation = people[0] if people else Side.WHITE
        app = GameApp(play, orientation=orientation, unicode=not args.ascii)
        app.run()
        kept = play.live.journal.where if play.live.journal is not None else "nowhere"
        print(f"game saved to {play.pgn_path} (events kept in {kept})")
        if play.live.game.outcome is not None:
            print(play.live.game.outcome)
        if app.stopped_by == signal.SIGINT:
            raise KeyboardInterrupt
        if app.stopped_by is not None:
            raise Terminated
    if play.failure is not None:
        print(f"chessarbiter play: error: {play.failure}", file=sys.stderr)
        return 1
    return 0
