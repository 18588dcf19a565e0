"""Build the built-in engine's opening book (``src/chessarbiter/engines/book.txt``) from
real games, each move judged by Stockfish.

``.venv/bin/python bench/build_book.py [PGN...] [--plies 20] [--min-games 5]
[--min-move 2] [--min-elo 1500] [--sf-nodes 200000] [--stockfish PROGRAM] [--out FILE]``
reads the games (by default :data:`SOURCES`, the corpus' real games: the two lichess
samples, the chess.js benchmark's lichess games, Fischer's and Petrosian's games,
Kasparov-Deep Blue 1997 and the 4NCL, CalGames and TWIC extracts of pgn-read), standard
chess from the initial position, each game once. In the first ``--plies`` half-moves it
counts every position reached and the moves played from it by a player rated ``--min-elo``
or more (or of no rating), with the mover's points. A position enters the book when
``--min-games`` such moves were played from it, a move when it was played ``--min-move``
times and in a twentieth of the position's games or more, or when Stockfish finds it best
and it was played at all.

Each book move is judged by Debian's Stockfish at full strength (:func:`judge`: one thread,
16 MB hash, ``--sf-nodes`` nodes a search, the position's best move and score, then each
other book move's score alone, ``searchmoves``): the book keeps how many centipawns it scores
below Stockfish's best, and the levels choose only among moves within their own tolerance
(:mod:`chessarbiter.engines.book`). Stockfish is needed here only: the shipped file is data,
which of the moves people play are sound. The corpus' strong games are too few to go
deeper by strength (29 games between two players rated 2000 or more; the FIDE files of
scalachess hold tags only), so the book goes deeper by frequency.

With the defaults (2026-11-28, Debian's Stockfish 15.1): 38 PGN files, 5,182 games, 796
positions and 1,729 moves (1,225 within 30 cp of Stockfish's best; 110 of them Stockfish's
best, played too rarely to count otherwise), judged in 644 s on one core (the other core
busy); the file is 69 KB.

A line of the file: the position (:func:`chessarbiter.engines.book.book_key`), a tab, and
its moves ``uci:games:points:loss`` separated by spaces, most played first; ``#`` lines are
comments. The corpus is not on users' machines: the file is shipped, this script rebuilds it.
"""

from __future__ import annotations

import argparse
import shutil
import time
from collections import defaultdict
from pathlib import Path

import chess
import chess.engine

from chessarbiter.core.position import STARTING_FEN, Position
from chessarbiter.engines.book import BOOK_FILE, book_key
from chessarbiter.notation.pgn_reader import read_pgn_file

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "pgn"
SOURCES = (
    "large/lichess_2016-05_sample.pgn",
    "large/lichess_2017-05_sample_clk.pgn",
    "chess.js/benchmark.pgn",
    "pgn-extract/fischer.pgn",
    "pgn-extract/petrosian.pgn",
    "python-chess/kasparov-deep-blue-1997.pgn",
    "pgn-read/4ncl_*.pgn",
    "pgn-read/all_4ncl_*.pgn",
    "pgn-read/calgames_*.pgn",
    "pgn-read/twic9[25]n_*.pgn",
)
POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


def source_files() -> list[Path]:
    """The corpus files of :data:`SOURCES`."""
    return [path for pattern in SOURCES for path in sorted(CORPUS.glob(pattern))]


def elo(tags: dict[str, str], name: str) -> int | None:
    """A rating tag's value (``None`` when missing or not a number)."""
    value = tags.get(name, "")
    return int(value) if value.isdigit() else None


def count(paths: list[Path], plies: int, min_elo: int) -> dict[str, dict[str, list[float]]]:
    """Per position (its book key) and move (UCI): [times played, the mover's points]."""
    table: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    seen: set[tuple[str, ...]] = set()
    for path in paths:
        for game in read_pgn_file(path):
            if game.start_fen != STARTING_FEN or game.chess960 or game.result not in POINTS:
                continue
            moves = game.mainline()
            if len(moves) < 10:
                continue
            pos = Position()
            line = tuple(pos.uci(m) for m in moves[:40])
            if line in seen:  # the same game in two files
                continue
            seen.add(line)
            ratings = (elo(game.tags, "WhiteElo"), elo(game.tags, "BlackElo"))
            for move in moves[:plies]:
                mover = pos.colour_to_move()
                rating = ratings[mover]
                if rating is None or rating >= min_elo:
                    entry = table[book_key(pos)][pos.uci(move)]
                    entry[0] += 1
                    entry[1] += POINTS[game.result][mover]
                pos.push(move)
    return table


def select(table: dict[str, dict[str, list[float]]], min_games: int,
           min_move: int) -> dict[str, list[tuple[str, int, float]]]:
    """The positions and moves that enter the book (module docstring), most played first."""
    book = {}
    for key, moves in table.items():
        total = sum(n for n, _ in moves.values())
        if total < min_games:
            continue
        kept = sorted(((m, int(n), pts) for m, (n, pts) in moves.items()
                       if n >= min_move and 20 * n >= total), key=lambda e: (-e[1], e[0]))
        if kept:
            book[key] = kept
    return book


def judge(engine: chess.engine.SimpleEngine, key: str, moves: list[str],
          nodes: int) -> tuple[str, dict[str, int]]:
    """Stockfish's best move in the position ``key`` and each of ``moves``' centipawns below
    it: the best move's score in a search of ``nodes`` nodes against the score of the same
    search restricted to the move (0 for the best move itself, and never below 0)."""
    board = chess.Board(key + " 0 1")
    limit = chess.engine.Limit(nodes=nodes)
    found = engine.analyse(board, limit)
    best = found["pv"][0].uci()
    top = found["score"].relative.score(mate_score=100_000)
    loss = {}
    for text in moves:
        if text == best:
            loss[text] = 0
            continue
        alone = engine.analyse(board, limit, root_moves=[chess.Move.from_uci(text)])
        loss[text] = max(top - alone["score"].relative.score(mate_score=100_000), 0)
    return best, loss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="*", type=Path)
    parser.add_argument("--plies", type=int, default=20)
    parser.add_argument("--min-games", type=int, default=5)
    parser.add_argument("--min-move", type=int, default=2)
    parser.add_argument("--min-elo", type=int, default=1500)
    parser.add_argument("--sf-nodes", type=int, default=200_000)
    parser.add_argument("--stockfish", default=None, help="the program (default: stockfish)")
    parser.add_argument("--out", type=Path, default=BOOK_FILE)
    args = parser.parse_args()
    program = args.stockfish or shutil.which("stockfish") or shutil.which(
        "stockfish", path="/usr/games")
    if program is None:
        raise SystemExit("build_book: stockfish not found (Debian: apt-get install stockfish)")
    paths = args.pgn or source_files()
    table = count(paths, args.plies, args.min_elo)
    book = select(table, args.min_games, args.min_move)
    lines, started = [], time.monotonic()
    with chess.engine.SimpleEngine.popen_uci(program) as engine:
        engine.configure({"Threads": 1, "Hash": 16})
        for number, (key, moves) in enumerate(sorted(book.items()), 1):
            best, loss = judge(engine, key, [m for m, _, _ in moves], args.sf_nodes)
            if best not in loss and best in table[key]:  # played, if rarely: the book's too
                games, points = table[key][best]
                moves.append((best, int(games), points))
                moves.sort(key=lambda e: (-e[1], e[0]))
                loss[best] = 0
            lines.append(key + "\t" + " ".join(f"{m}:{n}:{pts:g}:{loss[m]}"
                                               for m, n, pts in moves))
            print(f"\r{number}/{len(book)} positions judged", end="", flush=True)
    print(f" in {time.monotonic() - started:.0f} s")
    header = [
        "# The built-in engine's opening book: bench/build_book.py (see its docstring).",
        f"# {len(paths)} PGN files of the corpus' real games, the first {args.plies} plies;"
        f" positions with {args.min_games}+ counted moves, moves played {args.min_move}+"
        f" times, movers rated {args.min_elo}+ or unrated; loss judged by Stockfish at"
        f" {args.sf_nodes} nodes.",
        "# position<TAB>uci:games:points:loss ...",
    ]
    args.out.write_text("\n".join(header + lines) + "\n")
    print(f"{len(book)} positions, {sum(len(m) for m in book.values())} moves -> {args.out}")


if __name__ == "__main__":
    main()
