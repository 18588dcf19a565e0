"""How level 10 comes out of the opening against Stockfish, whatever the machine's load.

``.venv/bin/python bench/opening_quality.py [--games 100] [--moves 15] [--nodes 100000]
[--sf-elo 2000] [--sf-nodes 100000] [--judge-nodes 1000000] [--book FILE | --no-book]
[--start 0] [--out GAMES.jsonl]`` plays the built-in engine's level 10 (in this process,
``--nodes`` nodes a move, about what it searches in the opening at 10 s + 0.1 s on the
compiled build of an idle core; its opening book on: the shipped one or ``--book``)
against Debian's Stockfish with ``UCI_LimitStrength`` at ``UCI_Elo`` ``--sf-elo`` (one
thread, 16 MB hash, ``--sf-nodes`` nodes a move: its strength limit picks the move at
depth 1 + its skill level, depth 7 at 2000, which 100,000 nodes always reach, as at the
clock), from the initial position, level 10 White in the even games and Black in the odd
ones, for ``--moves`` full moves. Then Stockfish at full strength (one thread, 16 MB
hash, ``--judge-nodes`` nodes) scores the last position from level 10's side.

It prints the mean score (centipawns; a mate counts as :data:`CAP`) with its 95%
interval, the median with the interval of its order statistics, the share of games at
:data:`BAD` (-100 cp) or worse with its Wilson interval, and how many of level 10's moves
came from its book. ``--out`` appends a line of JSON a game (the moves, the score, the book
moves), and ``--compare A.jsonl B.jsonl`` prints both files' figures and the difference of
their means (A less B) with its 95% interval, playing nothing. Fixed nodes make the figures
independent of the load: two books are compared by two runs of the same build.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Final

from chessarbiter.core.position import Position
from chessarbiter.engines.book import Book, shipped_book
from chessarbiter.engines.builtin import BuiltinEngine
from chessarbiter.engines.search import Limits
from chessarbiter.engines.uci_client import EngineFailure, UciEngine
from chessarbiter.engines.uci_protocol import read_score

CAP: Final = 1000
"""Scores are capped at +-1000 cp (a mate, or a piece up and more), so that one lost game
weighs like a piece, not like a mate's 100,000."""
BAD: Final = -100
Z95: Final = 1.96


@dataclass(frozen=True, slots=True)
class Summary:
    """The figures of a run: games, mean and its 95% interval, median and its interval,
    games at :data:`BAD` or worse and the Wilson interval of their share."""

    games: int
    mean: float
    mean_margin: float
    median: float
    median_range: tuple[float, float]
    bad: int
    bad_range: tuple[float, float]

    def lines(self) -> list[str]:
        low, high = self.median_range
        share_low, share_high = self.bad_range
        return [
            f"games {self.games}: mean {self.mean:+.1f} +- {self.mean_margin:.1f} cp, "
            f"median {self.median:+.0f} cp (95%: {low:+.0f} to {high:+.0f})",
            f"at {BAD} cp or worse: {self.bad}/{self.games}, {self.bad / self.games:.1%} "
            f"(95%: {share_low:.1%} to {share_high:.1%})",
        ]


@dataclass(frozen=True, slots=True)
class Game:
    """A game: its number, level 10's colour, the moves (UCI), level 10's score at the end
    and how many of its moves came from the book."""

    number: int
    colour: str
    moves: str
    score: int
    book: int


def wilson(hits: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of a share ``hits / n``."""
    share, z2 = hits / n, Z95 ** 2
    centre = (share + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(share * (1 - share) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(centre - half, 0.0), min(centre + half, 1.0)


def summarise(scores: list[int]) -> Summary:
    """The figures of ``scores`` (centipawns from level 10's side, at least two)."""
    n = len(scores)
    ranked = sorted(scores)
    half = Z95 * math.sqrt(n) / 2  # the median's interval: order statistics n/2 -+ half
    low, high = max(math.floor(n / 2 - half), 0), min(math.ceil(n / 2 + half), n - 1)
    bad = sum(1 for s in scores if s <= BAD)
    return Summary(n, statistics.fmean(scores), Z95 * statistics.stdev(scores) / math.sqrt(n),
                   statistics.median(scores), (ranked[low], ranked[high]), bad, wilson(bad, n))


def difference(a: list[int], b: list[int]) -> tuple[float, float]:
    """The difference of the means of ``a`` and ``b`` and its 95% margin (Welch)."""
    margin = Z95 * math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    return statistics.fmean(a) - statistics.fmean(b), margin


def judged(judge: UciEngine, pos: Position, nodes: int, side: int) -> int:
    """Stockfish's score of ``pos`` from ``side``'s point of view, capped at :data:`CAP`."""
    if not pos.legal_moves():  # checkmate or stalemate
        score = -CAP if pos.is_check() else 0
    else:
        answer = judge.play(pos, nodes=nodes)
        if isinstance(answer, EngineFailure):
            raise RuntimeError(f"the judge failed: {answer.detail}")
        found = read_score(answer.info)
        if found is None:
            raise RuntimeError(f"the judge gave no score: {answer.info!r}")
        score = found
    own = score if pos.turn == side else -score
    return max(-CAP, min(CAP, own))


def play_game(number: int, book: Book | None, opponent: UciEngine, judge: UciEngine,
              args: argparse.Namespace) -> Game:
    """One game of ``--moves`` full moves, level 10 White when ``number`` is even; its
    moves, level 10's score at the end and its moves from the book."""
    side = number % 2
    engine = BuiltinEngine(10, seed=number, own_book=book is not None, book=book)
    for uci in (opponent, judge):
        if uci.new_game() is not None:
            raise RuntimeError("Stockfish failed to start a new game")
    pos, moves, from_book = Position(), list[str](), 0
    while len(moves) < 2 * args.moves and pos.legal_moves():
        if pos.turn == side:
            result = engine.choose(pos, limits=Limits(nodes=args.nodes))
            assert result.move is not None
            move, from_book = result.move, from_book + (result.nodes == 0)
        else:
            answer = opponent.play(pos, nodes=args.sf_nodes)
            if isinstance(answer, EngineFailure):
                raise RuntimeError(f"Stockfish failed: {answer.detail}")
            move = answer.move
        moves.append(pos.uci(move))
        pos.push(move)
    score = judged(judge, pos, args.judge_nodes, side)
    return Game(number, "wb"[side], " ".join(moves), score, from_book)


def read_scores(path: Path) -> list[int]:
    """The scores of a file written by ``--out``."""
    return [int(json.loads(line)["score"]) for line in path.read_text().splitlines() if line]


def compare(a: Path, b: Path) -> None:
    """Both runs' figures and the difference of their means."""
    first, second = read_scores(a), read_scores(b)
    for path, scores in ((a, first), (b, second)):
        print(f"{path}:", *summarise(scores).lines(), sep="\n  ")
    gap, margin = difference(first, second)
    print(f"mean of A less mean of B: {gap:+.1f} +- {margin:.1f} cp")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--start", type=int, default=0, help="the first game's number")
    parser.add_argument("--moves", type=int, default=15, help="full moves a game")
    parser.add_argument("--nodes", type=int, default=100_000, help="level 10's, a move")
    parser.add_argument("--sf-elo", type=int, default=2000)
    parser.add_argument("--sf-nodes", type=int, default=100_000)
    parser.add_argument("--judge-nodes", type=int, default=1_000_000)
    parser.add_argument("--book", type=Path, help="a book file instead of the shipped one")
    parser.add_argument("--no-book", action="store_true")
    parser.add_argument("--stockfish", default="stockfish")
    parser.add_argument("--out", type=Path, help="append a JSON line a game")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("A", "B"))
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
        return 0
    book = None if args.no_book else (
        Book.parse(args.book.read_text()) if args.book else shipped_book())
    opponent = UciEngine.start([args.stockfish], options={
        "UCI_LimitStrength": True, "UCI_Elo": args.sf_elo, "Threads": 1, "Hash": 16})
    judge = UciEngine.start([args.stockfish], options={"Threads": 1, "Hash": 16})
    for started in (opponent, judge):
        if isinstance(started, EngineFailure):
            print(f"opening_quality: {started.detail}", file=sys.stderr)
            return 2
    assert isinstance(opponent, UciEngine) and isinstance(judge, UciEngine)
    scores, from_book = [], []
    with opponent, judge:
        for number in range(args.start, args.start + args.games):
            game = play_game(number, book, opponent, judge, args)
            scores.append(game.score)
            from_book.append(game.book)
            print(f"game {number} ({game.colour}): {game.score:+} cp, {game.book} book moves",
                  flush=True)
            if args.out:
                with args.out.open("a") as out:
                    out.write(json.dumps(asdict(game)) + "\n")
    print(*summarise(scores).lines(), sep="\n")
    print(f"level 10's book moves a game: {statistics.fmean(from_book):.1f} "
          f"(from {min(from_book)} to {max(from_book)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
