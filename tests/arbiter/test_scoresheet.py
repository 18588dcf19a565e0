"""The PGN scoresheet of a finished game (Art. 8.1, 8.7): tags, clocks, offers, Termination."""

from __future__ import annotations

from chessarbiter.arbiter import (
    BothLost,
    ClaimKind,
    DrawClaimed,
    IllegalMoveCompleted,
    recorded_game,
    to_pgn,
)
from chessarbiter.clock import parse_us
from chessarbiter.laws.profiles import FIDE_2023, USCF
from chessarbiter.notation.pgn_reader import read_pgn_text
from tests.arbiter.driver import MIN, Driver, S, W

TAGS = {"Event": "Club championship", "Round": "3", "White": "Anna", "Black": "Ben"}


def test_the_finished_game_exports_a_complete_pgn() -> None:
    d = Driver(FIDE_2023, "90+30", tags=TAGS)
    d.play("e2e4 e7e5", dt=5 * S)
    d.play("f1c4", dt=7 * S, offer=True)
    d.play("b8c6")
    d.event(DrawClaimed, side=W, claim=ClaimKind.THREEFOLD)
    d.event(IllegalMoveCompleted, side=W, uci="d1d5")
    d.play("d1h5 g8f6 h5f7")
    assert d.result == "1-0"
    text = to_pgn(d.game)
    (read,) = read_pgn_text(text)
    assert read.error is None and read.result == "1-0"
    for name, value in TAGS.items():
        assert read.tags[name] == value
    assert read.tags["TimeControl"] == "5400+30" and read.tags["Rules"] == "fide-2023"
    assert read.tags["Termination"] == "normal"
    assert [m.move for m in read.moves] == [r.move for r in d.game.records]
    assert [m.clock_ms for m in read.moves] == [r.clock_ms for r in d.game.records]
    assert [m.draw_offer for m in read.moves] == [False, False, True, False, False, False, False]
    flat = " ".join(text.split())
    for words in ("declines the draw offer", "incorrect", "illegal move d1d5", "checkmates"):
        assert words in flat


def test_termination_and_result_tags() -> None:
    d = Driver(FIDE_2023)
    d.play("f2f3 e7e5 g2g4 d8h4")
    text = to_pgn(d.game)
    assert '[Result "0-1"]' in text and '[Termination "normal"]' in text
    assert "black checkmates" in text and text.rstrip().endswith("0-1")
    d = Driver(FIDE_2023)
    d.play("e2e4")
    d.event(BothLost, reason="both refused to comply")
    game = recorded_game(d.game)
    assert game.result == "*" and game.tags["Termination"] == "rules infraction"
    assert "0-0" in game.moves[-1].comment


def test_a_delay_control_is_left_out_of_the_pgn_tag() -> None:
    d = Driver(USCF, parse_us("G/5;d5"))
    d.play("d2d4", dt=MIN)
    game = recorded_game(d.game)
    assert "TimeControl" not in game.tags and game.result == "*"
    assert game.moves[0].clock_ms == 5 * MIN - MIN + 5 * S
