"""``chessarbiter play`` as a person plays it: through a real terminal (tmux), on its
defaults (you play White against the built-in engine, 5+3, the SQLite store
``games/games.sqlite``, the scoresheet ``games/games-ID.pgn``), full-screen and
``--accessible``, to the game's end and resumed after an interruption; the database and the
PGN must hold the same game."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.acceptance.games import agree, journal_moves, read_games
from tests.acceptance.processes import wait_until
from tests.acceptance.terminal import Terminal
from tests.acceptance.venvs import Venv

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None,
                                reason="tmux is not installed (scripts/test.sh installs it)")

FIELD = "▊  "
"""The full-screen input field's left edge, before what is typed."""
REPLY = r"(?:[NBRQK]?[a-h]?[1-8]?x?[a-h][1-8](?:=[NBRQ])?|O-O(?:-O)?)[+#]?"
"""A move in SAN, as the move list shows the engine's."""
RESIGNED = "game over: 0-1 by resignation"
SPOKEN_RESIGNED = "game over: black wins by resignation"


@contextmanager
def playing(plain: Venv, cwd: Path, *args: str) -> Iterator[Terminal]:
    terminal = Terminal([str(plain.command), "play", *args], cwd, plain.env())
    try:
        yield terminal
    finally:
        terminal.close()


def full_screen_move(terminal: Terminal, number: int, san: str) -> str:
    """Play White's ``san`` as move ``number``; the engine's reply, as the move list shows."""
    terminal.type(san, echo=re.escape(FIELD + san))
    return terminal.wait_for(rf"{number}\. {re.escape(san)} ({REPLY})").group(1)


def at_prompt(terminal: Terminal) -> None:
    """Wait for the accessible prompt for White's move, on the last line."""
    wait_until(lambda: terminal.last_line() == "white>", "the prompt 'white> '")


def said_for_black(terminal: Terminal) -> int:
    return len(re.findall(r"(?m)^black: ", terminal.screen()))


def spoken_move(terminal: Terminal, san: str) -> None:
    """Play White's ``san`` at the prompt; wait until the engine's reply is announced (one
    more line said for black) and the prompt is White's again."""
    before = said_for_black(terminal)
    terminal.type(san)
    wait_until(lambda: said_for_black(terminal) > before,
               f"the engine's reply to {san} announced")
    at_prompt(terminal)


def finished_well(cwd: Path, moves: int) -> None:
    game, kept = agree(cwd / "games" / "games-1.pgn", cwd / "games" / "games.sqlite")
    assert game.headers["Result"] == "0-1" and kept.outcome is not None
    assert len(kept.moves) == moves
    assert game.headers["White"] == "Human"
    assert game.headers["Black"].startswith("chessarbiter level")


def test_a_full_screen_game_against_the_engine_to_its_end(plain: Venv, cwd: Path) -> None:
    with playing(plain, cwd) as terminal:
        terminal.wait_for("type help")
        full_screen_move(terminal, 1, "e4")
        full_screen_move(terminal, 2, "Nf3")
        terminal.type("resign", echo=re.escape(FIELD + "resign"))
        terminal.wait_for(RESIGNED)
        terminal.type("quit", echo=re.escape(FIELD + "quit"))
        assert terminal.exit_code() == 0
        assert "game saved to games/games-1.pgn" in terminal.screen()
    finished_well(cwd, 4)
    listed = plain.run("play", "--list", cwd=cwd)
    assert listed.returncode == 0, listed.stderr
    assert re.search(r"^1\t.*\tHuman - chessarbiter level \d+\t.*resign", listed.stdout,
                     re.M), listed.stdout


def test_a_full_screen_game_interrupted_then_resumed(plain: Venv, cwd: Path) -> None:
    with playing(plain, cwd) as terminal:
        terminal.wait_for("type help")
        reply = full_screen_move(terminal, 1, "e4")
        terminal.type("quit", echo=re.escape(FIELD + "quit"))
        assert terminal.exit_code() == 0
    game, kept = agree(cwd / "games" / "games-1.pgn", cwd / "games" / "games.sqlite")
    assert game.headers["Result"] == "*" and kept.outcome is None and len(kept.moves) == 2
    with playing(plain, cwd, "--resume", "1") as terminal:
        terminal.wait_for("type help")
        terminal.wait_for(rf"1\. e4 {re.escape(reply)}")
        full_screen_move(terminal, 2, "Nf3")
        terminal.type("resign", echo=re.escape(FIELD + "resign"))
        terminal.wait_for(RESIGNED)
        terminal.type("quit", echo=re.escape(FIELD + "quit"))
        assert terminal.exit_code() == 0
    finished_well(cwd, 4)


def test_an_accessible_game_against_the_engine_to_its_end(plain: Venv, cwd: Path) -> None:
    with playing(plain, cwd, "--accessible") as terminal:
        terminal.wait_for("you play white against chessarbiter level")
        at_prompt(terminal)
        spoken_move(terminal, "e4")
        spoken_move(terminal, "Nf3")
        terminal.type("resign")
        terminal.wait_for(SPOKEN_RESIGNED)
        terminal.type("quit")
        assert terminal.exit_code() == 0
    finished_well(cwd, 4)


def test_an_accessible_game_interrupted_then_resumed(plain: Venv, cwd: Path) -> None:
    with playing(plain, cwd, "--accessible") as terminal:
        at_prompt(terminal)
        spoken_move(terminal, "e4")
        terminal.type("quit")
        assert terminal.exit_code() == 0
    game, kept = agree(cwd / "games" / "games-1.pgn", cwd / "games" / "games.sqlite")
    assert game.headers["Result"] == "*" and kept.outcome is None and len(kept.moves) == 2
    with playing(plain, cwd, "--accessible", "--resume", "1") as terminal:
        at_prompt(terminal)
        spoken_move(terminal, "Nf3")
        terminal.type("resign")
        terminal.wait_for(SPOKEN_RESIGNED)
        terminal.type("quit")
        assert terminal.exit_code() == 0
    finished_well(cwd, 4)


def test_an_accessible_game_in_a_journal_resumed_from_its_file(plain: Venv, cwd: Path) -> None:
    """``--store FOLDER/``: one JSON-lines journal per game, the PGN beside it; ``--resume``
    takes the journal's file."""
    with playing(plain, cwd, "--accessible", "--store", "journals/") as terminal:
        at_prompt(terminal)
        spoken_move(terminal, "e4")
        terminal.type("quit")
        assert terminal.exit_code() == 0
    (journal,) = (cwd / "journals").glob("game-*.jsonl")
    assert len(journal_moves(journal)) == 2
    with playing(plain, cwd, "--accessible", "--resume", str(journal)) as terminal:
        at_prompt(terminal)
        spoken_move(terminal, "Nf3")
        terminal.type("resign")
        terminal.wait_for(SPOKEN_RESIGNED)
        terminal.type("quit")
        assert terminal.exit_code() == 0
    (game,) = read_games(journal.with_suffix(".pgn"))
    assert game.headers["Result"] == "0-1"
    assert journal_moves(journal) == [move.uci() for move in game.mainline_moves()]
    assert len(journal_moves(journal)) == 4
    assert not (cwd / "games").exists(), "the journal is the store: no database"
