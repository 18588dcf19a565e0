"""The board as text, and clock readings."""

from __future__ import annotations

import pytest

from chessarbiter.core import Position
from chessarbiter.core.squares import BLACK
from chessarbiter.present.board import board_lines
from chessarbiter.present.clocks import format_ms


def test_white_at_the_bottom_with_light_square_at_the_near_right() -> None:
    lines = board_lines(Position(), unicode=False)
    assert lines[0] == "8 r n b q k b n r"
    assert lines[7] == "1 R N B Q K B N R"
    assert lines[8] == "  a b c d e f g h"
    assert lines[5] == "3 .   .   .   .  "  # a3 is dark, h3 light (Art. 2.1)


def test_black_orientation_and_glyphs() -> None:
    lines = board_lines(Position(), orientation=BLACK)
    assert lines[0] == "1 ♖ ♘ ♗ ♔ ♕ ♗ ♘ ♖"
    assert lines[8] == "  h g f e d c b a"


@pytest.mark.parametrize(
    ("ms", "text"),
    [(5_400_000, "1:30:00"), (300_000, "5:00"), (61_999, "1:01"), (19_950, "0:19.9"),
     (0, "0:00"), (-500, "0:00")],
)
def test_format_ms(ms: int, text: str) -> None:
    assert format_ms(ms) == text
