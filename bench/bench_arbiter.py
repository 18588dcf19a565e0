"""Benchmark: one move through the arbiter against python-chess's ``push`` + ``outcome()``.

Run: ``.venv/bin/python bench/bench_arbiter.py [--limit N] [--only TEXT]``. Every readable game
of the corpus (``../shared/corpus/pgn``: the lichess samples of ``large/`` and the master games;
``--only`` keeps the files whose path contains the text) is replayed three ways side by side,
all timed on every move, so the machine's load falls on all alike:

* python-chess: ``board.push(move)`` then ``board.outcome()`` (checkmate, stalemate,
  insufficient material, 75 moves, fivefold repetition);
* chessarbiter: ``Game.apply(Moved(...))`` under ``fide-2023`` with a 90+30 clock (legality,
  touch-move, clock press, repetition count, every automatic ending with the dead-position
  check after every move);
* the same without the dead-position check (``dead_check`` answering "not proved dead").

Each move is timed in the order python-chess, arbiter, python-chess (a second board), arbiter
without the check, the two arbiters swapping places from move to move, so every timing
follows the other library's code and each arbiter comes first as often as second. (Code that
runs right after the same code finds it in the processor's caches and looks cheaper, and the
first call after the loop's own work looks dearer, by up to 3 us each on this benchmark's
machine; the rotating order of the three used before made the arbiter without the check,
which mostly ran right after the arbiter, look cheaper than it is, and the arbiter dearer.)
Prints mean, median, 99th percentile and maximum per move for each, and the ratios to
python-chess (both boards' timings). The garbage collector runs between games (every 50),
not while a move is timed (it would bill one side for the other's allocations).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from pathlib import Path

import chess
from rates import build

from chessarbiter.arbiter import ClocksStarted, Game, Moved
from chessarbiter.clock import parse_human
from chessarbiter.core.moves import uci
from chessarbiter.core.position import Position
from chessarbiter.laws.profiles import FIDE_2023
from chessarbiter.notation.game import RecordedGame
from chessarbiter.notation.pgn_reader import read_pgn_file

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "pgn"


def load(limit: int | None, only: str = "") -> list[RecordedGame]:
    """The readable standard-chess games with moves, up to ``limit``, from the files whose
    path contains ``only``."""
    out: list[RecordedGame] = []
    for path in sorted(CORPUS.rglob("*.pgn")):
        if only not in str(path.relative_to(CORPUS)):
            continue
        out += [g for g in read_pgn_file(path) if g.error is None and g.moves and not g.chess960]
        if limit is not None and len(out) >= limit:
            return out[:limit]
    return out


def no_dead_check(pos: Position) -> str | None:
    return None


def run(games: list[RecordedGame]) -> tuple[list[float], list[float], list[float]]:
    """Seconds per move for python-chess, the arbiter, the arbiter without the dead check."""
    control = parse_human("90+30")
    ours: list[float] = []
    bare: list[float] = []
    theirs: list[float] = []
    clock = time.perf_counter
    swap = False
    for number, game in enumerate(games):
        if number % 50 == 0:
            gc.collect()
        full = Game(FIDE_2023, control, fen=game.start_fen)
        lean = Game(FIDE_2023, control, fen=game.start_fen, dead_check=no_dead_check)
        board = chess.Board(game.start_fen)
        other = chess.Board(game.start_fen)
        if full.is_over or lean.is_over:
            continue
        full.apply(ClocksStarted(0))
        lean.apply(ClocksStarted(0))

        push, outcome = board.push, board.outcome
        push_other, outcome_other = other.push, other.outcome
        apply_full, apply_lean = full.apply, lean.apply
        for ply, record in enumerate(game.moves, 1):
            text = uci(record.move)
            move = chess.Move.from_uci(text)
            event = Moved(ply * 1_000, full.to_move, text)
            swap = not swap
            first, second = (apply_lean, apply_full) if swap else (apply_full, apply_lean)
            began = clock()
            push(move)
            outcome()
            theirs.append(clock() - began)
            began = clock()
            first(event)
            after_first = clock() - began
            began = clock()
            push_other(move)
            outcome_other()
            theirs.append(clock() - began)
            began = clock()
            second(event)
            after_second = clock() - began
            ours.append(after_second if swap else after_first)
            bare.append(after_first if swap else after_second)
            if full.is_over or lean.is_over or board.is_game_over():
                break
    return theirs, ours, bare


def _row(name: str, times: list[float], base: list[float] | None) -> str:
    ordered = sorted(times)
    stats = (
        statistics.fmean(ordered),
        statistics.median(ordered),
        ordered[int(0.99 * (len(ordered) - 1))],
        ordered[-1],
    )
    cells = "".join(f"{s * 1e6:>11.1f}" for s in stats)
    if base is None:
        return f"{name:<28}{cells}"
    b = sorted(base)
    refs = (statistics.fmean(b), statistics.median(b), b[int(0.99 * (len(b) - 1))], b[-1])
    ratios = "".join(f"{s / r:>8.2f}x" for s, r in zip(stats, refs, strict=True))
    return f"{name:<28}{cells}   {ratios}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="games to replay (all)")
    parser.add_argument("--only", default="", help="files whose path (under ../shared/corpus/"
                        "pgn) contains this text, e.g. lichess_2016 or fischer")
    args = parser.parse_args()
    games = load(args.limit, args.only)
    gc.disable()
    try:
        theirs, ours, bare = run(games)
    finally:
        gc.enable()
    print(f"{len(games):,} games, {len(ours):,} moves; microseconds per move ({build()})")
    print(f"{'':<28}{'mean':>11}{'median':>11}{'p99':>11}{'max':>11}   ratios to python-chess")
    print(_row("python-chess push+outcome", theirs, None))
    print(_row("chessarbiter apply", ours, theirs))
    print(_row("  without the dead check", bare, theirs))


if __name__ == "__main__":
    main()
