"""``chessarbiter check FILE.pgn ...``: an arbiter's audit of recorded games.

For each game: whether every move is legal (and which one is not), whether the Result agrees
with the final position, whether play went on after the game had ended (void moves when the
result is the one the end gives), which draws a player could have claimed and when, and
clock readings the time control cannot explain; then a summary. ``--json`` prints one JSON
object (``games``, ``summary``) for tools. The exit code is 1 when any game breaks the Laws
or cannot be read, 2 when a file cannot be opened or holds no PGN at all (compressed, binary,
JSON, a text with no game: nothing is audited), else 0.

Files are read as streams (memory stays flat on databases of any size); with ``--jobs N``
parts of whole games are audited in N processes, the output staying in file order and the
same as with ``--jobs 1``.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from chessarbiter.cli.errors import CommandError


def register(subparsers: Any) -> None:
    """Add the ``check`` subcommand."""
    parser = subparsers.add_parser(
        "check", help="audit recorded games (PGN) against the Laws of Chess"
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="PGN files")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    parser.add_argument("--strict", action="store_true",
                        help="read standard PGN and SAN only (default: lenient)")
    parser.add_argument("--letters", default="en", metavar="LANG",
                        help="piece letters of the scoresheets (Appendix E2; default en; an "
                             "unknown code lists the others)")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show progress on stderr (default: when stderr is a terminal)")
    parser.add_argument("--quiet", action="store_true",
                        help="text output: list only games with errors or warnings")
    parser.add_argument("--jobs", type=_jobs, default=os.cpu_count() or 1, metavar="N",
                        help="processes auditing in parallel (default: the cores); the "
                             "output is the same for every N")
    parser.set_defaults(func=run)


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"invalid --jobs {text!r}: expected a whole number >= 1")
    return value


def run(args: argparse.Namespace) -> int:
    """Audit every game of every file (see ``check_run``); ``CommandError`` for a file that
    cannot be opened or holds no PGN, or unknown ``--letters``, before any game is audited."""
    from chessarbiter.cli.check_parts import Options
    from chessarbiter.cli.check_run import audit_files
    from chessarbiter.cli.check_sniff import not_pgn
    from chessarbiter.notation.letters import LANGUAGES

    if args.letters not in LANGUAGES:
        raise CommandError(f"--letters {args.letters!r}: expected one of "
                           f"{', '.join(sorted(LANGUAGES))}")
    options = Options(strict=args.strict, letters=args.letters)
    for path in args.files:
        try:
            why = not_pgn(path, options)
        except OSError as exc:
            raise CommandError(f"{path}: cannot read: {exc.strerror or exc}") from None
        if why is not None:
            raise CommandError(f"{path}: not PGN: {why}")
    return audit_files(args)
