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
from chessarbiter.core.fen import parse_fen
from chessarbiter.core.position import Position
from chessarbiter.laws.deadpos import IllegalPositionError, Outcome, can_checkmate, is_dead_position
from chessarbiter.laws.deadpos.proof import proved_dead
from chessarbiter.laws.endings import Result, Termination
from chessarbiter.laws.profiles import FIDE_2000, FIDE_2023
from tests.laws.corpus_lines import labelled_positions

FILES = ("chasolver-positions.txt", "d3chess-test-vector.txt")
EXAMPLE = "6bk/7p/7B/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3 w - - 0 1"
GATED: frozenset[str] = frozenset({
    # A forced sequence ending in stalemate, in positions the per-move gate turns away
    # (a pawn with an open file ahead of it, or free heavy pieces and knights).
    "k7/Pp6/1P5P/8/8/6p1/6Pp/7K w - - 0 1",
    "K1k5/P1Pp4/3P4/8/1P6/1p1p4/pPpP4/rbB5 w - - 0 1",
    "8/8/1Pp5/p7/P1p5/PpPp4/brpP4/kbK5 b - - 0 1",
    "5bnr/1p3qnr/1P6/5p1p/p1p1pPpP/PbPpP1P1/1Q1P1BN1/1Nk1KRRB b - - 0 1",
    "RBQ2n1N/P1P2Pp1/kn4P1/p7/P7/7r/8/4qbK1 b - - 0 1",
    "N1n3Q1/1bP2k2/1P6/3N4/8/3q4/6K1/5rbB b - - 0 1",
    # The pawn-structure exploration proves it, but the h-pawn has an open file.
    "8/pp6/kp4pP/1p6/1P6/6p1/6Pp/7K b - - 0 1",
})
"""Dead positions the quick analysis proves that the per-move proof leaves."""


SEARCHED: frozenset[str] = frozenset({
    "bqn1KN2/rrk1pB2/nb1pPp1p/p1pP1PpP/PpP3P1/1P2N1R1/4Q3/1R4B1 w - - 0 1",
    "8/8/8/6p1/6P1/4p1PK/4Pp1p/3rRnkr w - - 0 1",
    "k7/Pp6/1P6/8/8/8/6K1/6Q1 w - - 0 1",
    "1k6/Pp6/1P6/8/8/7B/6K1/6Q1 b - - 0 1",
    "8/5p2/5P2/8/1p2pP2/kP2p3/2KpP3/1n1B4 w - - 0 1",
    "5brk/4p1p1/3pP1P1/1B1P2p1/3p2p1/3P4/4K1P1/8 b - - 0 1",
    "8/4b1pk/4p3/6PK/6PP/5b2/8/8 w - - 0 1",
    "8/p1p5/2P5/P7/4k3/6p1/6Pp/4b2K b - - 0 1",
    "8/8/p7/PP6/K7/1R6/1R6/k7 b - - 0 1",
    "4B2B/6PP/5P2/4N1P1/5QNk/1P3RP1/5P1P/5RK1 b - - 0 1",
    "4B2B/6PP/4RP2/4N1P1/5QNk/1P4P1/5P1P/5RK1 b - - 0 1",
    "4B2B/6PP/5P2/4NRP1/5QN1/1P4Pk/5P1P/5RK1 w - - 0 1",
    "4B2B/6PP/5P2/4N1P1/5QN1/1P3RPk/5P1P/5RK1 w - - 0 1",
    "7B/6PP/5P2/4N1PB/5QN1/1P3RPk/5P1P/5RK1 w - - 0 1",
    "6nk/4p1bp/4Pp1p/5P1P/p1p5/P1Pp4/PB1P4/KN6 w - - 0 1",
    "1Q6/8/p7/P1p5/K1p5/P1P5/PnQ5/k2n4 w - - 0 1",
    "1Q6/8/p7/P1p5/K1p5/P1Pn4/PQQ5/k2n4 b - - 0 1",
    "k1N5/P7/PB6/8/8/8/8/K7 w - - 0 1",
    "8/pk6/8/P7/8/8/5q2/7K w - - 0 1",
    "r1b5/1kp5/2p5/P1P5/8/8/5q2/7K w - - 0 1",
    "r1b5/p1p5/1kp5/2p5/P1P5/8/5q2/7K w - - 0 1",
    "8/p1p5/1kp5/2p5/P1P5/8/5q2/7K w - - 0 1",
    "8/p1p5/1k1p4/2pP4/P1P5/8/5q2/7K w - - 0 1",
    "8/8/8/8/1N6/2N5/2K5/kN1N4 w - - 0 1",
    "8/8/8/8/1N6/2N5/2K5/k2N4 w - - 0 1",
    "bBb3b1/BkPp1p2/RP1P1Pp1/KPp3P1/2p5/P1P5/8/8 w - - 0 1",
    "8/6p1/6Pp/5p1K/5k1P/8/8/8 b - - 0 1",
    "6k1/7P/4N1K1/8/8/8/8/8 b - - 0 1",
    "8/6R1/8/6p1/2N2pP1/PPPP4/QNP2P1N/1Bk1K2R b - - 0 1",
    "8/pp6/kp4p1/1p4P1/1p4P1/1P4PK/6PP/8 w - - 0 1",
    "2b5/pp1p4/kp1P2p1/1p4P1/1p4P1/1P2p1PK/4P1PP/5B2 w - - 0 1",
    "8/6pp/1p4pk/1P4p1/1P4p1/KP4P1/PP6/8 w - - 0 1",
    "8/1p4pp/1P4pk/1P4p1/1P4p1/KP4P1/PP6/8 w - - 0 1",
    "k1b5/1p1p4/1P1P4/1P6/KP6/1P6/PP6/8 w - - 0 1",
    "Bk6/1P6/1P6/8/5p2/7p/2PP1P1P/R3K3 w - - 0 1",
    "8/1p6/pPp5/P1P5/8/4nkp1/6p1/6K1 b - - 0 1",
    "2R5/8/1p6/kP6/p6p/P7/6KP/1R6 b - - 0 1",
    "B1R5/k1P5/P7/KpP5/pP6/P2P2P1/8/B7 w - - 0 1",
    "k1b5/1pPp4/1P1P4/1P5p/5P1P/5PNR/3NPBBQ/4K2R w - - 0 1",
    "8/8/N7/PpK5/kP6/p7/P7/8 w - b6 0 1",
    "8/pp6/1p4p1/kp4P1/1p4PK/1P4P1/6PP/8 w - - 0 1",
    "8/8/pp4p1/1p4P1/kp4PK/1p4P1/1P4PP/8 w - - 0 1",
    "8/p7/k7/6P1/1Q6/P2Np1N1/1P2PK2/7R w - - 0 1",
    "K7/8/k1p1p1p1/p1P1PPP1/P4P2/8/8/8 b - - 0 1",
    "8/2N5/2P5/kBP5/pP6/P1N5/K7/1R6 b - b3 0 1",
    "8/2N5/2P5/kBP5/p7/P1N5/KP6/1R6 w - - 0 1",
    "k7/1R6/p7/NK6/8/8/8/8 w - - 0 1",
    "5k1K/4pP1P/4P3/6n1/8/8/8/8 b - - 0 1",
    "6Bk/2NRN3/1NB2N1B/R2pR3/2KR1N2/4N3/6Q1/8 w - - 0 1",
    "6Bk/2NRN3/1NB2N2/R2p2R1/2KR1N2/4N3/6Q1/8 w - - 0 1",
    "6k1/6p1/6Pp/p4p1K/r4P1P/8/8/8 b - - 0 1",
})
"""Dead positions the quick analysis proves only with its helpmate search (for some side):
a forced move or two, or every reply, must be followed further than the one ply the per-move
proof looks ahead, before a static proof applies."""


def quick_proved_dead() -> list[Position]:
    """The corpus's dead positions (both sides labelled unwinnable), once each, that the quick
    analysis proves, less :data:`GATED` and :data:`SEARCHED`."""
    out: list[Position] = []
    seen: set[str] = set()
    for name in FILES:
        for label, pos in labelled_positions(name):
            if label != "--" or pos.fen() in seen or pos.fen() in GATED | SEARCHED:
                continue
            seen.add(pos.fen())
            try:
                verdicts = [can_checkmate(pos, side, "quick") for side in (0, 1)]
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


def test_the_positions_left_out_are_proved_only_by_the_quick_analysis() -> None:
    for fen in GATED | SEARCHED:
        pos = parse_fen(fen)
        assert is_dead_position(pos, "quick") is Outcome.UNWINNABLE, fen
        assert proved_dead(pos) is None, fen
    for fen in SEARCHED:
        reasons = {can_checkmate(parse_fen(fen), side, "quick").reason for side in (0, 1)}
        assert "search" in reasons, fen


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
