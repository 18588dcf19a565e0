"""The built-in engine's time to a depth along real games: what a change of the search saves
where level 10 plays, not on four positions.

``.venv/bin/python bench/time_to_depth.py [--depth 7] [--games 6] [--skip 200]`` takes
games of the corpus' lichess 2017 sample from the ``--skip``-th on (the self-play openings
are the first ones), and searches every other position from the 10th half-move to the 70th
to ``--depth``, one searcher a game (its table and history carried from move to move, as in
a game); it prints the searches' nodes, CPU seconds and nodes per CPU second.
``bench/search_fingerprint.py`` starts a new searcher on each of its four positions, whose
node counts a change of the move order can move far more than it moves the games'.
"""

from __future__ import annotations

import argparse
import time

from selfplay import DEFAULT_PGN

from chessarbiter.engines import Limits, Searcher
from chessarbiter.engines.builtin import earlier_keys
from chessarbiter.notation.pgn_reader import read_pgn_file

FIRST_PLY = 10
LAST_PLY = 70


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=7)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--skip", type=int, default=200, help="games of the file passed over")
    args = parser.parse_args()
    games = searches = nodes = 0
    cpu = 0.0
    for number, game in enumerate(read_pgn_file(DEFAULT_PGN)):
        if number < args.skip or game.error is not None or len(game.moves) < LAST_PLY + 2:
            continue
        searcher = Searcher()
        pos = game.start_position()
        for ply, record in enumerate(game.moves[:LAST_PLY]):
            if ply >= FIRST_PLY and ply % 2 == 0:
                started = time.process_time()
                result = searcher.search(pos, Limits(depth=args.depth),
                                         history=earlier_keys(pos))
                cpu += time.process_time() - started
                nodes += result.nodes
                searches += 1
            pos.push(record.move)
        games += 1
        if games == args.games:
            break
    print(f"{searches} searches of {games} games to depth {args.depth}: {nodes} nodes, "
          f"{cpu:.2f} CPU s, {nodes / cpu:.0f} nodes per CPU second")


if __name__ == "__main__":
    main()
