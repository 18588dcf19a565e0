"""Typed lines become actions on the game or views of it; the answers come back as text or
words."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chessarbiter.arbiter.game import Game
from chessarbiter.clock import Side, parse_human
from chessarbiter.core.position import STARTING_FEN
from chessarbiter.laws.endings import Termination
from chessarbiter.laws.profiles import FIDE_2023, InputMode
from chessarbiter.session.live import LiveGame
from chessarbiter.session.play import Play
from chessarbiter.tui.console import Console
from tests.clock.fake_time import FakeTime

PROFILE = replace(FIDE_2023, input_mode=InputMode.DIGITAL)


def console(*, spoken: bool = False, fen: str | None = None) -> Console:
    game = Game(PROFILE, parse_human("90+30"), fen=fen or STARTING_FEN)
    play = Play(LiveGame(game, now=FakeTime()), {})
    play.start()
    return Console(play, spoken=spoken, unicode=False)


def test_moves_are_answered_in_scoresheet_notation() -> None:
    c = console()
    assert c.handle("e4").lines == ["1. e4"]
    assert c.handle("c7c5").lines == ["1... c5"]
    reply = c.handle("Nf3 =")
    assert reply.lines[0] == "2. Nf3 (=)"
    assert "offers a draw" in reply.lines[1]
    assert c.status() == "black to move; white offers a draw"


def test_spoken_moves_and_board_reading() -> None:
    c = console(spoken=True)
    assert c.handle("e4").lines == ["white: pawn e4"]
    assert c.handle("rank 4").lines == ["rank 4: a4 to d4 empty, e4 white pawn, f4 to h4 empty"]
    assert c.handle("file e").lines[0].startswith(
        "file e: e1 white king, e2 to e3 empty, e4 white pawn"
    )
    assert c.handle("pieces black").lines[0].startswith("black: king e8")
    assert c.handle("clock").lines == ["white 1:30:30, black 1:30:00"]
    assert len(c.handle("board").lines) == 8


def test_bad_input_gets_a_message_and_changes_nothing() -> None:
    c = console()
    before = c.play.live.game.state()
    for line in ("Ke2", "zz9", "accept", "rank 9", "file q", "pieces purple"):
        reply = c.handle(line)
        assert reply.lines and not reply.quit and not reply.flip, line
    assert c.play.live.game.state() == before


def test_wrong_claim_is_penalised_and_right_claim_draws() -> None:
    c = console()
    reply = c.handle("claim")
    assert any("incorrect" in line.lower() or "penal" in line.lower() for line in reply.lines)
    for line in ("Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"):
        c.handle(line)
    reply = c.handle("claim Ng8")
    assert c.play.live.game.outcome is not None
    assert c.play.live.game.outcome.termination is Termination.THREEFOLD_REPETITION
    assert any("game over" in line for line in reply.lines)


def test_resignation_and_commands() -> None:
    c = console()
    assert c.handle("flip").flip
    assert c.handle("quit").quit
    assert any("offer" in line for line in c.handle("help").lines)
    assert "Nf3" in c.handle("moves").lines[0]
    c.handle("resign white")
    outcome = c.play.live.game.outcome
    assert outcome is not None and outcome.winner is Side.BLACK


@pytest.mark.parametrize("rank", ["\u00b3", "\u0663", "9" * 5000, "0", "-1"])
def test_a_rank_that_is_no_ascii_digit_1_to_8_is_named(rank: str) -> None:
    c = console()
    assert c.handle(f"rank {rank}").lines == [f"no rank {rank[:20]!r}: ranks are 1 to 8"]


def test_decisions_name_moves_in_san_and_help_fits_the_interface() -> None:
    c = console()
    lines = c.handle("claim repetition Nf3").lines
    assert "white must play Nf3 (Art. 9.5)" in lines
    assert not any("g1f3" in line for line in lines)
    c.keys = [("ctrl+f", "flip the board")]
    help_lines = c.handle("help").lines
    assert any(line.startswith("flip ") for line in help_lines)
    assert any(line.startswith("ctrl+f ") and line.endswith("  flip the board")
               for line in help_lines)
    assert help_lines[-1].startswith("Articles are those of the FIDE Laws of Chess (2023)")
    spoken = console(spoken=True)
    assert not any(line.startswith("flip") for line in spoken.handle("help").lines)
    assert not spoken.handle("flip").flip


def test_a_position_without_moves_lists_none() -> None:
    c = console(fen="7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")  # stalemate
    assert c.handle("moves").lines == ["legal moves: none"]
    assert c.status().startswith("game over: 1/2-1/2 by stalemate")


def test_a_fallen_flag_is_announced_before_the_answer_to_a_line() -> None:
    time = FakeTime()
    game = Game(PROFILE, parse_human("1+0"))
    c = Console(Play(LiveGame(game, now=time), {}), unicode=False)
    assert c.start() == []  # White's clock starts (Art. 6.5): nothing to tell
    time.advance(61_000)
    assert c.handle("e4").lines == [
        "game over: 0-1 by time forfeit (Art. 6.9): white's flag has fallen",
        "the game is over (0-1 by time forfeit (Art. 6.9): white's flag has fallen)",
    ]
    assert c.handle("clock").lines == ["white 0:00, black 1:00"]
    assert c.status() == "game over: 0-1 by time forfeit (Art. 6.9): white's flag has fallen"
