"""``chessarbiter check FILE.pgn ...``: an arbiter's audit of recorded games.

For each game: whether every move is legal (and which one is not), whether the Result agrees
with the final position, whether play went on after the game had ended, which draws a player
could have claimed and when, and clock readings the time control cannot explain; then a
summary. ``--json`` prints one JSON object (``games``, ``summary``) for tools. The exit code is
1 when any game breaks the Laws or cannot be read, else 0.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from typing import Any, TextIO

from chessarbiter.cli.check_audit import CLAIM, ERROR, Audit, audit_game
from chessarbiter.notation.letters import LANGUAGES
from chessarbiter.notation.pgn_reader import read_pgn_file

_PROGRESS_EVERY_S = 0.5


def register(subparsers: Any) -> None:
    """Add the ``check`` subcommand."""
    parser = subparsers.add_parser(
        "check", help="audit recorded games (PGN) against the Laws of Chess"
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="PGN files")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    parser.add_argument("--strict", action="store_true",
                        help="read standard PGN and SAN only (default: lenient)")
    parser.add_argument("--letters", choices=sorted(LANGUAGES), default="en",
                        help="piece letters of the scoresheets (Appendix E2; default en)")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show progress on stderr (default: when stderr is a terminal)")
    parser.add_argument("--quiet", action="store_true",
                        help="text output: list only games with errors or warnings")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Audit every game of every file; print text or JSON; 1 if any game breaks the Laws."""
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    audits: list[tuple[str, int, Audit]] = []
    unreadable: list[str] = []
    for path in args.files:
        try:
            for index, audit in enumerate(_audits(path, args, progress), 1):
                audits.append((path, index, audit))
                if not args.json:
                    _print_game(path, index, audit, args.quiet, sys.stdout)
        except OSError as exc:
            unreadable.append(f"{path}: {exc.strerror or exc}")
            print(f"chessarbiter check: error: cannot read {path}: {exc.strerror or exc}",
                  file=sys.stderr)
    summary = _summary(audits, unreadable)
    if args.json:
        json.dump({"games": [_game_json(p, i, a) for p, i, a in audits], "summary": summary},
                  sys.stdout, indent=1, ensure_ascii=False)
        print()
    else:
        _print_summary(summary, sys.stdout)
    return 1 if summary["games_with_errors"] or unreadable else 0


def _audits(path: str, args: argparse.Namespace, progress: bool) -> Iterator[Audit]:
    letters = LANGUAGES[args.letters]
    last = time.monotonic()
    count = 0
    for game in read_pgn_file(path, strict=args.strict, letters=letters):
        yield audit_game(game)
        count += 1
        if progress and time.monotonic() - last > _PROGRESS_EVERY_S:
            last = time.monotonic()
            print(f"\r{path}: {count:,} games", end="", file=sys.stderr, flush=True)
    if progress:
        print(f"\r{path}: {count:,} games", file=sys.stderr, flush=True)


def _title(audit: Audit) -> str:
    tags = audit.game.tags
    event = ", ".join(v for v in (tags.get("Event"), tags.get("Round")) if v and v != "?")
    players = f"{tags.get('White', '?')} - {tags.get('Black', '?')}"
    return f"{players} ({event})" if event else players


def _print_game(path: str, index: int, audit: Audit, quiet: bool, out: TextIO) -> None:
    if quiet and not any(f.severity != CLAIM for f in audit.findings):
        return
    game = audit.game
    status = "ERROR" if audit.errors else "ok"
    ending = f", {audit.ending}" if audit.ending else ""
    print(f"{path}:{game.line}: game {index}: {_title(audit)}: {game.result} "
          f"({audit.plies} plies{ending}) {status}", file=out)
    for finding in audit.findings:
        print(f"  {finding.severity:7} {finding.code}: {finding.message}", file=out)


def _game_json(path: str, index: int, audit: Audit) -> dict[str, Any]:
    game = audit.game
    return {
        "file": path,
        "index": index,
        "line": game.line,
        "tags": game.tags,
        "result": game.result,
        "plies": audit.plies,
        "ending": audit.ending or None,
        "ok": not audit.errors,
        "findings": [
            {"severity": f.severity, "code": f.code, "message": f.message,
             "ply": f.ply or None, "move": f.move or None}
            for f in audit.findings
        ],
    }


def _summary(audits: list[tuple[str, int, Audit]], unreadable: list[str]) -> dict[str, Any]:
    codes: dict[str, int] = {}
    for _, _, audit in audits:
        for finding in audit.findings:
            codes[finding.code] = codes.get(finding.code, 0) + 1
    return {
        "files": len({path for path, _, _ in audits}) + len(unreadable),
        "unreadable_files": unreadable,
        "games": len(audits),
        "games_with_errors": sum(1 for _, _, a in audits if a.errors),
        "games_with_warnings": sum(
            1 for _, _, a in audits if any(f.severity == "warning" for f in a.findings)
        ),
        "claimable_draws": sum(
            1 for _, _, a in audits if any(f.severity == CLAIM for f in a.findings)
        ),
        "findings": dict(sorted(codes.items())),
    }


def _print_summary(summary: dict[str, Any], out: TextIO) -> None:
    print(f"\n{summary['games']} games in {summary['files']} files: "
          f"{summary['games_with_errors']} with errors, "
          f"{summary['games_with_warnings']} with warnings, "
          f"{summary['claimable_draws']} with a claimable draw", file=out)
    for code, count in summary["findings"].items():
        print(f"  {code}: {count}", file=out)
    if summary["games_with_errors"]:
        print(f"{ERROR}: the Laws are broken or a game could not be read", file=out)
