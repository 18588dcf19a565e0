"""``chessarbiter deadpos FEN [--side white|black|both] [--mode full|quick] [--budget N]
[--json]``: can a side still checkmate (Laws Art. 5.2.2, 6.9)? Per side asked: the verdict
(``winnable``, ``unwinnable`` or ``undetermined``), a helpmate in SAN when there is one, and
the nodes searched. Exit code 0."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from chessarbiter.cli.args import fen_text
from chessarbiter.cli.errors import CommandError

if TYPE_CHECKING:
    from chessarbiter.core.position import Position
    from chessarbiter.laws.deadpos import Verdict

_SIDES = ("white", "black", "both")


def register(subparsers: Any) -> None:
    """Add the ``deadpos`` subcommand."""
    parser = subparsers.add_parser(
        "deadpos", help="decide whether a side can still checkmate (dead positions)"
    )
    parser.add_argument("fen", help="position (FEN, 4-field EPD or startpos)")
    parser.add_argument("--side", choices=_SIDES, default="both",
                        help="the intended winner (default: both)")
    parser.add_argument("--mode", choices=("full", "quick"), default="full",
                        help="full (complete in practice) or quick (sound, proof-only)")
    parser.add_argument("--budget", type=int, default=None,
                        help="node budget of the helpmate search")
    parser.add_argument("--json", action="store_true", help="print JSON")
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
    """Print one verdict per side asked."""
    if args.budget is not None and args.budget < 1:
        raise CommandError("--budget must be 1 or more")
    from chessarbiter.core.fen import parse_fen
    from chessarbiter.core.squares import Side
    from chessarbiter.laws.deadpos import can_checkmate

    pos = parse_fen(fen_text(args.fen), lenient=True)
    report: dict[str, Any] = {}
    for side in Side if args.side == "both" else (Side[args.side.upper()],):
        verdict = can_checkmate(pos, side, args.mode, args.budget)
        report[side.name.lower()] = {
            "verdict": verdict.outcome.value,
            "helpmate": helpmate_san(pos, verdict),
            "nodes": verdict.nodes,
            "reason": verdict.reason,
        }
    if args.json:
        print(json.dumps({"fen": pos.fen(), "mode": args.mode, "sides": report}))
        return 0
    for name, entry in report.items():
        line = f"{name}: {entry['verdict']} ({entry['reason']}, {entry['nodes']} nodes)"
        if entry["helpmate"]:
            line += " helpmate: " + " ".join(entry["helpmate"])
        print(line)
    return 0
