"""The rules core against python-chess, side by side in one process (issue: core speed).

Run: ``.venv/bin/python bench/bench_core.py [--repeats N]``. Prints, per row, the median rate
of each library over N repeats and the ratio (chessarbiter / python-chess).
"""

from __future__ import annotations

import argparse
from functools import partial

import chess
from rates import compare

from chessarbiter.core.fen import parse_fen, write_fen
from chessarbiter.core.perft import perft
from chessarbiter.core.position import Position

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 3 8"


def pc_perft(board: chess.Board, depth: int, bulk: bool) -> int:
    """The usual python-chess perft (push/pop; ``legal_moves.count()`` at the leaves)."""
    if depth == 0:
        return 1
    if bulk and depth == 1:
        return int(board.legal_moves.count())
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += pc_perft(board, depth - 1, bulk)
        board.pop()
    return nodes


def rows(repeats: int) -> list[tuple[str, float, float]]:
    out = []
    for name, fen, depth in (("start d4", START, 4), ("kiwipete d3", KIWIPETE, 3)):
        for bulk in (True, False):
            pos = parse_fen(fen)
            board = chess.Board(fen)
            label = f"perft {name} {'bulk' if bulk else 'no bulk'} (nodes/s)"
            ours, theirs = compare(partial(perft, pos, depth, bulk=bulk),
                                   partial(pc_perft, board, depth, bulk), repeats)
            out.append((label, ours, theirs))
    n = 2000
    for name, fen in (("start", START), ("kiwipete", KIWIPETE), ("middlegame", MIDDLEGAME)):
        pos = parse_fen(fen)
        board = chess.Board(fen)

        def ours_gen(p: Position = pos) -> int:
            for _ in range(n):
                p.legal_moves()
            return n

        def theirs_gen(b: chess.Board = board) -> int:
            for _ in range(n):
                list(b.legal_moves)
            return n

        out.append((f"legal moves {name} (calls/s)", *compare(ours_gen, theirs_gen, repeats)))
    fens = [START, KIWIPETE, MIDDLEGAME]

    def ours_parse() -> int:
        for _ in range(n):
            for f in fens:
                parse_fen(f)
        return n * len(fens)

    def theirs_parse() -> int:
        for _ in range(n):
            for f in fens:
                chess.Board(f)
        return n * len(fens)

    out.append(("FEN parse (per s)", *compare(ours_parse, theirs_parse, repeats)))
    positions = [parse_fen(f) for f in fens]
    boards = [chess.Board(f) for f in fens]

    def ours_write() -> int:
        for _ in range(n):
            for p in positions:
                write_fen(p)
        return n * len(fens)

    def theirs_write() -> int:
        for _ in range(n):
            for b in boards:
                b.fen(en_passant="fen")
        return n * len(fens)

    out.append(("FEN write (per s)", *compare(ours_write, theirs_write, repeats)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"python-chess {chess.__version__}; medians of {args.repeats} repeats")
    print(f"{'row':48} {'chessarbiter':>14} {'python-chess':>14} {'ratio':>7}")
    for label, ours, theirs in rows(args.repeats):
        print(f"{label:48} {ours:14,.0f} {theirs:14,.0f} {ours / theirs:6.2f}x")


if __name__ == "__main__":
    main()
