"""The per-move dead-position proof (Art. 5.2.2, S9.6): never claims a dead position where the
unwinnability corpus says a side can mate, proves the dead positions the gate lets through,
leaves the position unchanged, and finds no dead position in real games beyond material."""

from __future__ import annotations

import chess
import chess.pgn
import pytest

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.position import Position
from chessarbiter.laws.deadpos import proof
from chessarbiter.laws.deadpos.proof import proved_dead
from tests.corpus import corpus_path
from tests.laws.corpus_lines import labelled_positions

FILES = ("chasolver-positions.txt", "d3chess-test-vector.txt")
EXAMPLE = "6bk/7p/7B/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3 w - - 0 1"


def _after(fen: str, *moves: str) -> Position:
    pos = parse_fen(fen)
    for text in moves:
        pos.push_uci(text)
    return pos


def test_the_check_whose_only_reply_locks_the_wall_is_dead() -> None:
    before = _after(EXAMPLE, "e1d1", "g8f7", "d1e1", "f7g8")
    assert proved_dead(before) is None
    after = _after(EXAMPLE, "e1d1", "g8f7", "d1e1", "f7g8", "h6g7")
    fen = after.fen()
    assert proved_dead(after) == "blocked pawn structure"
    assert after.fen() == fen
    assert len(after.move_stack) == 5


@pytest.mark.parametrize(
    ("fen", "reason"),
    [
        ("8/8/8/4k3/8/8/8/4KB2 b - - 0 1", "insufficient material"),
        ("Rk6/8/2K5/8/8/8/8/8 b - - 0 1", "insufficient material after the forced moves"),
        ("8/8/1k6/8/p1p1p1p1/P1P1P1P1/8/1K6 w - - 0 1", "blocked pawn structure"),
        # Both Rxd1 and Rxf1 leave a shut-in position the static analysis proves dead.
        ("8/8/8/6p1/6P1/4p1PK/4Pp1p/3bRnkr w - - 0 1", "every legal move leads to a dead position"),
        ("8/8/8/8/8/2K5/N7/kN6 b - - 0 1", "every legal move leads to a dead position"),
        # The bare black king has no move: every white move stalemates it or gives a check
        # the proof search follows to its end.
        ("8/8/8/8/1N6/2N5/2K5/kN1N4 w - - 0 1", "every line of play is exhausted"),
        # A pawn free on the h-file, but White's only move h7 leaves a locked position.
        ("k7/Pp6/1P5P/8/8/6p1/6Pp/7K w - - 0 1", "the forced moves end in stalemate"),
        # From a lichess game: the gate lets it through to the proof search, which meets a
        # line it cannot finish.
        ("8/1b6/1k6/3BK2p/3Pp2P/4P3/8/8 w - - 0 46", None),
        # With a black queen on d1 instead, Black can still mate (labelled so in the corpus).
        ("8/8/8/6p1/6P1/4p1PK/4Pp1p/3qRnkr w - - 0 1", None),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", None),
        (chess.STARTING_FEN, None),
    ],
)
def test_reasons(fen: str, reason: str | None) -> None:
    assert proved_dead(parse_fen(fen)) == reason


def _check_sound(every: int) -> int:
    """Never dead where a side can mate; returns how many positions were proved dead."""
    proved = 0
    for name in FILES:
        for label, pos in labelled_positions(name, every):
            if pos.count_legal_moves() == 0:
                continue  # checkmate and stalemate come first (composed mates in the corpus)
            fen = pos.fen()
            reason = proved_dead(pos)
            assert pos.fen() == fen
            if reason is not None:
                assert label == "--", (fen, label, reason)
                proved += 1
    return proved


def test_sound_on_a_corpus_sample() -> None:
    assert _check_sound(9) > 50


@pytest.mark.long
def test_sound_on_the_whole_corpus() -> None:
    assert _check_sound(1) > 900


def test_real_games_are_dead_only_by_material() -> None:
    """In the first lichess games, a position is proved dead only when python-chess also finds
    insufficient material, and most positions pass."""
    path = corpus_path("pgn", "large", "lichess_2016-05_sample.pgn")
    positions = 0
    with path.open(encoding="utf-8") as stream:
        for _ in range(300):
            game = chess.pgn.read_game(stream)
            assert game is not None
            board = game.board()
            pos = Position()
            for move in game.mainline_moves():
                board.push(move)
                pos.push_uci(move.uci())
                positions += 1
                if proved_dead(pos) is not None:
                    assert board.is_insufficient_material(), board.fen()
    assert positions > 10_000


def test_the_memo_of_turned_away_positions_answers_as_the_proof_does() -> None:
    """After every move of real games (quiet moves from a turned-away position answered from
    the memo), the answer is the one the proof gives without the memo, and the memo is used."""
    path = corpus_path("pgn", "large", "lichess_2016-05_sample.pgn")
    remembered = 0
    with path.open(encoding="utf-8") as stream:
        for _ in range(100):
            game = chess.pgn.read_game(stream)
            assert game is not None
            pos = Position()
            for move in game.mainline_moves():
                pos.push_uci(move.uci())
                key, moves, _ = proof._turned_away
                remembered += bool(moves and pos.quiet_parent() == key)
                assert proved_dead(pos) == proof._proved(pos, True), pos.fen()
    assert remembered > 1_000


def test_the_memo_counts_quiet_moves_down() -> None:
    # 8 free pawns, none stuck: turned away for good while only pieces move
    pos = _after(chess.STARTING_FEN, "g1f3")
    assert proved_dead(pos) is None
    assert proof._turned_away[:2] == (pos.key(), proof.QUIET_FOREVER)
    pos.push_uci("g8f6")
    assert proved_dead(pos) is None
    assert proof._turned_away[:2] == (pos.key(), proof.QUIET_FOREVER - 1)
    # pawn moves are not quiet; a position with an en-passant square is not remembered
    pos.push_uci("e2e4")
    pos.push_uci("e7e5")
    assert proved_dead(pos) is None
    assert proof._turned_away[0] != pos.key()
    # e4 and e5 stuck, 11 free (the knights block c2, f2 and f7); fewer than four stuck, so
    # one free pawn keeps it turned away: (11 - 1) // 2 moves (each blocks at most two)
    pos.push_uci("b1c3")
    assert proved_dead(pos) is None
    assert proof._turned_away[:2] == (pos.key(), 5)
    for text in ("b8c6", "f1c4", "f8c5", "d1e2", "d8e7"):
        pos.push_uci(text)
        assert proved_dead(pos) is None
    assert proof._turned_away[:2] == (pos.key(), 0)


@pytest.mark.parametrize("fen", [
    "5r1k/p5Q1/5p2/6pK/6P1/5q2/8/8 b - - 0 40",  # Kxg7, the only move, stalemates
    "7R/6pk/p5p1/3p4/5b2/4nP2/6r1/4K3 b - - 6 48",  # Kxh8 stalemates
    "8/4Q3/2p2p2/2P2k2/6R1/5PPK/7r/8 w - - 15 63",  # Kxh2 stalemates
])
def test_a_check_with_one_reply_is_analysed_whatever_the_pawns(fen: str) -> None:
    """In check with a single legal move, a pawn free to step: the first gate lets the
    position through when the side giving check has one piece at most (issue 28)."""
    pos = parse_fen(fen)
    assert pos.count_legal_moves() == 1
    proof._turned_away = (-1, 0, False)
    assert proved_dead(pos) == "the forced moves end in stalemate"
