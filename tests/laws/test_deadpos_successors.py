"""The exploration's own move generator (:mod:`chessarbiter.laws.deadpos.successors`), a
second generator beside the core's, held to third-party perft counts: every position of the
corpus's standard-chess perft suites, every depth whose count is under 20,000, counted with
its moves alone (``children`` with nothing seen)."""

from __future__ import annotations

import pytest

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.position import Position
from chessarbiter.laws.deadpos.successors import MOVE, children
from tests.core.test_perft import read_suite
from tests.corpus import corpus_path

SUITES = ("perftsuite_standard.epd", "tricky.epd", "special_cases.epd",
          "chessprogramming_positions.epd")
LIMIT = 20_000


def listed(pos: Position, seen: set[int]) -> tuple[int, list[tuple[int, int]]]:
    """What :func:`children` gives: the pieces giving check, then each key (or ``UNKEYED``)
    with the move it leaves beside it."""
    moved = [0]
    given = children(pos, seen, moved)
    checking = next(given)
    return checking, [(key, moved[0]) for key in given]


def counted(pos: Position, depth: int) -> int:
    """The leaves ``depth`` plies on, by :func:`children`'s moves."""
    moves = [move & MOVE for _, move in listed(pos, set())[1]]
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        undo = pos.make(move)
        total += counted(pos, depth - 1)
        pos.unmake(undo)
    return total


@pytest.mark.parametrize("suite", SUITES)
def test_children_count_as_the_perft_suites(suite: str) -> None:
    cases = [(fen, counts) for fen, chess960, counts in read_suite(corpus_path("perft", suite))
             if not chess960]
    compared = 0
    for fen, counts in cases:
        pos = parse_fen(fen, lenient=True)
        before = pos.fen()
        for depth, nodes in counts:
            if nodes < LIMIT:
                assert counted(pos, depth) == nodes, f"{suite}: {fen} depth {depth}"
                compared += 1
        assert pos.fen() == before
    assert compared >= 5, compared
