"""Moving (Art. 3, 4.3-4.5 touch-move) and illegal moves (Art. 7.5; S7.4, 10.3; USCF 11D)."""

from __future__ import annotations

import pytest

from chessarbiter.arbiter import (
    ArbiterError,
    IllegalMoveCompleted,
    Moved,
    Touched,
)
from chessarbiter.laws.endings import Termination
from chessarbiter.laws.profiles import (
    FIDE_2000,
    FIDE_2023,
    FIDE_2023_BLITZ,
    FIDE_2023_RAPID,
    ONLINE,
    USCF,
    USCF_BLITZ,
    RuleProfile,
)
from tests.arbiter.driver import MIN, B, Driver, S, W

CASTLING = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"


def test_art_1_1_moving_out_of_turn_is_rejected_and_changes_nothing() -> None:
    d = Driver(FIDE_2023)
    state = d.game.state()
    with pytest.raises(ArbiterError, match="white has the move"):
        d.game.apply(Moved(d.tick(S), B, "e7e5"))
    with pytest.raises(ArbiterError, match="not a legal move"):
        d.game.apply(Moved(d.tick(S), W, "e2e5"))
    assert d.game.state() == state and d.game.log[-1].kind == "start-clocks"


def test_digital_input_rejects_illegal_moves_and_touches() -> None:
    d = Driver(ONLINE)
    with pytest.raises(ArbiterError, match="over-the-board"):
        d.event(IllegalMoveCompleted, side=W, uci="e2e5")
    with pytest.raises(ArbiterError, match="over-the-board"):
        d.event(Touched, side=W, square="e2")
    assert d.game.log == ()


@pytest.mark.parametrize(
    ("touches", "allowed"),
    [
        (["g1"], {"g1f3", "g1h3"}),  # 4.3.1 own piece: move it
        (["b1", "g1"], {"b1a3", "b1c3"}),  # the first touched
        (["e1"], set()),  # king cannot move: 4.5 any move
        (["d7"], set()),  # enemy piece that cannot be captured: any move
    ],
)
def test_art_4_3_touch_move(touches: list[str], allowed: set[str]) -> None:
    d = Driver(FIDE_2023)
    everything = set(d.game.legal_moves())
    for sq in touches:
        d.event(Touched, side=W, square=sq)
    assert set(d.game.legal_moves()) == (allowed or everything)
    if allowed:
        with pytest.raises(ArbiterError, match="touch-move"):
            d.play("e2e4")


def test_art_4_3_3_own_and_enemy_piece_touched_capture_with_the_own_piece() -> None:
    d = Driver(FIDE_2023, fen="4k3/8/8/3p4/4P3/2N5/8/4K3 w - - 0 1")
    d.event(Touched, side=W, square="c3")
    d.event(Touched, side=W, square="d5")
    assert d.game.legal_moves() == ["c3d5"]
    d = Driver(FIDE_2023, fen="4k3/8/8/3p4/4P3/2N5/8/4K3 w - - 0 1")
    d.event(Touched, side=W, square="d5")
    assert set(d.game.legal_moves()) == {"c3d5", "e4d5"}


@pytest.mark.parametrize(
    ("touches", "allowed"),
    [
        (["e1", "h1"], {"e1g1"}),  # 4.4.2 king then rook: castle that side
        (["h1", "e1"], "rook"),  # 4.4.4 rook first: the rook must move
    ],
)
def test_art_4_4_castling_touches(touches: list[str], allowed: set[str] | str) -> None:
    d = Driver(FIDE_2023, fen=CASTLING)
    for sq in touches:
        d.event(Touched, side=W, square=sq)
    moves = set(d.game.legal_moves())
    if allowed == "rook":
        assert moves and all(m.startswith("h1") for m in moves)
    else:
        assert moves == allowed


def test_art_4_4_3_castling_illegal_then_another_king_move() -> None:
    d = Driver(FIDE_2023, fen="r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1")
    d.event(Touched, side=W, square="e1")
    d.event(Touched, side=W, square="h1")
    moves = set(d.game.legal_moves())
    assert moves and all(m.startswith("e1") for m in moves)
    assert "e1g1" not in moves and "e1f2" in moves


def test_touch_by_the_player_not_on_move_or_of_an_empty_square_is_rejected() -> None:
    d = Driver(FIDE_2023)
    with pytest.raises(ArbiterError, match="white has the move"):
        d.event(Touched, side=B, square="e7")
    with pytest.raises(ArbiterError, match="no piece"):
        d.event(Touched, side=W, square="e4")
    with pytest.raises(ArbiterError, match="not a square"):
        d.event(Touched, side=W, square="z9")


@pytest.mark.parametrize(
    ("profile", "penalty", "losing"),
    [
        (FIDE_2023, 2 * MIN, 2),
        (FIDE_2023_RAPID, MIN, 2),
        (FIDE_2023_BLITZ, MIN, 2),
        (FIDE_2000, 2 * MIN, 3),
        (USCF, 2 * MIN, None),
        (USCF_BLITZ, 0, 1),
    ],
    ids=lambda v: v.name if isinstance(v, RuleProfile) else str(v),
)
def test_art_7_5_5_illegal_move_penalties(
    profile: RuleProfile, penalty: int, losing: int | None
) -> None:
    d = Driver(profile, "90+30")
    d.play("e2e4 e7e5")
    everything = set(d.game.legal_moves())
    for number in range(1, 5):
        before = d.game.clock_ms()
        assert before is not None
        d.event(IllegalMoveCompleted, dt=0, side=W, uci="e4e6")
        assert d.game.illegal_moves(W) == number
        if number == losing:
            outcome = d.game.outcome
            assert outcome is not None and outcome.termination is Termination.ILLEGAL_MOVES
            assert d.result == "0-1"
            return
        assert d.game.clock_ms() == (before[0], before[1] + penalty)
        assert set(d.game.legal_moves()) == everything  # e4 cannot move: 4.5, any move
        assert d.game.fen.startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3")
    assert losing is None


def test_art_7_5_5_loss_is_a_draw_when_the_opponent_cannot_mate() -> None:
    d = Driver(FIDE_2023, fen="4k3/8/8/8/8/8/8/Q3K3 w - - 0 1")
    d.event(IllegalMoveCompleted, side=W, uci="a1b3")
    d.event(IllegalMoveCompleted, side=W, uci="a1b3")
    assert d.result == "1/2-1/2"
    d = Driver(FIDE_2000, fen="4k3/8/8/8/8/8/8/Q3K3 w - - 0 1")
    for _ in range(3):
        d.event(IllegalMoveCompleted, side=W, uci="a1b3")
    assert d.result == "0-1"


def test_art_7_5_1_touch_move_binds_the_replacing_move() -> None:
    d = Driver(FIDE_2023)
    d.event(IllegalMoveCompleted, side=W, uci="g1g3")
    assert set(d.game.legal_moves()) == {"g1f3", "g1h3"}
    d.play("g1f3")
    assert d.game.records[0].side is W


def test_art_7_5_2_unpromoted_pawn_becomes_a_queen_in_2023() -> None:
    fen = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"
    d = Driver(FIDE_2023, fen=fen)
    d.event(IllegalMoveCompleted, side=W, uci="b7b8")
    assert d.game.fen.startswith("1Q2k3/8/")
    assert d.game.illegal_moves(W) == 1 and d.game.to_move is B
    d = Driver(FIDE_2000, fen=fen)
    d.event(IllegalMoveCompleted, side=W, uci="b7b8")
    assert d.game.fen.startswith("4k3/1P6/")
    assert set(d.game.legal_moves()) == {"b7b8q", "b7b8r", "b7b8b", "b7b8n"}


def test_art_7_5_3_pressing_without_a_move_is_an_illegal_move() -> None:
    d = Driver(FIDE_2023)
    d.event(IllegalMoveCompleted, side=W, uci="0000")
    assert d.game.illegal_moves(W) == 1 and d.game.to_move is W


def test_a_legal_move_is_not_recorded_as_illegal() -> None:
    d = Driver(FIDE_2023)
    with pytest.raises(ArbiterError, match="is legal"):
        d.event(IllegalMoveCompleted, side=W, uci="e2e4")
    with pytest.raises(ArbiterError, match="no piece"):
        d.event(IllegalMoveCompleted, side=W, uci="e4e5")


def test_castling_written_as_king_takes_rook_or_two_squares() -> None:
    d = Driver(FIDE_2023, fen=CASTLING)
    d.play("e1h1")
    assert d.game.fen.startswith("r3k2r/8/8/8/8/8/8/R4RK1 b kq")
    d.play("e8c8")
    assert d.game.fen.startswith("2kr3r/")
