"""The commands listed for players."""

from __future__ import annotations

from chessarbiter.present.help import COLUMN, help_text


def test_help_lists_every_command() -> None:
    text = help_text()
    for word in ("offer", "accept", "claim", "resign", "moves", "clock", "rank", "flip", "quit"):
        assert word in text
    lines = help_text(without=("flip",)).splitlines()
    assert not any(line.startswith("flip") for line in lines)
    column = len("claim [repetition|50] [MOVE]") + 2  # the longest command, then two spaces
    assert all(line[column - 2:column] == "  " and line[column] != " " for line in lines)
    assert lines[0] == "MOVE".ljust(column) + "play a move: Nf3, exd5, O-O, e8=Q, g1f3, Ng1-f3"


def test_help_fitted_to_a_width_wraps_under_its_column() -> None:
    keys = (("PageUp / PageDown", "scroll these messages"),)
    lines = help_text(keys=keys, width=60).splitlines()
    indent = " " * (COLUMN + 2)
    assert all(len(line) <= 60 for line in lines)
    assert lines[0] == "MOVE".ljust(COLUMN) + "  play a move: Nf3, exd5, O-O, e8=Q, g1f3,"
    assert lines[1] == indent + "Ng1-f3"  # wrapped under what the command does
    claim = lines.index("claim [repetition|50] [MOVE]")  # too long for the column: own line
    assert lines[claim + 1] == indent + "claim a draw, on the board or on the move"
    assert lines[claim + 2] == indent + "you intend to play (Art. 9.2, 9.3)"
    assert lines[-1] == "PageUp / PageDown  scroll these messages"
    for line in lines:  # a command, or the continuation of what one does
        assert line.startswith(indent) or line[0] != " "
