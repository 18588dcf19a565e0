"""Notation against python-chess, side by side in one process (issue: notation and PGN).

Run: ``.venv/bin/python bench/bench_notation.py [--repeats N]``. Reads the corpus's real-game
PGN files (the valid ones: MANIFEST.tsv rows without errors, plus both ``large/`` files) from
memory with both libraries: full games with every move checked, then tags only; then SAN
parsing and writing over the same games. Prints the median rate of each over N repeats and
the ratio (chessarbiter / python-chess). Tags only is also timed per kind of file, the two
libraries in alternation: lichess games with ``%clk`` comments, lichess games without, and
master games (pgn-extract's and chessops' collections of tournament games).
"""

from __future__ import annotations

import argparse
import csv
import io
from functools import partial
from pathlib import Path

import chess
import chess.pgn
from rates import compare, rate

from chessarbiter.core.moves import Move
from chessarbiter.core.position import Position
from chessarbiter.notation.pgn_reader import read_pgn
from chessarbiter.notation.san import SanReader, write_san

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "pgn"


def corpus_texts() -> list[str]:
    """The valid real-game files: no read errors per the manifest, and moves."""
    with (CORPUS / "MANIFEST.tsv").open() as stream:
        rows = list(csv.DictReader(stream, delimiter="\t"))
    paths = [r["path"] for r in rows if r["games_with_errors"] == "0" and int(r["plies"]) > 0
             and r["path"].endswith(".pgn") and "tricky" not in r["path"]
             and int(r["result_other"]) == 0]
    return [(CORPUS / p).read_text(encoding="utf-8-sig") for p in paths]


KINDS = {
    "lichess games with %clk": ["large/lichess_2017-05_sample_clk.pgn"],
    "lichess games": ["large/lichess_2016-05_sample.pgn"],
    "master games": ["pgn-extract/fischer.pgn", "pgn-extract/petrosian.pgn",
                     "pgn-extract/najdorf.pgn", "chessops/kasparov-deep-blue-1997.pgn"],
}
"""Real files of each kind, for the tags-only rows."""


def header_rows(repeats: int) -> list[tuple[str, float, float]]:
    """Tags only per kind of file; small sets are read several times per timing."""
    rows = []
    for kind, paths in KINDS.items():
        texts = [(CORPUS / p).read_text(encoding="utf-8-sig") for p in paths]
        texts *= max(1, 2_000_000 // sum(len(t) for t in texts))
        ours, theirs = compare(partial(ours_headers, texts), partial(theirs_headers, texts),
                               repeats)
        rows.append((f"PGN headers only, {kind} (games/s)", ours, theirs))
    return rows


def ours_full(texts: list[str]) -> int:
    return sum(1 for text in texts for _ in read_pgn(io.StringIO(text)))


def ours_headers(texts: list[str]) -> int:
    return sum(1 for text in texts for _ in read_pgn(io.StringIO(text), headers_only=True))


def theirs_full(texts: list[str]) -> int:
    games = 0
    for text in texts:
        stream = io.StringIO(text)
        while chess.pgn.read_game(stream) is not None:
            games += 1
    return games


def theirs_headers(texts: list[str]) -> int:
    games = 0
    for text in texts:
        stream = io.StringIO(text)
        while chess.pgn.read_headers(stream) is not None:
            games += 1
    return games


def san_rows(texts: list[str], repeats: int) -> list[tuple[str, float, float]]:
    """SAN parse (text -> legal move, then played) and write (move -> SAN, then played)."""
    games = [g for text in texts[:40] for g in read_pgn(io.StringIO(text)) if g.error is None]
    games = [g for g in games if not g.chess960][:400]
    ours = [(g.start_fen, [r.move for r in g.moves]) for g in games]
    texts_by_game = []
    for fen, moves in ours:
        pos = Position(fen)
        sans = []
        for move in moves:
            sans.append(write_san(pos, move))
            pos.push(move)
        texts_by_game.append((fen, sans))
    theirs = []
    for fen, sans in texts_by_game:
        board = chess.Board(fen)
        theirs.append((fen, [board.push_san(s) for s in sans]))
    reader = SanReader()

    def our_parse() -> int:
        n = 0
        for fen, sans in texts_by_game:
            pos = Position(fen)
            for text in sans:
                pos.push(reader.parse(pos, text))
            n += len(sans)
        return n

    def their_parse() -> int:
        n = 0
        for fen, sans in texts_by_game:
            board = chess.Board(fen)
            for text in sans:
                board.push(board.parse_san(text))
            n += len(sans)
        return n

    def our_write() -> int:
        n = 0
        for fen, moves in ours:
            pos = Position(fen)
            for move in moves:
                write_san(pos, Move(move))
                pos.push(move)
            n += len(moves)
        return n

    def their_write() -> int:
        n = 0
        for fen, moves in theirs:
            board = chess.Board(fen)
            for move in moves:
                board.san(move)
                board.push(move)
            n += len(moves)
        return n

    return [
        ("SAN parse + play (moves/s)", rate(our_parse, repeats), rate(their_parse, repeats)),
        ("SAN write + play (moves/s)", rate(our_write, repeats), rate(their_write, repeats)),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    texts = corpus_texts()
    size = sum(len(t) for t in texts)
    print(f"python-chess {chess.__version__}; {len(texts)} files, {size / 1e6:.1f} MB; "
          f"medians of {args.repeats} repeats")
    rows = [
        ("PGN full games, moves checked (games/s)",
         rate(lambda: ours_full(texts), args.repeats),
         rate(lambda: theirs_full(texts), args.repeats)),
        ("PGN headers only (games/s)",
         rate(lambda: ours_headers(texts), args.repeats),
         rate(lambda: theirs_headers(texts), args.repeats)),
        *header_rows(args.repeats),
        *san_rows(texts, args.repeats),
    ]
    print(f"{'row':52} {'chessarbiter':>14} {'python-chess':>14} {'ratio':>7}")
    for label, ours, theirs in rows:
        print(f"{label:52} {ours:14,.0f} {theirs:14,.0f} {ours / theirs:6.2f}x")


if __name__ == "__main__":
    main()
