"""The progress search (:mod:`chessarbiter.laws.deadpos.progress`): the long helpmate the
whole budget missed before, and on a corpus sample it never contradicts a label, finding
helpmates that replay to mate and proving some positions unwinnable."""

from __future__ import annotations

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.squares import WHITE, Side
from chessarbiter.laws.deadpos import Verdict, Winnability, can_checkmate
from chessarbiter.laws.deadpos.progress import Progress
from chessarbiter.laws.deadpos.strategy import Found, Spent
from tests.laws.corpus_lines import labelled_positions, winnable_label
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
