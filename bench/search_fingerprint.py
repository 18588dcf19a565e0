"""The built-in engine's search at a fixed depth on the speed benchmark's positions: the best
move, the score and the node count of each, one line per position.

``.venv/bin/python bench/search_fingerprint.py [--depth 6]``. A change meant only to make
the engine faster must leave these lines as they were (run it before and after, compare).
"""

from __future__ import annotations

import argparse
import time

from bench_engine import POSITIONS

from chessarbiter.core.fen import parse_fen
from chessarbiter.engines import Limits, Searcher


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=6)
    args = parser.parse_args()
    for fen in POSITIONS:
        started = time.process_time()
        result = Searcher().search(parse_fen(fen), Limits(depth=args.depth))
        seconds = time.process_time() - started
        move = parse_fen(fen).uci(result.move) if result.move is not None else "0000"
        print(f"{move} {result.score} {result.nodes} depth {result.depth}  "
              f"({seconds:.2f} CPU s)  {fen}")


if __name__ == "__main__":
    main()
