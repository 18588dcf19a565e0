"""The arbiter's texts made readable for players: SAN, no FEN, plain article numbers."""

from __future__ import annotations

import pytest

from chessarbiter.core import Position, parse_fen
from chessarbiter.present.wording import readable

START = Position()


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("white must play g1f3 (Art. 9.5)", "white must play Nf3 (Art. 9.5)"),
        ("illegal move e2e5", "illegal move e2-e5"),
        ("1-0: black resigns (Art. 5.1.2 (S5.1b))", "1-0: black resigns (Art. 5.1.2)"),
        ("draw (Art. 5.2.3, 9.1 (S5.3, 9.1))", "draw (Art. 5.2.3, 9.1)"),
        ("both flags (Art. Guidelines III.3.1 (S6.11, 10.4))", "both flags (Guidelines III.3.1)"),
        ("right to claim lost (F23 9.4)", "right to claim lost (Art. 9.4)"),
        ("3 min off (Art. S9.5b)", "3 min off (Art. S9.5b)"),
        ("e2e4 is not a legal move in "
         "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1: it is black's turn",
         "e4 is not a legal move: it is black's turn"),
    ],
)
def test_readable_texts(text: str, said: str) -> None:
    assert readable(text, START) == said


def test_spoken_texts_say_moves_results_and_seconds_in_words() -> None:
    pos = parse_fen("3k4/8/8/8/8/8/4Q3/4K3 w - - 0 1")
    assert readable("white must play e2e7 (Art. 9.5)", pos, spoken=True) == (
        "white must play queen e7 (Art. 9.5)"  # no ", check" inside a sentence
    )
    assert readable("game over: 1/2-1/2 by agreement", pos, spoken=True) == (
        "game over: draw by agreement"
    )
    assert readable("0-1: white resigns; 120 s added", pos, spoken=True) == (
        "black wins: white resigns; 120 seconds added"
    )
    assert readable("castles O-O", pos, spoken=True) == "castles O-O"
