"""The quick "can this side still checkmate?" test (Art. 5.2.2, 6.9) and US Chess 14E: sound
on every labelled position of the unwinnability corpus, and as strong as the material rules."""

from __future__ import annotations

import json
import time

import pytest

from chessarbiter.core import parse_fen
from chessarbiter.core.squares import BLACK, WHITE, Side
from chessarbiter.laws.deadpos.material import cannot_mate_by_material
from chessarbiter.laws.mating_material import may_checkmate, uscf_cannot_win_on_time
from tests.corpus import corpus_path


def labelled(name: str) -> list[tuple[str, str]]:
    """(label, FEN) lines: label ``W``/``-`` then ``B``/``-`` = that side can help-mate."""
    out = []
    for line in corpus_path("unwinnability", name).read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            label, fen = line[:2], line[3:].strip()
            fields = fen.split()
            fields += ["-", "-", "0", "1"][len(fields) - 2 :]
            out.append((label, " ".join(fields[:6])))
    return out


@pytest.mark.parametrize(
    ("name", "least_proved"), [("chasolver-positions.txt", 578), ("d3chess-test-vector.txt", 224)]
)
def test_never_says_cannot_for_a_side_that_can_mate(name: str, least_proved: int) -> None:
    proved = total_unwinnable = 0
    for label, fen in labelled(name):
        pos = parse_fen(fen, lenient=True)
        before = pos.fen()
        for colour, letter in ((WHITE, "W"), (BLACK, "B")):
            can = may_checkmate(pos, colour)
            assert pos.fen() == before
            if label[colour] == letter:
                assert can, f"{fen}: {letter} can mate, but was said not to"
            else:
                total_unwinnable += 1
                proved += not can
    assert least_proved <= proved < total_unwinnable


STATUS = corpus_path("status", "status_cases.jsonl").read_text().splitlines()


@pytest.mark.parametrize("case", [json.loads(line) for line in STATUS], ids=lambda c: c["id"])
def test_material_rules_agree_with_the_insufficient_material_cases(case: dict[str, object]) -> None:
    pos = parse_fen(str(case["fen"]))
    for colour, key in ((WHITE, "white_insufficient"), (BLACK, "black_insufficient")):
        if key in case:
            assert cannot_mate_by_material(pos.pieces, colour) is case[key]
            assert (not may_checkmate(pos, colour)) is case[key]
    if "insufficient_material" in case:
        dead = not may_checkmate(pos, WHITE) and not may_checkmate(pos, BLACK)
        assert dead is case["insufficient_material"]


@pytest.mark.parametrize(
    ("fen", "colour", "can"),
    [
        ("qK6/3k4/8/8/8/8/8/8 w - - 0 1", BLACK, False),  # Kxa8 is forced
        ("8/8/8/7p/5k1K/8/8/5b2 w - - 0 1", BLACK, False),  # Kxh5 is forced
        ("8/8/8/8/8/2b1k1b1/8/3RKR2 w - - 0 1", BLACK, True),  # mate on the board counts
        ("4k3/8/8/8/8/8/8/4K1NN w - - 0 1", WHITE, True),  # K+N+N can help-mate
        ("1n2k3/8/8/8/8/8/8/4KB2 w - - 0 1", WHITE, True),  # the knight can block
    ],
)
def test_bounded_search_and_special_cases(fen: str, colour: Side, can: bool) -> None:
    assert may_checkmate(parse_fen(fen, lenient=True), colour) is can


@pytest.mark.parametrize(
    ("fen", "expected"),
    [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", True),  # lone king
        ("4k3/7r/8/8/8/8/8/4KN2 w - - 0 1", True),  # K+N (no forced win evaluated)
        ("4k3/8/8/8/8/8/8/3BKB2 w - - 0 1", False),  # two bishops
        ("4k3/8/8/8/8/8/8/4KNN1 w - - 0 1", True),  # K+N+N against a king without pawns
        ("4k3/7p/8/8/8/8/8/4KNN1 w - - 0 1", False),  # ... against a pawn
        ("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", False),  # a pawn
    ],
)
def test_uscf_14e_material_list(fen: str, expected: bool) -> None:
    assert uscf_cannot_win_on_time(parse_fen(fen), WHITE) is expected


def test_it_is_fast_enough_to_run_after_every_move() -> None:
    positions = [parse_fen(fen, lenient=True) for _, fen in labelled("chasolver-positions.txt")]
    start = time.perf_counter()
    for pos in positions:
        may_checkmate(pos, WHITE)
        may_checkmate(pos, BLACK)
    mean_us = (time.perf_counter() - start) / (2 * len(positions)) * 1e6
    assert mean_us < 500, f"{mean_us:.0f} us per call"
