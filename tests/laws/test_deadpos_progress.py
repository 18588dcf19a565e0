"""The progress search (:mod:`chessarbiter.laws.deadpos.progress`): the long helpmate the
whole budget missed before, and on a corpus sample it never contradicts a label, finding
helpmates that replay to mate and proving some positions unwinnable."""

from __future__ import annotations

import pytest

from chessarbiter.arbiter.oracles import FLAG_BUDGET
from chessarbiter.core.fen import parse_fen
from chessarbiter.core.squares import BLACK, WHITE, Side
from chessarbiter.laws.deadpos import Verdict, Winnability, can_checkmate
from chessarbiter.laws.deadpos.progress import Progress
from chessarbiter.laws.deadpos.strategy import Found, Spent
from tests.laws.corpus_lines import labelled_positions, winnable_label
from tests.laws.lines import python_chess_mates
from tests.laws.test_deadpos_api import replays_to_mate

BISHOP_AGAINST_ROOK = "6k1/2B2pp1/3Kp1p1/8/1r6/8/8/8 b - - 5 45"
"""White mates with its lone bishop only after Black's pawns clear g7 and its rook blocks
its own king (a helpmate of about a hundred plies); undetermined after the whole budget
before this search."""


def test_the_lone_bishop_helpmate_is_found() -> None:
    pos = parse_fen(BISHOP_AGAINST_ROOK)
    verdict = can_checkmate(pos, WHITE, "full")
    assert verdict.winnable and verdict.reason == "progress search", verdict
    assert replays_to_mate(pos, verdict)
    search = Progress(parse_fen(BISHOP_AGAINST_ROOK), WHITE)
    found = search.run(30_000)
    assert isinstance(found, Found) and found.nodes <= 30_000
    assert search.run(30_000) == Found(found.line, 0)  # decided: nothing more to do


def test_it_never_contradicts_the_corpus() -> None:
    decided = {Winnability.WINNABLE: 0, Winnability.UNWINNABLE: 0}
    for label, pos in labelled_positions("chasolver-positions.txt", 60):
        for side in Side:
            if pos.count_legal_moves() == 0:
                continue
            search = Progress(pos, side)
            ran = search.run(2_000)
            assert ran.nodes <= 2_000
            if isinstance(ran, Spent):
                continue
            outcome = Winnability.WINNABLE if isinstance(ran, Found) else Winnability.UNWINNABLE
            decided[outcome] += 1
            assert (outcome is Winnability.WINNABLE) == winnable_label(label, side), pos.fen()
            if outcome is Winnability.WINNABLE:
                verdict = Verdict(outcome, side, tuple(search.line))
                assert replays_to_mate(pos, verdict), pos.fen()
    assert decided[Winnability.WINNABLE] > 10 and decided[Winnability.UNWINNABLE] > 0, decided


BLOCKED_CORNERS = (
    # Black's king walks to h8 and two of its bishops block g8 and h7: the 19-ply helpmate
    # the whole ruling's bound missed before (a 29-ply one at c1 took 2,000,000 nodes),
    # found once a loser's bishop stepping next to the corner is free
    ("k7/1b6/2b5/3b4/4b3/1pB2b2/pP4b1/K6b w - - 0 1", WHITE),
    # composed walls of bishops, undetermined at a ruling's bound before
    ("3k1b2/8/8/8/B1B1B1B1/1B1B1B1B/B1B1B1B1/1B1K1B1B w - - 0 1", WHITE),
)
WALLS = (
    ("3k4/4b3/3bB3/p1pBp1p1/P1PbP1P1/4b3/4B3/3K1B2 b - - 0 1", BLACK),
    ("k1b1b3/8/8/1pBpBpBp/1PbPbPbP/8/8/K1B1B3 w - - 0 1", WHITE),
)


def _finds(fen: str, side: Side, budget: int) -> None:
    found = Progress(parse_fen(fen), side).run(budget)
    assert isinstance(found, Found), found
    assert replays_to_mate(parse_fen(fen), Verdict(Winnability.WINNABLE, side, found.line))


@pytest.mark.parametrize(("fen", "side"), BLOCKED_CORNERS)
def test_a_bishop_blocking_next_to_the_corner_is_progress(fen: str, side: Side) -> None:
    _finds(fen, side, 10_000)


@pytest.mark.long
@pytest.mark.parametrize(("fen", "side"), WALLS)
def test_walls_of_bishops_found_with_the_blockers(fen: str, side: Side) -> None:
    _finds(fen, side, 30_000)


@pytest.mark.parametrize("side", [WHITE, BLACK])
def test_a_loser_with_a_knight_brings_the_knight(side: Side) -> None:
    # the loser's knight is the blocker: its bishop's steps next to the corner stay paid
    # (free, they cost this helpmate the whole ruling's bound)
    _finds("1kb5/1p6/1Pp5/n1P5/N1p5/1pP5/1P6/1KB5 w - - 0 1", side, 40_000)


RULING_WALLS = (
    # Black mates in the h1 corner, White's dark bishops blocking g1 and h2
    ("k1b1b3/8/8/1pBpBpBp/1PbPbPbP/8/8/K1B1B3 w - - 0 1", BLACK),
    ("8/2k5/2b1b3/1p1p1pBp/1P1P1P1P/8/2bK1B2/8 b - - 0 1", WHITE),
)


@pytest.mark.long
@pytest.mark.parametrize(("fen", "side"), RULING_WALLS)
def test_a_rulings_later_rounds_give_the_progress_search_its_nodes_first(
    fen: str, side: Side
) -> None:
    # undetermined at a ruling's bound before (the progress search needs about 150,000-170,000
    # nodes, and had only 50,000 before the time ran out); python-chess replays the line
    pos = parse_fen(fen)
    verdict = can_checkmate(pos, side, "full", FLAG_BUDGET)
    assert verdict.winnable and verdict.reason == "progress search", verdict
    assert verdict.nodes <= 400_000
    assert python_chess_mates(fen, verdict.line, side)
