"""Reads the unwinnability corpus: ``(label, fen)`` pairs, where ``label[side]`` is ``-``
when that side cannot checkmate (see the corpus README)."""

from __future__ import annotations

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.position import Position
from tests.corpus import corpus_path


def labelled_positions(name: str, every: int = 1) -> list[tuple[str, Position]]:
    """Every ``every``-th labelled position of a corpus file, FENs padded to six fields."""
    out = []
    lines = corpus_path("unwinnability", name).read_text().splitlines()
    rows = [line for line in lines if line.strip() and not line.startswith("#")]
    for row in rows[::every]:
        label, fen = row.split(None, 1)
        fields = fen.split()
        fields += ["-"] * (4 - len(fields))
        out.append((label, parse_fen(" ".join(fields), lenient=True)))
    return out


def winnable_label(label: str, side: int) -> bool:
    """Whether the corpus says ``side`` (0 white, 1 black) can still checkmate."""
    return label[side] != "-"
