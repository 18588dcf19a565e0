"""The commands listed for players."""

from __future__ import annotations

from chessarbiter.present.help import help_text


def test_help_lists_every_command() -> None:
    text = help_text()
    for word in ("offer", "accept", "claim", "resign", "moves", "clock", "rank", "flip", "quit"):
        assert word in text
    lines = help_text(without=("flip",)).splitlines()
    assert not any(line.startswith("flip") for line in lines)
    column = len("claim [repetition|50] [MOVE]") + 2  # the longest command, then two spaces
    assert all(line[column - 2:column] == "  " and line[column] != " " for line in lines)
    assert lines[0] == "MOVE".ljust(column) + "play a move: Nf3, exd5, O-O, e8=Q, g1f3, Ng1-f3"
