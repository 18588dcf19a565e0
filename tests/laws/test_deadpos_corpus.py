"""The unwinnability corpus (chasolver and D3-Chess test sets): never a wrong verdict, every
helpmate replays to mate, quick mode never calls a winnable side unwinnable.

The default run takes every position in quick mode and a deterministic sample in full mode
with a 20,000-node budget; ``-m long`` runs full mode on every position at the default
budget and holds it to the issue's bound: at most 1% undetermined (about half an hour in
one process; ``bench/deadpos_verdicts.py --jobs N`` runs the same check in parallel).
"""

from __future__ import annotations

import pytest

from chessarbiter.core.squares import Side
from chessarbiter.laws.deadpos import Winnability, can_checkmate
from tests.laws.corpus_lines import labelled_positions, winnable_label
from tests.laws.test_deadpos_api import replays_to_mate

FILES = ("chasolver-positions.txt", "d3chess-test-vector.txt")


@pytest.mark.parametrize("name", FILES)
def test_quick_mode_is_sound(name: str) -> None:
    proved = 0
    for label, pos in labelled_positions(name):
        for side in Side:
            verdict = can_checkmate(pos, side, "quick")
            assert verdict.outcome is not Winnability.WINNABLE
            if verdict.unwinnable:
                assert not winnable_label(label, side), (pos.fen(), side)
                proved += 1
    assert proved > 0


def _check_full(name: str, every: int, budget: int | None) -> dict[str, int]:
    counts = {"correct": 0, "undetermined": 0}
    for label, pos in labelled_positions(name, every):
        for side in Side:
            verdict = can_checkmate(pos, side, "full", budget)
            if verdict.outcome is Winnability.UNDETERMINED:
                counts["undetermined"] += 1
                continue
            assert verdict.winnable == winnable_label(label, side), (pos.fen(), side, verdict)
            if verdict.winnable:
                assert replays_to_mate(pos, verdict), (pos.fen(), side)
            counts["correct"] += 1
    return counts


def test_full_mode_sample_is_never_wrong() -> None:
    counts = _check_full(FILES[0], 67, 20_000)
    assert counts["undetermined"] * 10 <= counts["correct"] + counts["undetermined"]


@pytest.mark.long
@pytest.mark.parametrize("name", FILES)
def test_full_mode_every_position(name: str) -> None:
    counts = _check_full(name, 1, None)
    print(name, counts)
    assert counts["undetermined"] * 100 <= counts["correct"] + counts["undetermined"]
