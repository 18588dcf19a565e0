"""Playing into dead positions through ``Game.apply`` (Art. 5.2.2, S9.6): the game ends at the
move that reaches a dead position the quick analysis proves, whatever move it is.

Each dead position of the unwinnability corpus gets a predecessor by un-making a move of the
side that just moved: a non-capture move of a piece back to a square it attacks, a pawn's
single step (or its double step when the position has an en-passant square). The predecessor
is checked legal and the move replayed with python-chess before the arbiter sees it.
"""

from __future__ import annotations

from collections.abc import Iterator

import chess
import pytest

from chessarbiter.arbiter import Game, GameOverError, Moved, Resigned
from chessarbiter.clock.records import Side
from chessarbiter.core.position import Position
from chessarbiter.laws.deadpos import IllegalPositionError, can_checkmate
from chessarbiter.laws.endings import Result, Termination
from chessarbiter.laws.profiles import FIDE_2000, FIDE_2023
from tests.laws.corpus_lines import labelled_positions

FILES = ("chasolver-positions.txt", "d3chess-test-vector.txt")
EXAMPLE = "6bk/7p/7B/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3 w - - 0 1"


def quick_proved_dead() -> list[Position]:
    """The corpus's dead positions (both sides labelled unwinnable), once each, that the quick
    analysis proves: every one of them (no exception list)."""
    out: list[Position] = []
    seen: set[str] = set()
    for name in FILES:
        for label, pos in labelled_positions(name):
            if label != "--" or pos.fen() in seen:
                continue
            seen.add(pos.fen())
            try:
                verdicts = [can_checkmate(pos, side, "quick") for side in Side]
            except IllegalPositionError:
                continue
            if all(v.unwinnable for v in verdicts):
                out.append(pos)
    return out


def predecessor(pos: Position) -> tuple[str, str] | None:
    """A legal position and the UCI move that leads from it to ``pos``, if one is found (the
    first retraction that python-chess and the arbiter's FEN reader both accept, preferring
    one where the game is not already over when set up)."""
    target = chess.Board(pos.fen())
    dead: tuple[str, str] | None = None
    for board, move in _retractions(target):
        if not board.is_valid() or move not in board.legal_moves:
            continue
        board.push(move)
        same = (board.board_fen(), board.turn, board.castling_rights, board.ep_square)
        board.pop()
        if same == (target.board_fen(), target.turn, target.castling_rights, target.ep_square):
            try:
                Position(board.fen())  # the arbiter's own, stricter, legality test
            except ValueError:
                continue
            if not Game(FIDE_2023, fen=board.fen()).is_over:
                return board.fen(), move.uci()
            dead = dead or (board.fen(), move.uci())
    return dead


def _retractions(target: chess.Board) -> Iterator[tuple[chess.Board, chess.Move]]:
    mover = not target.turn
    step = 8 if mover == chess.WHITE else -8
    if target.ep_square is not None:
        to = target.ep_square + step
        origin = target.ep_square - step
        yield _moved(target, to, origin), chess.Move(origin, to)
        return
    for to in chess.SquareSet(target.occupied_co[mover]):
        piece = target.piece_at(to)
        assert piece is not None
        if piece.piece_type == chess.PAWN:
            origins = [to - step] if 0 <= to - step < 64 else []
        else:
            origins = list(target.attacks(to))
        for origin in origins:
            if target.piece_at(origin) is None:
                yield _moved(target, to, origin), chess.Move(origin, to)


def _moved(target: chess.Board, to: int, origin: int) -> chess.Board:
    board = target.copy(stack=False)
    piece = board.remove_piece_at(to)
    assert piece is not None
    board.set_piece_at(origin, piece)
    board.turn = not target.turn
    board.ep_square = None
    return board


def _ends_at_the_move(pos: Position) -> None:
    found = predecessor(pos)
    assert found is not None, pos.fen()
    fen, uci = found
    game = Game(FIDE_2023, fen=fen)
    if game.is_over:  # every way into ``pos`` starts from a dead position: judged at set-up
        assert game.outcome is not None
        assert game.outcome.termination is Termination.DEAD_POSITION, (fen, game.outcome)
        return
    side = Side.WHITE if " w " in fen else Side.BLACK
    game.apply(Moved(0, side, uci))
    assert game.outcome is not None, (fen, uci)
    expected = Termination.DEAD_POSITION if pos.count_legal_moves() else Termination.STALEMATE
    assert game.outcome.termination is expected, (fen, uci, game.outcome)
    assert game.outcome.result is Result.DRAW


def _corpus_has_retractable(positions: list[Position]) -> list[Position]:
    out = [p for p in positions if predecessor(p) is not None]
    assert len(out) * 10 >= len(positions) * 9  # nearly every position has a predecessor
    return out


@pytest.fixture(scope="module")
def dead_positions() -> list[Position]:
    return _corpus_has_retractable(quick_proved_dead())


def test_a_sample_of_dead_positions_ends_the_game_at_the_move(
    dead_positions: list[Position],
) -> None:
    sample = dead_positions[::3]
    assert len(sample) > 250
    for pos in sample:
        _ends_at_the_move(pos)


@pytest.mark.long
def test_every_dead_position_ends_the_game_at_the_move(dead_positions: list[Position]) -> None:
    assert len(dead_positions) > 800
    for pos in dead_positions:
        _ends_at_the_move(pos)


def test_the_only_reply_locks_the_wall_so_the_check_ends_the_game() -> None:
    """1.Kd1 Bf7 2.Ke1 Bg8 3.Bg7+ leaves Black only Kxg7 and a locked wall: dead at 3.Bg7+,
    so a resignation there comes too late (under fide-2000 it used to score 1-0)."""
    game = Game(FIDE_2000, fen=EXAMPLE)
    for ply, uci in enumerate(("e1d1", "g8f7", "d1e1", "f7g8")):
        game.apply(Moved(0, Side.WHITE if ply % 2 == 0 else Side.BLACK, uci))
        assert game.outcome is None
    game.apply(Moved(0, Side.WHITE, "h6g7"))
    assert game.outcome is not None
    assert game.outcome.termination is Termination.DEAD_POSITION
    assert game.outcome.result is Result.DRAW
    with pytest.raises(GameOverError):
        game.apply(Resigned(0, Side.BLACK))
    assert game.outcome.result is Result.DRAW
