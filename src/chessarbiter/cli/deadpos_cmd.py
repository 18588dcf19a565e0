"""``chessarbiter deadpos FEN|- [--side white|black|both] [--mode full|quick] [--budget N]
[--seconds S] [--json] [--jobs N]``: can a side still checkmate (Laws Art. 5.2.2, 6.9)? Per
side asked: the verdict (``winnable``, ``unwinnable`` or ``undetermined``), a helpmate in
SAN when there is one, and the nodes searched. Exit code 0.

With ``-`` for the FEN, positions come from standard input, one FEN or EPD line each (blank
lines and ``#`` comments skipped), and each gets one JSON line, in input order: the fields
of ``--json`` and its line number, or for a line that cannot be analysed its line number and
the reason. ``--jobs N`` analyses them in N processes. The exit code is 2 if any line was
bad (a one-line summary on stderr), else 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from chessarbiter.cli.args import fen_text
from chessarbiter.cli.errors import CommandError

if TYPE_CHECKING:
    from chessarbiter.core.position import Position
    from chessarbiter.laws.deadpos import Verdict

_SIDES = ("white", "black", "both")
CHUNK: Final = 16
"""Lines a worker process analyses per task with ``--jobs``."""


class Query(NamedTuple):
    """What is asked of every position: the sides, the mode and the bounds."""

    side: str
    mode: str
    budget: int | None
    seconds: float | None


def register(subparsers: Any) -> None:
    """Add the ``deadpos`` subcommand."""
    parser = subparsers.add_parser(
        "deadpos", help="decide whether a side can still checkmate (dead positions)"
    )
    parser.add_argument("fen", help="position (FEN, 4-field EPD or startpos), or - to read "
                                    "FEN or EPD lines from standard input (JSON lines out)")
    parser.add_argument("--side", choices=_SIDES, default="both",
                        help="the intended winner (default: both)")
    parser.add_argument("--mode", choices=("full", "quick"), default="full",
                        help="full (complete in practice) or quick (sound, proof-only)")
    parser.add_argument("--budget", type=int, default=None,
                        help="node budget of the helpmate search")
    parser.add_argument("--seconds", type=float, default=None,
                        help="time bound per side analysed (past it: undetermined)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="with -: positions analysed in N processes (default 1)")
    parser.set_defaults(func=run)


def helpmate_san(pos: Position, verdict: Verdict) -> list[str]:
    """The verdict's helpmate line in SAN, played from ``pos`` (left unchanged)."""
    from chessarbiter.notation.san import write_san

    work = type(pos).from_snapshot(pos.snapshot())
    out = []
    for move in verdict.line:
        out.append(write_san(work, move))
        work.push(move)
    return out


def run(args: argparse.Namespace) -> int:
    """Print one verdict per side asked, or one JSON line per input line for ``-``."""
    if args.budget is not None and args.budget < 1:
        raise CommandError("--budget must be 1 or more")
    if args.seconds is not None and not args.seconds >= 0:
        raise CommandError("--seconds must be 0 or more")
    if args.jobs < 1:
        raise CommandError("--jobs must be 1 or more")
    query = Query(args.side, args.mode, args.budget, args.seconds)
    if args.fen == "-":
        return _stream(sys.stdin, query, args.jobs)
    from chessarbiter.core.fen import parse_fen

    report = _report(parse_fen(fen_text(args.fen), lenient=True), query)
    if args.json:
        print(json.dumps(report))
        return 0
    for name, entry in report["sides"].items():
        line = f"{name}: {entry['verdict']} ({entry['reason']}, {entry['nodes']} nodes)"
        if entry["helpmate"]:
            line += " helpmate: " + " ".join(entry["helpmate"])
        print(line)
    return 0


def _report(pos: Position, query: Query) -> dict[str, Any]:
    """The verdicts on ``pos`` as ``--json`` prints them."""
    from chessarbiter.core.squares import Side
    from chessarbiter.laws.deadpos import can_checkmate

    sides: dict[str, Any] = {}
    for side in Side if query.side == "both" else (Side[query.side.upper()],):
        verdict = can_checkmate(
            pos, side, "quick" if query.mode == "quick" else "full", query.budget,
            seconds=query.seconds,
        )
        sides[side.name.lower()] = {
            "verdict": verdict.outcome.value,
            "helpmate": helpmate_san(pos, verdict),
            "nodes": verdict.nodes,
            "reason": verdict.reason,
        }
    return {"fen": pos.fen(), "mode": query.mode, "sides": sides}


def read_position(text: str) -> Position:
    """A FEN (four to six fields) or an EPD line (four fields, then operations)."""
    from chessarbiter.core.fen import parse_epd, parse_fen

    fields = text.split()
    if len(fields) <= 4 or (len(fields) == 6 and fields[4].isdigit() and fields[5].isdigit()):
        return parse_fen(fen_text(text), lenient=True)
    return parse_epd(text)[0]


def analyse_lines(lines: list[tuple[int, str]], query: Query) -> list[dict[str, Any]]:
    """One JSON object per numbered input line: its verdicts, or the reason it was refused."""
    from chessarbiter.core.errors import ChessError

    out: list[dict[str, Any]] = []
    for number, text in lines:
        try:
            out.append({"line": number, **_report(read_position(text), query)})
        except ChessError as exc:
            out.append({"line": number, "error": str(exc)})
    return out


def _numbered(stream: Iterable[str]) -> Iterator[list[tuple[int, str]]]:
    """The input's position lines, numbered from 1, in chunks of :data:`CHUNK`."""
    chunk: list[tuple[int, str]] = []
    for number, text in enumerate(stream, 1):
        text = text.strip()
        if text and not text.startswith("#"):
            chunk.append((number, text))
            if len(chunk) == CHUNK:
                yield chunk
                chunk = []
    if chunk:
        yield chunk


def _stream(stream: Iterable[str], query: Query, jobs: int) -> int:
    """Analyse every line of ``stream``, printing JSON lines in input order; 2 if any was
    bad."""
    bad: list[int] = []
    done = 0
    for results in _results(stream, query, jobs):
        for result in results:
            done += 1
            if "error" in result:
                bad.append(result["line"])
            print(json.dumps(result), flush=jobs > 1)
    if bad:
        print(f"chessarbiter deadpos: error: {len(bad)} of {done} positions refused "
              f"(first at line {bad[0]})", file=sys.stderr)
        return 2
    return 0


def _results(
    stream: Iterable[str], query: Query, jobs: int
) -> Iterator[list[dict[str, Any]]]:
    """Each chunk's results in input order: here, or in ``jobs`` processes with a few chunks
    read ahead."""
    if jobs == 1:
        for chunk in _numbered(stream):
            yield analyse_lines(chunk, query)
        return
    with ProcessPoolExecutor(jobs) as pool:
        pending: deque[Future[list[dict[str, Any]]]] = deque()
        for chunk in _numbered(stream):
            pending.append(pool.submit(analyse_lines, chunk, query))
            if len(pending) > 2 * jobs:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
