"""Results, scores and Terminations (Art. 5, 11 / F23 10.1)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from chessarbiter.core.squares import BLACK, WHITE
from chessarbiter.laws.endings import Outcome, Result, Termination

HALF = Fraction(1, 2)


@pytest.mark.parametrize(
    ("result", "white", "black", "pgn"),
    [
        (Result.WHITE_WINS, 1, 0, "1-0"),
        (Result.BLACK_WINS, 0, 1, "0-1"),
        (Result.DRAW, HALF, HALF, "1/2-1/2"),
        (Result.BOTH_LOSE, 0, 0, "*"),
    ],
)
def test_art_11_scoring(result: Result, white: Fraction, black: Fraction, pgn: str) -> None:
    assert (result.score(WHITE), result.score(BLACK)) == (white, black)
    assert result.pgn == pgn
    assert result.score(WHITE) + result.score(BLACK) <= 1


def test_win_for_each_colour() -> None:
    assert Result.win_for(WHITE) is Result.WHITE_WINS
    assert Result.win_for(BLACK) is Result.BLACK_WINS


def test_every_termination_cites_an_article_and_a_pgn_value() -> None:
    pgn_values = {"normal", "time forfeit", "rules infraction", "adjudication", "abandoned"}
    for termination in Termination:
        assert termination.article[0].isdigit() or termination.article.startswith(
            ("Guidelines", "the online profile"))
        assert termination.pgn in pgn_values
    assert Termination.DEAD_POSITION.article == "5.2.2 (S9.6)"
    assert Termination.TIME_FORFEIT.pgn == "time forfeit"


def test_outcome_winner_and_text() -> None:
    mate = Outcome(Result.BLACK_WINS, Termination.CHECKMATE, "black checkmates")
    assert mate.winner == BLACK
    assert str(mate) == "0-1 by checkmate (Art. 5.1.1 (S5.1a)): black checkmates"
    assert Outcome(Result.BOTH_LOSE, Termination.BOTH_LOSE, "r").winner is None
