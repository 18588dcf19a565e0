"""``chessarbiter perft [FEN] [DEPTH] [--divide] [--chess960]``: count move-tree leaves; the
node count is the last line of the output. A lone whole number is the depth from the initial
position (``perft 3``); ``startpos`` is the initial position."""

from __future__ import annotations

import argparse
import re
import time
from typing import Any

from chessarbiter.cli.args import fen_text
from chessarbiter.cli.errors import CommandError

MAX_DEPTH = 20
"""The deepest count accepted: a count grows some thirtyfold a ply, so deeper ones never end."""
_DEFAULT_DEPTH = "4"
_NUMBER = re.compile(r"[+-]?[0-9]+")


def register(subparsers: Any) -> None:
    """Add the ``perft`` subcommand."""
    parser = subparsers.add_parser("perft", help="count the leaves of the legal-move tree")
    parser.add_argument("fen", nargs="?", default="startpos",
                        help="position (FEN, 4-field EPD or startpos; default: the initial "
                             "position); a lone number is the depth")
    parser.add_argument("depth", nargs="?", default=None,
                        help=f"plies, 0 to {MAX_DEPTH} (default {_DEFAULT_DEPTH})")
    parser.add_argument("--divide", action="store_true", help="nodes per first move")
    parser.add_argument("--chess960", action="store_true", help="read castling as Chess960")
    parser.add_argument("--strict", action="store_true",
                        help="reject positions that cannot arise in a game")
    parser.set_defaults(func=run)


def _depth(text: str) -> int:
    """The depth argument; ``CommandError`` unless a whole number from 0 to ``MAX_DEPTH``."""
    digits = text.lstrip("0") or "0"
    if not (text.isascii() and text.isdigit()) or len(digits) > 2 or int(digits) > MAX_DEPTH:
        from chessarbiter.core.errors import quoted

        raise CommandError(f"depth {quoted(text, 20)}: expected a whole number from 0 to "
                           f"{MAX_DEPTH} (the maximum)")
    return int(digits)


def run(args: argparse.Namespace) -> int:
    """Print the perft count (and per-move counts with ``--divide``)."""
    fen, depth_text = args.fen, args.depth
    if depth_text is None and _NUMBER.fullmatch(fen.strip()):
        fen, depth_text = "startpos", fen.strip()
    depth = _depth(_DEFAULT_DEPTH if depth_text is None else depth_text)
    from chessarbiter.core.fen import parse_fen
    from chessarbiter.core.perft import divide, perft

    pos = parse_fen(fen_text(fen), chess960=args.chess960, lenient=not args.strict)
    start = time.perf_counter()
    if args.divide:
        total = 0
        for text, nodes in divide(pos, depth, every=_let_signals_in):
            print(f"{text}: {nodes}")
            total += nodes
        print()
    else:
        total = perft(pos, depth, every=_let_signals_in)
    elapsed = time.perf_counter() - start
    rate = f", {total / elapsed:,.0f} nodes/s" if elapsed > 0 else ""
    print(f"# depth {depth}, {elapsed:.3f} s{rate}")
    print(total)
    return 0


def _let_signals_in() -> None:
    """Called by the count now and then: being interpreted, the call is where Python runs a
    pending signal handler even when the count is compiled (Ctrl-C, SIGTERM stop it)."""
