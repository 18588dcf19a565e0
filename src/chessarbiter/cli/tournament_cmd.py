"""``chessarbiter tournament``: the tournament director's commands on a tournament kept in
the SQLite game database (``--db``, default ``games/games.sqlite``):

    create NAME    a tournament (--system, --rounds, --tiebreaks, --scoring, ...); prints its id
    add NAME       register a player (--rating, --title, ...); a late entry once paired
    withdraw P     not paired from the next round on (P: start number or name)
    bye P          a requested bye in the next round (--round, --points half|zero|full)
    pair [FILE]    pair the next round (Berger tables / FIDE Dutch or Burstein system) and
                   print it; with a TRF FILE, that file's next round (-o OUT: written into
                   the file; --dutch / --burstein: the system, default the file's)
    import FILE    a TRF file's Swiss tournament into the database, to continue it
    result R B RES the result of board B of round R (1-0, 0-1, =, ½, +-, -+, --)
    pairings [R]   print a round (default the last)
    standings      the ranking with the tie-breaks
    crosstable     the results grid (round robin) or wall chart (Swiss)
    export         --trf FILE (TRF-16, or --trf2026) and/or --pgn FILE (--round R)
    list           the tournaments of the database
    check FILE     re-pair every round of a TRF file and report each discrepancy

``--id`` names the tournament (default: the database's latest).
"""

from __future__ import annotations

import argparse
import os
import sys
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from chessarbiter.cli.args import OneLineParser
from chessarbiter.cli.errors import CommandError
from chessarbiter.cli.tournament_check import add_arguments

if TYPE_CHECKING:
    from chessarbiter.store.tournaments import TournamentStore
    from chessarbiter.tournament.log import Tournament

DEFAULT_DB = "games/games.sqlite"
CLOSED_PIPE = 141
"""The exit code when standard output is closed early: 128 + SIGPIPE, as a shell reports a
program that a closed pipe stopped."""
RESULT_ALIASES = {"½-½": "1/2-1/2", "=": "1/2-1/2", "½": "1/2-1/2", "1/2": "1/2-1/2",
                  "0.5-0.5": "1/2-1/2", "1:0": "1-0", "0:1": "0-1", "+:-": "+-", "-:+": "-+",
                  "-:-": "--"}
DASHED = ("-+", "--", "-:+", "-:-")
"""Results that start with a dash, which argparse would take for options."""
RESULT_WORD = "result:"
"""How :class:`_ActionParser` hands a dashed result to argparse (as a positional)."""


class _ActionParser(OneLineParser):
    """The parser of one ``tournament`` action; ``result`` takes results that start with a
    dash (``-+``, ``--``) as the director types them: the last such word is the result,
    and a ``--`` just before it (the end-of-options marker) is dropped."""

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        if args is not None and self.prog.endswith(" result"):
            words = list(args)
            dashed = [i for i, word in enumerate(words) if word in DASHED]
            if dashed:
                last = dashed[-1]
                words[last] = RESULT_WORD + words[last]
                if last > 0 and words[last - 1] == "--":
                    del words[last - 1]
                args = words
        return super().parse_known_args(args, namespace)


def register(subparsers: Any) -> None:
    """Add the ``tournament`` subcommand and its actions."""
    parser = subparsers.add_parser("tournament", help="run a tournament: pairings, results, "
                                   "standings, TRF")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION",
                                    parser_class=_ActionParser)

    def action(name: str, text: str) -> argparse.ArgumentParser:
        sub: argparse.ArgumentParser = actions.add_parser(name, help=text)
        if name != "check":
            sub.add_argument("--db", default=DEFAULT_DB,
                             help=f"the SQLite database (default {DEFAULT_DB})")
        if name not in ("create", "list", "check"):
            sub.add_argument("--id", type=int, dest="tournament",
                             help="tournament id (default: the latest)")
        sub.set_defaults(func=run)
        return sub

    create = action("create", "create a tournament")
    create.add_argument("name")
    create.add_argument("--system", choices=("swiss", "burstein", "roundrobin", "double"),
                        default="swiss", help="swiss: FIDE Dutch; burstein: a Swiss paired "
                        "by the FIDE Burstein system; roundrobin, double: Berger tables")
    create.add_argument("--rounds", type=int, help="rounds of a Swiss")
    create.add_argument("--tiebreaks", default="",
                        help="comma-separated, most significant first (e.g. BH-C1,BH,SB; "
                             "default BH-C1,BH,SB for a Swiss, SB,DE,WIN for a round robin)")
    create.add_argument("--scoring", default="",
                        help="points per result, e.g. W=3,D=1 (W D L + - F H U Z)")
    create.add_argument("--initial-colour", choices=("white", "black"), default="white",
                        help="the top seed's colour in round 1")
    create.add_argument("--acceleration", choices=("baku",), help="Baku acceleration")
    create.add_argument("--rules", choices=("2025", "2017"), default="2025",
                        help="FIDE Dutch rules' edition")
    create.add_argument("--unplayed", choices=("2024", "2023", "virtual", "dummy"),
                        default="2024",
                        help="unplayed rounds in tie-breaks: FIDE C.07 Art. 16 as applied "
                             "from 1 April 2024 (default; 'dummy' is its former name), the "
                             "2023 text, or the earlier virtual opponent")
    add = action("add", "register a player")
    add.add_argument("name")
    add.add_argument("--rating", type=int, default=0)
    add.add_argument("--title", default="")
    add.add_argument("--federation", default="")
    add.add_argument("--fide-id", default="")
    add.add_argument("--birth", default="")
    add.add_argument("--sex", default="")
    withdraw = action("withdraw", "withdraw a player from the next round on")
    withdraw.add_argument("player", help="start number or name")
    bye = action("bye", "a requested bye")
    bye.add_argument("player", help="start number or name")
    bye.add_argument("--round", type=int, help="default: the next round")
    bye.add_argument("--points", choices=("half", "zero", "full"), default="half")
    pair = action("pair", "pair the next round (of the database's tournament, or of a TRF "
                          "file)")
    pair.add_argument("file", nargs="?", help="a TRF file: pair its next round instead")
    pair.add_argument("-o", "--output", type=Path,
                      help="with FILE: write the file with the round in it (results blank)")
    pair.add_argument("--rules", choices=("2025", "2017"), default="2025",
                      help="with FILE: the Dutch rules' edition")
    chosen = pair.add_mutually_exclusive_group()
    chosen.add_argument("--dutch", dest="pairing", action="store_const", const="dutch",
                        help="with FILE: pair by the FIDE Dutch system (default: the system "
                        "the file names, else Dutch)")
    chosen.add_argument("--burstein", dest="pairing", action="store_const",
                        const="burstein", help="with FILE: pair by the FIDE Burstein system")
    imported = action("import", "import a TRF file's Swiss tournament, to continue it")
    imported.add_argument("file", help="the TRF file (TRF-16 or TRF-2026)")
    imported.add_argument("--name", help="the tournament's name (default: the file's 012)")
    imported.add_argument("--tiebreaks", default="BH-C1,BH,SB",
                          help="comma-separated, most significant first")
    result = action("result", "enter or correct a result")
    result.add_argument("round", type=int)
    result.add_argument("board", type=int)
    result.add_argument("result", help="1-0, 0-1, = (also ½, 1/2, 1/2-1/2), +- (White wins "
                                       "by forfeit), -+ (Black does), -- (both forfeit)")
    shown = action("pairings", "print a round's pairings")
    shown.add_argument("round", type=int, nargs="?")
    action("standings", "the standings with tie-breaks")
    action("crosstable", "the crosstable")
    export = action("export", "write the tournament as TRF and a round as PGN")
    export.add_argument("--trf", type=Path, help="TRF file to write")
    export.add_argument("--trf2026", action="store_true", help="TRF-2026 records")
    export.add_argument("--pgn", type=Path, help="PGN file for a round's games")
    export.add_argument("--round", type=int, help="the round for --pgn (default: the last)")
    action("list", "list the tournaments")
    add_arguments(action("check", "re-pair every round of a TRF file and report "
                                  "discrepancies"))


def run(args: argparse.Namespace) -> int:
    """Run the action; a bad argument or a refused event is one line, exit code 2; a
    closed standard output ends it quietly with :data:`CLOSED_PIPE`."""
    try:
        code = _run(args)
        sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
        return code
    except BrokenPipeError:  # the reader went away (``check ... | head``): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return CLOSED_PIPE


def _run(args: argparse.Namespace) -> int:
    if args.action == "check":
        from chessarbiter.cli.tournament_check import check

        return check(args.file, args.rules, args.quiet)
    try:
        if args.action == "pair" and args.file is not None:
            return _pair_file(args)
        return _run_store(args)
    except _Reported:
        return 2


def _run_store(args: argparse.Namespace) -> int:
    from chessarbiter.store import StoreError
    from chessarbiter.store.tournaments import TournamentStore

    try:
        store = TournamentStore(Path(args.db))
    except StoreError as exc:
        raise CommandError(f"--db: {exc}") from None
    try:
        return _ACTIONS[args.action](store, args)
    except (StoreError, ValueError) as exc:
        if isinstance(exc, CommandError):
            raise
        raise CommandError(str(exc)) from None
    finally:
        store.close()


def _load(store: TournamentStore, args: argparse.Namespace) -> Tournament:
    from chessarbiter.tournament.log import Tournament

    number = args.tournament
    if number is None:
        known = store.tournaments()
        if not known:
            raise CommandError(f"--db: {args.db}: no tournament (create one first)")
        number = known[-1].tournament_id
    return Tournament.load(store, number)


def _scoring(text: str) -> Any:
    from chessarbiter.tournament.records import Scoring

    keys = {"W": "win", "D": "draw", "L": "loss", "+": "forfeit_win", "-": "forfeit_loss",
            "F": "full_bye", "H": "half_bye", "U": "pairing_bye", "Z": "zero_bye"}
    values: dict[str, Fraction] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, equals, value = item.partition("=")
        if not equals or key.upper() not in keys:
            raise CommandError(f"--scoring: {item!r}: expected CODE=POINTS with CODE one of "
                               + " ".join(keys))
        try:
            values[keys[key.upper()]] = Fraction(value)
        except (ValueError, ZeroDivisionError):
            raise CommandError(f"--scoring: {item!r}: points {value!r} is not a number") \
                from None
    return Scoring(**values)


def _create(store: TournamentStore, args: argparse.Namespace) -> int:
    from chessarbiter.clock import Side
    from chessarbiter.tournament.events import Settings, System
    from chessarbiter.tournament.log import Tournament
    from chessarbiter.tournament.tiebreaks import Unplayed

    burstein = args.system == "burstein"
    system = System.SWISS if burstein else System(args.system)
    default = "BH-C1,BH,SB" if system is System.SWISS else "SB,DE,WIN"
    tiebreaks = tuple(t.strip() for t in (args.tiebreaks or default).split(",") if t.strip())
    settings = Settings(args.name, system, args.rounds, _scoring(args.scoring), tiebreaks,
                        Side.WHITE if args.initial_colour == "white" else Side.BLACK,
                        args.acceleration, args.rules, Unplayed(args.unplayed),
                        "burstein" if burstein else "dutch")
    try:
        tournament = Tournament.create(store, settings)
    except ValueError as exc:
        raise CommandError(f"create: {exc}") from None
    print(tournament.tournament_id)
    return 0


def _add(store: TournamentStore, args: argparse.Namespace) -> int:
    from chessarbiter.tournament.events import Registered

    tournament = _load(store, args)
    tournament.apply(Registered(args.name, args.rating, args.title, args.federation,
                                args.fide_id, args.birth, args.sex))
    starts = tournament.state.start_numbers()
    print(f"{args.name}: start number {starts[len(tournament.state.players)]}")
    return 0


def _withdraw(store: TournamentStore, args: argparse.Namespace) -> int:
    from chessarbiter.tournament.events import Withdrawn

    tournament = _load(store, args)
    number = tournament.state.find(args.player)
    tournament.apply(Withdrawn(number, tournament.state.paired + 1))
    print(f"{tournament.state.players[number].name}: withdrawn from round "
          f"{tournament.state.paired + 1}")
    return 0


def _bye(store: TournamentStore, args: argparse.Namespace) -> int:
    from chessarbiter.tournament.events import ByeRequested
    from chessarbiter.tournament.records import Code

    tournament = _load(store, args)
    number = tournament.state.find(args.player)
    round_no = args.round if args.round is not None else tournament.state.paired + 1
    code = {"half": Code.HALF_BYE, "zero": Code.ZERO_BYE, "full": Code.FULL_BYE}[args.points]
    tournament.apply(ByeRequested(number, round_no, code))
    print(f"{tournament.state.players[number].name}: {args.points}-point bye in round "
          f"{round_no}")
    return 0


def _read_trf(path: str) -> Any:
    from chessarbiter.cli.tournament_check import read_trf

    trf = read_trf(path, "chessarbiter tournament")
    if trf is None:
        raise _Reported
    return trf


class _Reported(Exception):
    """The error line is printed already: exit code 2."""


def _pair_file(args: argparse.Namespace) -> int:
    from chessarbiter.cli.tournament_text import pairings
    from chessarbiter.tournament.records import Code
    from chessarbiter.tournament.swiss import PairingError
    from chessarbiter.tournament.swiss.replay import first_unpaired_round, pair_next, with_round
    from chessarbiter.tournament.trf import dump

    trf = _read_trf(args.file)
    try:
        pairing = pair_next(trf, rules=args.rules, system=args.pairing)
    except (PairingError, ValueError) as exc:
        raise CommandError(f"{args.file}: {exc}") from None
    round_no = first_unpaired_round(trf)
    entrants = {p.entrant.start: p.entrant for p in trf.players}
    boards = [(entrants[w], entrants[b], "") for w, b in pairing.boards]
    paired = {p for board in pairing.boards for p in board} | {pairing.bye}
    written = with_round(trf, pairing)
    others = [(entrants[p.entrant.start], p.cells[round_no - 1].code) for p in written.players
              if p.entrant.start not in paired and p.cells[round_no - 1].code is not Code.NONE]
    bye = None if pairing.bye is None else entrants[pairing.bye]
    if args.output is not None:  # first: a reader leaving early does not lose the file
        _write(args.output, "--output", dump(written), "")
    print(pairings(round_no, boards, bye, others))
    return 0


def _import(store: TournamentStore, args: argparse.Namespace) -> int:
    from chessarbiter.tournament.director import import_events
    from chessarbiter.tournament.events import Created
    from chessarbiter.tournament.log import Tournament, replay

    trf = _read_trf(args.file)
    tiebreaks = tuple(t.strip() for t in args.tiebreaks.split(",") if t.strip())
    events = import_events(trf, name=args.name, tiebreaks=tiebreaks)
    state = replay(events)  # the whole log checked before anything is written
    created = events[0]
    assert isinstance(created, Created)
    tournament = Tournament.create(store, created.settings)
    for event in events[1:]:
        tournament.apply(event)
    print(f"{tournament.tournament_id}: {state.settings.name}, {len(state.players)} players, "
          f"{state.paired} of {state.total_rounds} rounds paired")
    return 0


def _pair(store: TournamentStore, args: argparse.Namespace) -> int:
    from chessarbiter.tournament.director import pair_next

    tournament = _load(store, args)
    for event in pair_next(tournament.state):
        tournament.apply(event)
    print(_round_text(tournament, tournament.state.paired))
    return 0


def _round_text(tournament: Tournament, round_no: int) -> str:
    from chessarbiter.cli.tournament_text import pairings

    state = tournament.state
    entrants = {e.start: e for e in state.entrants()}
    starts = state.start_numbers()
    game_round = state.rounds[round_no - 1]
    boards = [(entrants[starts[w]], entrants[starts[b]], game_round.results.get(w, ""))
              for w, b in game_round.boards]
    bye = None if game_round.bye is None else entrants[starts[game_round.bye]]
    cells = state.cells()
    others = [(entrants[start], cs[round_no - 1].code) for start, cs in sorted(cells.items())
              if cs[round_no - 1].opponent is None and start != (bye.start if bye else None)
              and cs[round_no - 1].code.value.strip()]
    return pairings(round_no, boards, bye, others)


def _result(store: TournamentStore, args: argparse.Namespace) -> int:
    from chessarbiter.tournament.events import ResultEntered

    tournament = _load(store, args)
    state = tournament.state
    if not 1 <= args.round <= state.paired:
        raise CommandError(f"round {args.round}: not paired (rounds 1-{state.paired})")
    boards = state.rounds[args.round - 1].boards
    if not 1 <= args.board <= len(boards):
        raise CommandError(f"board {args.board}: round {args.round} has boards "
                           f"1-{len(boards)}")
    white, black = boards[args.board - 1]
    typed = args.result.removeprefix(RESULT_WORD)
    text = RESULT_ALIASES.get(typed, typed)
    tournament.apply(ResultEntered(args.round, white, text))
    print(f"round {args.round} board {args.board}: {state.players[white].name} {text} "
          f"{state.players[black].name}")
    stale: dict[str, list[int]] = {}
    for later, used in state.paired_with(args.round, white).items():
        if used is not None and used != text:
            stale.setdefault(used, []).append(later)
    for used, rounds in stale.items():
        many = len(rounds) > 1
        print(f"note: round{'s' if many else ''} {', '.join(map(str, rounds))} "
              f"{'were' if many else 'was'} paired with this game at {used}")
    return 0


def _pairings(store: TournamentStore, args: argparse.Namespace) -> int:
    tournament = _load(store, args)
    paired = tournament.state.paired
    round_no = paired if args.round is None else args.round
    if not 1 <= round_no <= paired:
        raise CommandError(f"round {round_no}: not paired (rounds 1-{paired})")
    print(_round_text(tournament, round_no))
    return 0


def _standings(store: TournamentStore, args: argparse.Namespace) -> int:
    from chessarbiter.cli.tournament_text import standings_table
    from chessarbiter.tournament.director import ranking

    state = _load(store, args).state
    print(standings_table(ranking(state), state.settings.tiebreaks))
    return 0


def _crosstable(store: TournamentStore, args: argparse.Namespace) -> int:
    from chessarbiter.cli.tournament_text import grid, wall_chart
    from chessarbiter.tournament.director import ranking

    state = _load(store, args).state
    render = grid if state.round_robin else wall_chart
    print(render(ranking(state), state.cells()))
    return 0


def _export(store: TournamentStore, args: argparse.Namespace) -> int:
    from chessarbiter.tournament.director import round_pgn, trf_text

    if args.trf is None and args.pgn is None:
        raise CommandError("export: give --trf FILE and/or --pgn FILE")
    state = _load(store, args).state
    writes: list[tuple[Path, str, str, str | None]] = []
    if args.trf is not None:
        writes.append((args.trf, "--trf", trf_text(state, trf2026=args.trf2026), ""))  # CR
    if args.pgn is not None:
        round_no = state.paired if args.round is None else args.round
        writes.append((args.pgn, "--pgn", round_pgn(state, round_no), None))
    for path, option, text, newline in writes:
        _write(path, option, text, newline)
    return 0


def _write(path: Path, option: str, text: str, newline: str | None) -> None:
    """Write a file the command was asked for; one line naming the option if it fails."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", encoding="utf-8", newline=newline) as out:
            out.write(text)
    except OSError as exc:
        raise CommandError(f"{option}: {path}: {exc.strerror or exc}") from None
    print(f"wrote {path}", file=sys.stderr)


def _list(store: TournamentStore, args: argparse.Namespace) -> int:
    for info in store.tournaments():
        print(f"{info.tournament_id:4d}  {info.name}  ({info.events} events)")
    return 0


_ACTIONS = {"create": _create, "add": _add, "withdraw": _withdraw, "bye": _bye, "pair": _pair,
            "result": _result, "pairings": _pairings, "standings": _standings,
            "crosstable": _crosstable, "export": _export, "list": _list, "import": _import}
