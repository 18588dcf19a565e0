"""Differential test against python-chess (a test-only oracle) on thousands of random games.

After every move: the same legal moves, the same check / checkmate / stalemate verdicts and
checking pieces, the same FEN (both en passant conventions) and the same position identity
(Art. 9.2.3). A failure prints the seed that replays the game. The default run plays a
sample that reaches every kind of move and ending it checks (counted, so it cannot shrink
unnoticed); the long run plays the thousands after it.
"""

from __future__ import annotations

import random
from collections import Counter

import chess
import pytest

from chessarbiter.core.fen import parse_fen, write_fen
from chessarbiter.core.position import Position

GAMES = 400
GAMES_LONG = 21_600
MAX_PLIES = 120


def _start(rng: random.Random) -> tuple[Position, chess.Board]:
    if rng.random() < 0.15:
        index = rng.randrange(960)
        board = chess.Board.from_chess960_pos(index)
        return parse_fen(board.fen(), chess960=True), board
    return Position(), chess.Board()


def play_random_game(seed: int, seen: Counter[str] | None = None) -> int:
    """Play one random game with both libraries side by side; returns the plies played,
    counting in ``seen`` the kinds of moves and endings met."""
    rng = random.Random(seed)
    pos, board = _start(rng)
    seen = Counter() if seen is None else seen
    keys: dict[int, object] = {}
    for ply in range(MAX_PLIES):
        fen = board.fen()
        where = f"seed {seed}, ply {ply}, {fen}"
        theirs = {board.uci(m) for m in board.legal_moves}
        ours = {pos.uci(m): m for m in pos.legal_moves()}
        assert set(ours) == theirs, where
        assert pos.count_legal_moves() == len(theirs), where
        assert pos.is_check() == board.is_check(), where
        assert sorted(pos.checkers()) == sorted(board.checkers()), where
        assert pos.is_checkmate() == (board.is_check() and not theirs), where
        assert pos.is_stalemate() == (not board.is_check() and not theirs), where
        assert write_fen(pos, en_passant="legal") == fen, where
        assert pos.fen() == board.fen(en_passant="fen"), where
        identity = board._transposition_key()
        assert keys.setdefault(pos.key(), identity) == identity, where
        if not theirs:
            seen["checkmate" if board.is_check() else "stalemate"] += 1
            return ply
        text = rng.choice(sorted(theirs))
        move = board.parse_uci(text)
        seen.update(kind for kind, met in (
            ("castling", board.is_castling(move) and not board.chess960),
            ("Chess960 castling", board.is_castling(move) and board.chess960),
            ("en passant", board.is_en_passant(move)), ("promotion", bool(move.promotion)),
        ) if met)
        pos.push(ours[text])
        board.push(move)
    while pos.move_stack:  # unmaking everything restores the start exactly
        pos.pop()
        board.pop()
    assert pos.fen() == board.fen(en_passant="fen"), f"seed {seed} after popping all moves"
    return MAX_PLIES


def test_random_games_match_python_chess() -> None:
    seen: Counter[str] = Counter()
    plies = sum(play_random_game(seed, seen) for seed in range(GAMES))
    assert plies > GAMES * 50  # the games really were played
    kinds = ("castling", "Chess960 castling", "en passant", "promotion", "checkmate")
    assert all(seen[kind] >= 5 for kind in kinds), seen


@pytest.mark.long
def test_many_more_random_games_match_python_chess() -> None:
    for seed in range(GAMES, GAMES + GAMES_LONG):
        play_random_game(seed)
