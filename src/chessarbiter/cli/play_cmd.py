"""``chessarbiter play``: a game at the terminal, against the built-in engine by default.

Each side is ``human``, ``engine`` (the built-in engine, ``engine:LEVEL`` for a level 1-10) or
``uci:COMMAND`` (an external UCI engine). The game is journalled event by event (so a crash
loses nothing; ``--resume`` continues it) and saved as PGN when it ends or is interrupted.
"""

from __future__ import annotations

import argparse
import datetime
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from chessarbiter.cli.args import fen_text
from chessarbiter.cli.errors import CommandError

if TYPE_CHECKING:
    from chessarbiter.clock.controls import TimeControl
    from chessarbiter.laws.profiles import RuleProfile
    from chessarbiter.live.play import Play

_AUTO_PROFILES = {"standard": "fide-2023", "rapid": "fide-2023-rapid", "blitz": "fide-2023-blitz"}
"""The profile for a control's category (``Category`` values)."""
_UNTIMED = ("none", "-", "untimed")


def register(subparsers: Any) -> None:
    """Add the ``play`` subcommand."""
    parser = subparsers.add_parser("play", help="play a game at the terminal")
    parser.add_argument("--tc", default="5+3",
                        help="time control: '5+3', '40/90+30, 30+30', 'G/60;d5', 'none' "
                             "(default 5+3)")
    parser.add_argument("--profile", default="auto",
                        help="rule profile (default: FIDE 2023 standard, rapid or blitz by the "
                             "time control)")
    parser.add_argument("--white", default="human", help="human, engine[:LEVEL] or uci:COMMAND")
    parser.add_argument("--black", default="engine", help="human, engine[:LEVEL] or uci:COMMAND")
    parser.add_argument("--fen", default="startpos", help="start position (FEN or startpos)")
    parser.add_argument("--chess960", action="store_true", help="Chess960 castling")
    parser.add_argument("--accessible", action="store_true",
                        help="line mode for screen readers: moves and board in words")
    parser.add_argument("--ascii", action="store_true", help="letters instead of chess glyphs")
    parser.add_argument("--dir", default="games", type=Path,
                        help="where the journal and PGN go (default ./games)")
    parser.add_argument("--resume", type=Path, metavar="JOURNAL",
                        help="continue the game a journal (.jsonl) holds")
    parser.add_argument("--seed", type=int, help="seed for the built-in engine's randomness")
    parser.set_defaults(func=run)


def parse_control(text: str) -> TimeControl | None:
    """A time control a clock can play, in the human or US Chess forms; ``none`` for an
    untimed game; ``TimeControlError`` otherwise."""
    from chessarbiter.clock.errors import TimeControlError
    from chessarbiter.clock.parse import parse_human, parse_us, require_playable

    if text.strip().lower() in _UNTIMED:
        return None
    try:
        control = parse_human(text)
    except TimeControlError as human_error:
        try:
            control = parse_us(text)
        except TimeControlError:
            raise human_error from None
    return require_playable(control, text)


def choose_profile(name: str, control: TimeControl | None) -> RuleProfile:
    """The named profile (``auto``: FIDE 2023 for the control's category), with digital
    input: the terminal only lets legal moves through (Art. 7.5 never arises)."""
    from chessarbiter.clock.category import classify
    from chessarbiter.laws.profiles import InputMode, get_profile

    if name == "auto":
        name = _AUTO_PROFILES[classify(control).value if control is not None else "standard"]
    return replace(get_profile(name), input_mode=InputMode.DIGITAL)


def build(args: argparse.Namespace) -> Play:
    """The game the arguments describe, journalled; ``CommandError`` naming a bad argument."""
    from chessarbiter.arbiter.game import Game
    from chessarbiter.clock.errors import TimeControlError
    from chessarbiter.clock.records import Side
    from chessarbiter.core.errors import ChessError
    from chessarbiter.live.journal import Journal, JournalError
    from chessarbiter.live.play import Play
    from chessarbiter.live.players import EnginePlayer, player_from_spec, start_player
    from chessarbiter.live.session import LiveGame

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
    if args.resume is not None:
        try:
            game, journal, cut = Journal.resume(args.resume)
        except JournalError as exc:
            raise CommandError(f"--resume: {exc}") from None
        if cut:
            print(f"note: {args.resume}: an unfinished last line was dropped")
        pgn = args.resume.with_suffix(".pgn")
    else:
        try:
            control = parse_control(args.tc)
        except TimeControlError as exc:
            raise CommandError(f"--tc: {exc}") from None
        try:
            profile = choose_profile(args.profile, control)
        except ValueError as exc:
            raise CommandError(f"--profile: {exc}") from None
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
        try:
            args.dir.mkdir(parents=True, exist_ok=True)
            journal = Journal.create_unique(args.dir, f"game-{stamp}", game)
        except OSError as exc:
            raise CommandError(f"--dir: {args.dir}: {exc.strerror or exc}") from None
        pgn = journal.path.with_suffix(".pgn")
    live = LiveGame(game, journal=journal)
    return Play(live, engines, spoken=args.accessible, unicode=not args.ascii, pgn_path=pgn)


def run(args: argparse.Namespace) -> int:
    """Play until the game ends and the players quit."""
    from chessarbiter.clock.records import Side

    play = build(args)
    if args.accessible:
        from chessarbiter.tui.accessible import run_accessible

        run_accessible(play)
        return 0
    from chessarbiter.tui.app import GameApp

    people = play.humans()
    orientation = people[0] if people else Side.WHITE
    GameApp(play, orientation=orientation).run()
    print(f"game saved to {play.pgn_path} (journal {play.live.journal and play.live.journal.path})")
    if play.live.game.outcome is not None:
        print(play.live.game.outcome)
    return 0
