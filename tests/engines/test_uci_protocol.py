"""Reading ``go`` and ``position``, writing ``info``, and the think time of ``go``."""

from __future__ import annotations

import pytest

from chessarbiter.clock import BonusMode
from chessarbiter.core.moves import Move
from chessarbiter.core.position import Position
from chessarbiter.engines.search import SearchInfo
from chessarbiter.engines.timeman import Budget, Timekeeper, budget
from chessarbiter.engines.tt import MATE
from chessarbiter.engines.uci_protocol import (
    Go,
    UciError,
    format_info,
    parse_go,
    parse_position,
    read_score,
)
from chessarbiter.engines.uci_server import think_budget


def _args(text: str) -> list[str]:
    return text.split()


def test_parse_go_reads_every_parameter() -> None:
    go = parse_go(_args("wtime 1000 btime -20 winc 5 binc 6 movestogo 3 depth 4 nodes 99 "
                        "movetime 70 mate 2 infinite ponder"))
    assert go == Go(1000, 0, 5, 6, 3, 4, 99, 70, 2, True, True)
    assert parse_go([]) == Go()


def test_parse_position_returns_the_keys_before_each_move() -> None:
    pos, keys = parse_position(_args("startpos moves e2e4 e7e5"))
    assert keys[0] == Position().key()
    assert len(keys) == 2
    assert pos.fen() == Position("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
                                 ).fen()


def test_parse_position_with_a_fen() -> None:
    pos, keys = parse_position(_args("fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1"))
    assert pos.fen() == "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
    assert keys == []


def test_parse_position_rejects_a_missing_kind() -> None:
    with pytest.raises(UciError, match="startpos"):
        parse_position(["e2e4"])


def test_format_info_with_centipawns_and_mates() -> None:
    pv = (Move(12 | 28 << 6), Move(52 | 36 << 6))
    assert format_info(SearchInfo(3, -25, 2000, 100, pv)) == (
        "info depth 3 multipv 1 score cp -25 nodes 2000 nps 20000 time 100 pv e2e4 e7e5")
    assert format_info(SearchInfo(2, MATE - 3, 50, 0, ())) == (
        "info depth 2 multipv 1 score mate 2 nodes 50 nps 0 time 0")


def test_scores_read_back_from_info_lines_are_ascii_numbers_or_none() -> None:
    assert read_score("info depth 3 score cp -34 pv e2e4") == -34
    assert read_score("info score mate 2") == MATE - 2
    assert read_score("info score mate -3") == -(MATE - 3)
    assert read_score(format_info(SearchInfo(2, MATE - 3, 50, 0, ()))) == MATE - 2
    assert read_score("info depth 3 nodes 20") is None
    for value in ("\u00b3", "\u0663", "9" * 5000, "-", "1.5"):
        assert read_score(f"info depth 1 score cp {value} pv e2e4") is None, value


def test_think_budget_from_go() -> None:
    keeper = Timekeeper(30)
    assert think_budget(Go(movetime=500), 0, keeper, 0) == Budget(470, 470)
    assert think_budget(Go(depth=3), 0, keeper, 0) is None
    assert think_budget(Go(wtime=60_000, btime=1_000, winc=2_000), 0, keeper, 0) == budget(
        60_000, BonusMode.INCREMENT, 2_000, None, 30)
    assert think_budget(Go(wtime=60_000, btime=10_000, movestogo=5), 1, keeper, 1) == budget(
        10_000, BonusMode.NONE, 0, 5, 30)
