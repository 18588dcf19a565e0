"""``chessarbiter uci``: run the built-in engine as a UCI engine on stdin and stdout."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(subparsers: Any) -> None:
    """Add the ``uci`` subcommand."""
    parser = subparsers.add_parser("uci", help="run the built-in engine as a UCI engine")
    parser.set_defaults(func=run)


def _write(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def run(args: argparse.Namespace) -> int:
    """Serve UCI until ``quit`` or the end of input."""
    from chessarbiter.engines.uci_server import UciServer

    UciServer(_write).run(sys.stdin)
    return 0
