"""``chessarbiter tournament check FILE.trf [--rules 2025|2017]``: re-pair every round of a
tournament file from the tournament as it was before that round (FIDE Dutch system) and
report each discrepancy: pairs, colours and the pairing-allocated bye.

Exit codes: 0 every round as the rules give it; 1 at least one discrepancy; 2 a bad file
or argument (one stderr line)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from chessarbiter.tournament.trf import Trf

PROG = "chessarbiter tournament check"


def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The ``check`` action's arguments (shown by ``tournament check --help``)."""
    parser.add_argument("file", help="the tournament file (TRF-16 or TRF-2026)")
    parser.add_argument("--rules", choices=("2025", "2017"), default="2025",
                        help="the Dutch rules: 2025 (in force from 2026, default) or 2017")
    parser.add_argument("--quiet", action="store_true", help="print discrepancies only")
    return parser


def read_trf(path: str, prog: str) -> Trf | None:
    """The file at ``path`` read and validated (``trf.validate``: a tournament whose cells
    agree with each other and with the points columns), or ``None`` after one stderr line
    naming the file, the line, the column and the reason."""
    from chessarbiter.tournament.trf import parse, validate

    try:
        with open(path, encoding="latin-1", newline="") as handle:
            trf = parse(handle.read())
        validate(trf)
    except OSError as exc:
        print(f"{prog}: error: {path}: {exc.strerror or exc}", file=sys.stderr)
        return None
    except ValueError as exc:
        print(f"{prog}: error: {path}: {exc}", file=sys.stderr)
        return None
    return trf


def check(path: str, rules: str, quiet: bool = False) -> int:
    """Check every round of the file at ``path``; print a line a round and a summary."""
    from chessarbiter.tournament.swiss import PairingError
    from chessarbiter.tournament.swiss.replay import replay, rounds_of

    trf = read_trf(path, PROG)
    if trf is None:
        return 2
    bad = 0
    total = rounds_of(trf)
    for round_no in range(1, total + 1):
        try:
            result = replay(trf, round_no, rules="2017" if rules == "2017" else "2025")
        except PairingError as exc:
            print(f"round {round_no}: {exc}")
            bad += 1
            continue
        if result.matches:
            if not quiet:
                print(f"round {round_no}: as the rules give it")
            continue
        bad += 1
        recorded, computed = set(result.recorded.boards), set(result.computed.boards)
        missing = sorted(recorded - computed)
        extra = sorted(computed - recorded)
        print(f"round {round_no}: discrepancy")
        if missing or extra:
            print(f"  file (white-black):  {' '.join(f'{w}-{b}' for w, b in missing)}")
            print(f"  rules (white-black): {' '.join(f'{w}-{b}' for w, b in extra)}")
        if result.recorded.bye != result.computed.bye:
            print(f"  bye: file {result.recorded.bye or 'none'}, "
                  f"rules {result.computed.bye or 'none'}")
    print(f"{total - bad} of {total} rounds as the rules give them; {bad} with discrepancies")
    return 1 if bad else 0
