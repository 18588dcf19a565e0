"""Perft counts from every suite in ../shared/corpus/perft (third-party node counts).

Default run: every depth whose count is below 100,000, plus the chessprogramming and special
case counts up to 5 million nodes. ``-m long`` runs every other depth (hours).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.perft import perft
from tests.corpus import CORPUS, corpus_path

FILES = (
    "chessprogramming_positions.epd",
    "perftsuite_standard.epd",
    "chess960.epd",
    "tricky.epd",
    "special_cases.epd",
    "stockfish_perftsh.epd",
)
DEEP_FILES = {"chessprogramming_positions.epd", "special_cases.epd"}
QUICK_LIMIT = 100_000
DEEP_LIMIT = 5_000_000

Case = tuple[str, bool, list[tuple[int, int]]]


def read_suite(path: Path) -> list[Case]:
    """``(fen, chess960, [(depth, nodes), ...])`` for each line of a normalised perft file."""
    cases = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split(";")]
        counts = [
            (int(f[1:].split()[0]), int(f.split()[1])) for f in fields[1:] if f.startswith("D")
        ]
        cases.append((fields[0], "chess960" in fields, counts))
    return cases


def _params(long: bool) -> list[object]:
    params: list[object] = []
    if not (CORPUS / "perft").is_dir():
        return [pytest.param("missing", 0, "", False, [], id="corpus-missing")]
    for name in FILES:
        for i, (fen, c960, counts) in enumerate(read_suite(CORPUS / "perft" / name)):
            limit = DEEP_LIMIT if name in DEEP_FILES else QUICK_LIMIT
            chosen = [(d, n) for d, n in counts if (n > limit) == long]
            if chosen:
                params.append(pytest.param(name, i, fen, c960, chosen, id=f"{name}:{i + 1}"))
    return params


def _check(name: str, fen: str, c960: bool, counts: list[tuple[int, int]]) -> None:
    corpus_path("perft", name)
    pos = parse_fen(fen, chess960=c960, lenient=True)
    before = pos.fen()
    for depth, nodes in counts:
        assert perft(pos, depth) == nodes, f"{fen} depth {depth}"
    assert pos.fen() == before


@pytest.mark.parametrize(("name", "index", "fen", "c960", "counts"), _params(long=False))
def test_perft(name: str, index: int, fen: str, c960: bool, counts: list[tuple[int, int]]) -> None:
    _check(name, fen, c960, counts)


@pytest.mark.long
@pytest.mark.parametrize(("name", "index", "fen", "c960", "counts"), _params(long=True))
def test_perft_deep(
    name: str, index: int, fen: str, c960: bool, counts: list[tuple[int, int]]
) -> None:
    _check(name, fen, c960, counts)


def test_bulk_and_full_counting_agree() -> None:
    """Counting the leaves without making them gives what making them gives."""
    for fen in (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    ):
        pos = parse_fen(fen)
        assert perft(pos, 3, bulk=True) == perft(pos, 3, bulk=False)


def test_suites_are_all_read() -> None:
    """Guard against a silently empty suite: every file yields positions."""
    sizes = {name: len(read_suite(corpus_path("perft", name))) for name in FILES}
    assert sizes["chess960.epd"] == 960
    assert sizes["perftsuite_standard.epd"] >= 126
    assert all(n > 0 for n in sizes.values())
