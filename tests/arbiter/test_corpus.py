"""The corpus's real games through the arbiter.

* Every game ending in checkmate, stalemate, insufficient material (dead position), 75 moves or
  fivefold repetition is ended by the arbiter at that very move with that Termination, and no
  game is ended earlier; python-chess (test-only) is the oracle, ply by ply.
* Every lichess time forfeit ends the same way when the flag is observed: drawn exactly when
  lichess drew it (the opponent could not mate), with the clocks following ``%clk``.

The default run takes a deterministic sample; ``-m long`` replays every game.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import replace
from pathlib import Path

import chess
import pytest

from chessarbiter.arbiter import FlagObserved, Game, Moved, TimeAdded
from chessarbiter.clock import Side, TimeControl, parse_pgn_tag
from chessarbiter.core.moves import uci
from chessarbiter.laws.endings import Result, Termination
from chessarbiter.laws.profiles import FIDE_2023, ONLINE
from chessarbiter.notation.game import RecordedGame
from chessarbiter.notation.pgn_reader import read_pgn_file
from tests.corpus import corpus_path

LICHESS = replace(ONLINE, name="lichess", draw_claims_automatic=False)
"""Lichess: a server whose threefold and 50-move draws are claimed by button."""
PYTHON_CHESS_ENDINGS = {
    chess.Termination.CHECKMATE: Termination.CHECKMATE,
    chess.Termination.STALEMATE: Termination.STALEMATE,
    chess.Termination.INSUFFICIENT_MATERIAL: Termination.DEAD_POSITION,
    chess.Termination.SEVENTYFIVE_MOVES: Termination.SEVENTY_FIVE_MOVES,
    chess.Termination.FIVEFOLD_REPETITION: Termination.FIVEFOLD_REPETITION,
}
LARGE = ("large/lichess_2016-05_sample.pgn", "large/lichess_2017-05_sample_clk.pgn")
NOT_A_MATERIAL_DRAW = {"https://lichess.org/houAYIfd": "0-1"}
"""Drawn by lichess on time although the winner, Black, keeps almost a full army: no Law
draws it (Art. 6.9), so the arbiter gives it to Black."""
SAMPLE_EVERY = 25
LONG_ONLY = ("pgn-read/FIDE_longest_possible_game.pgn",)
"""11,790 plies, 3 s with the python-chess oracle: the long run only."""


@functools.cache
def games(relative: str) -> tuple[RecordedGame, ...]:
    """The readable standard-chess games with moves of one corpus file."""
    path = corpus_path("pgn", relative)
    return tuple(g for g in read_pgn_file(path) if g.error is None and g.moves)


def pgn_files() -> list[str]:
    """The corpus's PGN files, each content once (pgn-extract repeats its inputs)."""
    root = corpus_path("pgn")
    unique: dict[bytes, str] = {}
    for path in sorted(Path(root).rglob("*.pgn")):
        unique.setdefault(path.read_bytes(), str(path.relative_to(root)))
    return sorted(unique.values())


def replay_endings(game: RecordedGame) -> tuple[Termination | None, bool]:
    """Replay with python-chess alongside; returns the arbiter's ending and whether it was one
    python-chess does not see (a dead position proved by the search)."""
    arbiter = Game(FIDE_2023, fen=game.start_fen, chess960=game.chess960)
    board = chess.Board(game.start_fen, chess960=game.chess960)
    for ply, record in enumerate(game.moves):
        text = uci(record.move, game.chess960)
        arbiter.apply(Moved(ply, arbiter.to_move, text))
        board.push(chess.Move.from_uci(text))
        expected = board.outcome()
        outcome = arbiter.outcome
        if expected is not None:
            assert outcome is not None, f"ply {ply + 1}: {expected.termination} missed"
            assert outcome.termination is PYTHON_CHESS_ENDINGS[expected.termination]
            assert outcome.result.value == expected.result().replace("1/2", "1/2")
            return outcome.termination, False
        if outcome is not None:
            assert outcome.termination is Termination.DEAD_POSITION, f"ply {ply + 1}: {outcome}"
            return outcome.termination, True
    return None, False


def sample(relative: str, everything: bool) -> tuple[RecordedGame, ...]:
    if relative in LONG_ONLY and not everything:
        return ()
    all_games = games(relative)
    return all_games if everything or relative not in LARGE else all_games[::SAMPLE_EVERY]


def check_endings(everything: bool) -> Counter[str]:
    seen: Counter[str] = Counter()
    for relative in pgn_files():
        for game in sample(relative, everything):
            termination, extra = replay_endings(game)
            seen[termination.name if termination else "none"] += 1
            seen["dead position python-chess misses"] += extra
    return seen


def test_corpus_endings_sample() -> None:
    seen = check_endings(everything=False)
    assert seen["CHECKMATE"] >= 90 and seen["STALEMATE"] >= 4
    assert seen["DEAD_POSITION"] >= 9 and seen["none"] >= 500


@pytest.mark.long
def test_corpus_endings_every_game() -> None:
    seen = check_endings(everything=True)
    assert seen["CHECKMATE"] >= 600 and seen["STALEMATE"] >= 8 and seen["DEAD_POSITION"] >= 13


def replay_time_forfeit(game: RecordedGame) -> Game:
    """A lichess game through the arbiter, each move timed by its ``%clk`` (0 ms without), then
    the flag of the player to move observed when it falls."""
    control = parse_pgn_tag(game.tags["TimeControl"])
    assert isinstance(control, TimeControl)
    increment = control.periods[0].bonus_ms
    arbiter = Game(LICHESS, control)
    last = {Side.WHITE: control.periods[0].time_ms, Side.BLACK: control.periods[0].time_ms}
    at = 0
    for ply, record in enumerate(game.moves):
        side = arbiter.to_move
        used = 0
        clk = record.clock_ms
        if clk is not None:
            clk = clk or 1  # "0:00:00" shows less than a second left, not a fallen flag
        if clk is not None:
            used = last[side] + (increment if ply >= 2 else 0) - clk
            if used < 0 or (ply < 2 and used):  # lichess "give time" or berserk: in FIDE
                arbiter.apply(TimeAdded(at, side, -used, "lichess"))  # terms, Art. 13.4-13.5
                used = 0
        at += used
        arbiter.apply(Moved(at, side, uci(record.move)))
        if clk is not None:
            assert arbiter.records[-1].clock_ms == clk, f"ply {ply + 1}"
            last[side] = clk
    left = arbiter.time_to_flag()
    assert left is not None
    arbiter.apply(FlagObserved(at + left))
    return arbiter


def check_time_forfeits(everything: bool) -> Counter[str]:
    seen: Counter[str] = Counter()
    for relative in LARGE:
        forfeits = [g for g in games(relative) if g.tags.get("Termination") == "Time forfeit"]
        for index, game in enumerate(forfeits):
            drawn = game.tags["Result"] == "1/2-1/2"
            if not (everything or drawn or index % SAMPLE_EVERY == 0):
                continue
            if len(game.moves) < 2:  # lichess's first-move timer: the clocks never started
                seen["clocks not started"] += 1
                continue
            outcome = replay_time_forfeit(game).outcome
            assert outcome is not None and outcome.termination is Termination.TIME_FORFEIT
            site = game.tags["Site"]
            assert outcome.result.value == NOT_A_MATERIAL_DRAW.get(site, game.tags["Result"]), site
            seen["drawn" if outcome.result is Result.DRAW else "won"] += 1
    return seen


def test_lichess_time_forfeits_sample() -> None:
    seen = check_time_forfeits(everything=False)
    assert seen["drawn"] == 3 and seen["won"] >= 150


@pytest.mark.long
def test_lichess_time_forfeits_every_game() -> None:
    seen = check_time_forfeits(everything=True)
    assert seen["drawn"] == 3 and seen["won"] >= 4000
