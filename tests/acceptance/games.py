"""What a game left on disk, read independently of the package: the PGN scoresheet with
python-chess, the default store with sqlite3 and a journal as JSON lines (``docs/store.md``)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import chess.pgn


def read_games(pgn: Path) -> list[chess.pgn.Game]:
    games = []
    with pgn.open() as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            assert not game.errors, game.errors
            games.append(game)
    return games


@dataclass(frozen=True)
class Stored:
    """A game of the SQLite store: its id, outcome (``None``: unfinished) and moves."""

    game_id: int
    outcome: str | None
    moves: list[str]


def stored_games(database: Path) -> list[Stored]:
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        games = []
        for game_id, outcome in db.execute("SELECT id, outcome FROM games ORDER BY id"):
            moves = [json.loads(text)["uci"] for (text,) in db.execute(
                "SELECT json FROM events WHERE game_id = ? AND kind = 'move' ORDER BY seq",
                (game_id,))]
            games.append(Stored(game_id, outcome, moves))
        return games
    finally:
        db.close()


def agree(pgn: Path, database: Path) -> tuple[chess.pgn.Game, Stored]:
    """The one game of ``pgn`` and of ``database``, checked to be the same game: the same
    moves, finished in both or in neither."""
    (game,) = read_games(pgn)
    (kept,) = stored_games(database)
    assert kept.moves == [move.uci() for move in game.mainline_moves()], (kept, str(game))
    assert (kept.outcome is None) == (game.headers["Result"] == "*"), (kept, game.headers)
    return game, kept


def journal_moves(journal: Path) -> list[str]:
    """The moves of a JSON-lines journal (its first line is the game's setup)."""
    events = [json.loads(line) for line in journal.read_text().splitlines()[1:]]
    return [event["uci"] for event in events if event["kind"] == "move"]
