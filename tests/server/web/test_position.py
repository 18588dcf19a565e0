"""The game view the browser board shows: legal moves, SAN and words from the project's rules,
checked against python-chess as the oracle."""

from __future__ import annotations

import random

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chessarbiter.core.errors import ChessError
from chessarbiter.server.web.position import MovesError, read_move, view


def _random_game(seed: int, plies: int) -> tuple[chess.Board, list[str]]:
    rng = random.Random(seed)
    board = chess.Board()
    moves: list[str] = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(move.uci())
        board.push(move)
    return board, moves


@pytest.mark.parametrize("seed", range(6))
def test_view_matches_the_oracle(seed: int) -> None:
    board, moves = _random_game(seed, 60)
    shown = view("startpos", " ".join(moves))
    assert shown["fen"].split()[:4] == board.fen().split()[:4]
    assert sorted(shown["legal"]) == sorted(m.uci() for m in board.legal_moves)
    replay = chess.Board()
    assert shown["san"] == [replay.san_and_push(chess.Move.from_uci(m)) for m in moves]
    assert len(shown["spoken"]) == len(moves)
    assert shown["turn"] == ("white" if board.turn else "black")
    assert shown["check"] == board.is_check()


def test_words_for_a_screen_reader() -> None:
    shown = view("", "e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7")
    assert shown["spoken"][0] == "white: pawn e4"
    assert shown["spoken"][-1] == "white: queen takes pawn on f7, checkmate"
    assert shown["legal"] == []
    assert shown["read"]["ranks"][0].startswith("rank 1: a1 white rook")
    assert shown["read"]["files"][4].startswith("file e: e1 white king")
    assert shown["read"]["black"].startswith("black: king e8")


def test_from_a_fen_and_promotion_moves() -> None:
    fen = "8/P6k/8/8/8/8/8/K7 w - - 0 1"
    shown = view(fen, "")
    assert {"a7a8q", "a7a8r", "a7a8b", "a7a8n"} <= set(shown["legal"])
    assert view(fen, "a7a8n")["san"] == ["a8=N"]


def test_bad_moves_name_the_ply() -> None:
    with pytest.raises(MovesError, match=r"ply 2 \(e2e4\)"):
        view("", "e2e4 e2e4")


def test_typed_moves_in_san_or_uci() -> None:
    assert read_move("", "", "Nf3") == "g1f3"
    assert read_move("", "", "nf3") == "g1f3"
    assert read_move("", "", "g1f3") == "g1f3"
    assert read_move("", "e2e4 e7e5", "Ke2") == "e1e2"
    with pytest.raises(ChessError):
        read_move("", "", "Ke2")
    with pytest.raises(ChessError):
        read_move("", "", "bb")


_TOKENS = st.sampled_from(["e2e4", "e7e5", "g1f3", "e1g1", "a7a8q", "zz", "", "e2e4e", "O-O"])


@settings(max_examples=150, deadline=None)
@given(fen=st.one_of(st.just("startpos"), st.text(max_size=60)),
       moves=st.one_of(st.text(max_size=40), st.lists(_TOKENS, max_size=6).map(" ".join)),
       text=st.text(max_size=12))
def test_any_input_is_read_or_refused_with_a_reason(fen: str, moves: str, text: str) -> None:
    """The routes' inputs come from anyone: a view or a refusal (ChessError), nothing else."""
    try:
        view(fen, moves)
    except ChessError as exc:
        assert str(exc)
    try:
        assert len(read_move(fen, moves, text)) in (4, 5)
    except ChessError as exc:
        assert str(exc)


def test_chess960_castling_is_the_king_taking_its_rook() -> None:
    fen = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1"
    moves = "e2e4 e7e5"
    shown = view(fen, moves, chess960=True)
    assert "f1g1" in shown["legal"]
    assert view(fen, moves + " f1g1", chess960=True)["san"][-1] == "O-O"
    assert read_move(fen, moves, "O-O", chess960=True) == "f1g1"
