"""The full mode's search stages: move guide, guided helpmate search, exhaustive exploration."""

from __future__ import annotations

import random

import chess
import pytest

from chessarbiter.arbiter.oracles import FLAG_BUDGET
from chessarbiter.core.fen import parse_fen
from chessarbiter.core.moves import uci
from chessarbiter.core.position import Position
from chessarbiter.core.squares import Side
from chessarbiter.laws.deadpos import can_checkmate
from chessarbiter.laws.deadpos.closure import Exploration, explore
from chessarbiter.laws.deadpos.guide import (
    WALLED,
    Guide,
    attacked_by,
    check_squares,
    gives_check,
    king_distances,
    knight_jumps,
)
from chessarbiter.laws.deadpos.guided import GuidedSearch
from chessarbiter.laws.deadpos.strategy import Found, Spent
from chessarbiter.laws.deadpos.successors import MOVE, UNKEYED, child_key
from chessarbiter.laws.deadpos.targets import mating_squares
from chessarbiter.laws.deadpos.verdict import Winnability
from tests.laws.lines import mates
from tests.laws.test_deadpos_successors import listed


def _guide(pos: Position, winner: int) -> Guide:
    """The guide towards the first mating square, as the guided search starts."""
    return Guide(pos, winner, mating_squares(pos, winner)[0])


def test_the_corner_follows_the_bishops_colour() -> None:
    light = parse_fen("8/8/8/8/8/1k6/8/4KB2 w - - 0 1")
    assert _guide(light, 0).corner == 56
    dark = parse_fen("8/8/8/8/8/1k6/8/2B1K3 w - - 0 1")
    assert _guide(dark, 0).corner == 0


def test_the_losing_king_is_steered_to_the_corner() -> None:
    pos = parse_fen("8/8/8/3k4/8/8/8/Q3K3 b - - 0 1")
    guide = _guide(pos, 0)
    first = guide.order(pos, pos.legal_moves())[0]
    assert guide.corner == 56 and pos.uci(first) == "d5c6"


def test_a_winner_with_pawns_goes_for_the_blocker() -> None:
    pos = parse_fen("8/8/1k6/7p/7P/3K4/8/8 w - - 0 1")
    guide = _guide(pos, 1)
    assert guide.target(pos) == 31  # h4, the white pawn blocking h5
    assert _guide(pos, 0).target(pos) == 39  # h5
    knight = parse_fen("8/3kp3/8/8/8/3KN3/8/8 b - - 0 1")
    assert _guide(knight, 0).target(knight) == _guide(knight, 0).corner
    bishop = parse_fen("8/8/1k6/7p/7P/3K4/8/5B2 w - - 0 1")
    assert _guide(bishop, 0).target(bishop) == 39
    pos.push(pos.parse_uci("d3e3"))
    assert pos.uci(guide.order(pos, pos.legal_moves())[0]) == "b6c5"


def test_kings_walk_round_the_pawns() -> None:
    pos = parse_fen("k7/8/p7/2p1p1p1/P1P1P1P1/2K5/8/8 w - - 0 1")
    walk = king_distances(pos, 0, 56)  # the white king to a8
    assert walk[18] >= WALLED  # c3 is walled off: b4, d4, f4, h4 are attacked
    assert king_distances(pos, 1, 0)[56] == 7  # the black king a5, takes a4, on to a1
    assert _guide(pos, 0).corner == 56


def test_mating_squares_are_corners_or_boxes_the_king_can_reach() -> None:
    pos = parse_fen("8/6p1/6P1/6P1/6P1/2k3PK/6PP/8 w - - 0 1")
    assert mating_squares(pos, 0) == (0, 63)  # a1, then h8 (only g8 to flee to)
    bare = parse_fen("8/8/8/8/8/1k6/8/4KB2 w - - 0 1")
    assert mating_squares(bare, 0) == (56,)


def test_the_winner_lures_pawns_off_their_file() -> None:
    pos = parse_fen("k1b5/8/8/1pBpBpBp/1PbPbPpP/6P1/6P1/K1B1B3 w - - 0 1")
    guide = _guide(pos, 1)
    pos.push(pos.parse_uci("a1b2"))
    first = [pos.uci(m) for m in guide.order(pos, pos.legal_moves())[:2]]
    assert "e4f3" in first  # g2xf3 g4xf3 frees the black g-pawn


def test_the_loser_takes_a_sacrifice_a_pawn_retakes() -> None:
    pos = parse_fen("k1b1b1b1/8/8/BpBpBpBp/1PbPbPpP/6P1/6P1/K1B5 w - - 0 1")
    guide = _guide(pos, 1)
    for code in ("a1b2", "e4f3"):  # Black's bishop offers itself to the g2 pawn
        pos.push(pos.parse_uci(code))
    first = guide.order(pos, pos.legal_moves())[0]
    assert pos.uci(first) == "g2f3"  # g4xf3 retakes: the wall opens for Black's pawns


def test_the_winner_steps_out_of_its_pawns_way() -> None:
    pos = parse_fen("8/8/k5B1/6P1/8/8/8/K7 w - - 0 1")
    first = _guide(pos, 0).order(pos, pos.legal_moves())[0]
    assert pos.uci(first).startswith("g6")  # the bishop leaves g6, so g5 may advance


def test_a_blocking_knight_heads_for_the_corner() -> None:
    jumps = knight_jumps(1 << 1)
    assert jumps[1] == 0 and jumps[16] == 1 and jumps[0] == 3
    pos = parse_fen("k7/8/8/8/8/8/8/K5nN b - - 0 1")
    guide = _guide(pos, 0)
    assert guide.needs_blockers and guide.corner == 56
    assert pos.uci(guide.order(pos, pos.legal_moves())[0]) in ("g1e2", "g1f3")


def test_direct_checks_and_attacks() -> None:
    pos = parse_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    assert gives_check(pos, pos.parse_uci("a1a8"), pos.king(1))
    assert not gives_check(pos, pos.parse_uci("a1a7"), pos.king(1))
    assert attacked_by(pos, 0) >> 56 & 1 and not attacked_by(pos, 1) & 1


@pytest.mark.parametrize(
    "fen",
    [
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        "4k3/8/4B3/8/4R3/8/4Q3/4K3 w - - 0 1",  # pieces on the king's file behind a bishop
        "3k4/1P3P2/8/1N3B2/8/8/8/4K3 w - - 0 1",  # promotions, knight and bishop checks
        "8/8/8/2k2R2/7Q/p5K1/P7/8 b - - 0 1",
    ],
)
def test_check_squares_agree_with_gives_check(fen: str) -> None:
    pos = parse_fen(fen)
    king = pos.king(pos.turn ^ 1)
    squares = check_squares(pos, king)
    for move in pos.legal_moves():
        fr, to = move & 63, (move >> 6) & 63
        kind = (move >> 12) & 7 or pos.board[fr] & 7
        assert bool(squares(kind, fr) >> to & 1) == gives_check(pos, move, king), pos.uci(move)


def test_guide_keys_sort_to_its_order() -> None:
    pos = parse_fen("k1b5/8/8/1pBpBpBp/1PbPbPpP/6P1/6P1/K1B1B3 w - - 0 1")
    for winner in (0, 1):
        guide = _guide(pos, winner)
        moves = pos.legal_moves()
        keys = guide.keys(pos, moves)
        assert sorted(k & 255 for k in keys) == list(range(len(moves)))
        assert [moves[k & 255] for k in sorted(keys)] == guide.order(pos, moves)


LEFT_AT_THE_BOUND = (
    # walls of bishops and pawns: a bishop taken on f3, g4xf3 and the f-pawn promotes
    # (120,000 to 250,000 nodes before the loser's pawn took the sacrifice)
    ("k1b1b1b1/7b/8/BpBpBpBp/1PbP1PpP/6P1/6P1/K1B5 w - - 0 1", 1, 5_000, 20_000),
    ("k1b1b1b1/8/8/BpBpBpBp/1PbP1PpP/6P1/6P1/K1B5 w - - 0 1", 1, 5_000, 20_000),
    ("k1b1b1b1/8/8/BpBpBpBp/1PbPbPpP/6P1/6P1/K1B5 w - - 0 1", 1, 5_000, 20_000),
    # the king takes g5 once the bishops clear f5 and g6, then g4-g5-g6-g7 mates
    # (120,856 nodes before the pieces stepped out of their pawns' way)
    ("3b1kBR/b3pP1P/1pBpP2P/1P1P1Bp1/K2pB1P1/3P1B2/4B3/8 b - - 0 1", 0, 10_000, 250_000),
)
"""Verdicts a ruling left undetermined before the guide took a wall's sacrifice and made
way: the winner, the guided search's nodes alone, a ruling's nodes."""


@pytest.mark.parametrize(
    ("fen", "winner", "nodes"),
    [
        ("8/8/4k3/8/8/8/3QK3/8 w - - 0 1", 0, 100),
        ("8/7b/4KB2/1k6/8/8/8/8 b - - 0 1", 0, 2_000),
        ("8/8/7p/8/5k1K/7P/8/8 w - - 0 1", 0, 2_000),
        ("8/4p3/8/4P3/8/2K5/8/k7 w - - 0 1", 0, 200),
        ("7k/6p1/5pP1/5p1K/5Pp1/6Pp/7P/8 b - - 0 1", 0, 12_000),
        ("k7/8/p7/2p1p1p1/P1P1P1P1/2K5/8/8 w - - 0 1", 0, 20_000),
        *((fen, winner, alone) for fen, winner, alone, _ in LEFT_AT_THE_BOUND),
    ],
)
def test_guided_search_finds_long_helpmates(fen: str, winner: int, nodes: int) -> None:
    pos = parse_fen(fen)
    found = GuidedSearch(pos, winner).run(nodes)
    assert isinstance(found, Found) and found.nodes <= nodes and mates(fen, found.line, winner)
    assert pos.fen() == fen


@pytest.mark.parametrize(
    ("fen", "winner", "nodes"),
    [(fen, winner, ruling) for fen, winner, _, ruling in LEFT_AT_THE_BOUND],
)
def test_a_ruling_decides_them_in_its_first_round(fen: str, winner: int, nodes: int) -> None:
    # undetermined at a ruling's bound before (FLAG_BUDGET, 5 s): the guided search's turns
    # were shorter than it needed; python-chess replays the line
    verdict = can_checkmate(parse_fen(fen), Side(winner), "full", FLAG_BUDGET)
    assert verdict.winnable and verdict.reason == "guided search", verdict
    assert verdict.nodes <= nodes
    board = chess.Board(fen)
    for code in map(uci, verdict.line):
        move = chess.Move.from_uci(code)
        assert move in board.legal_moves, code
        board.push(move)
    assert board.is_checkmate() and board.turn != (winner == 0)


def test_guided_search_gives_up_within_its_budget() -> None:
    pos = parse_fen("8/4k3/8/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 1")
    assert GuidedSearch(pos, 0).run(300) == Spent(300)


def test_guided_search_out_of_budget_takes_back_its_line() -> None:
    fen = "1k6/3n4/8/8/8/2Q5/1K5P/8 w - - 0 1"
    pos = parse_fen(fen)
    key = pos.key()
    assert GuidedSearch(pos, 1).run(500) == Spent(500)
    assert pos.fen() == fen and pos.key() == key
    assert pos.legal_moves() == parse_fen(fen).legal_moves()


@pytest.mark.parametrize(
    ("fen", "winner"),
    [
        ("1k6/3n4/8/8/8/2Q5/1K5P/8 w - - 0 1", 1),  # found in 44,971 nodes
        ("8/k7/8/3b3B/4b3/8/4P3/2KQRR2 w - - 0 1", 1),  # found in 30,270
        ("k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - - 0 1", 0),  # not within 50,000
    ],
)
def test_guided_search_runs_again_as_afresh(fen: str, winner: int) -> None:
    # a second run keeps the first's legal moves and orders, and searches as a new search
    pos = parse_fen(fen)
    search = GuidedSearch(pos, winner)
    assert search.run(6_250) == Spent(6_250)
    again = search.run(50_000)
    assert again == GuidedSearch(parse_fen(fen), winner).run(50_000)
    assert search.nodes == 6_250 + again.nodes and pos.fen() == fen


def test_exploration_proves_a_locked_position() -> None:
    fen = "k1b5/1p1p4/1P1P4/2K5/8/8/8/8 b - - 0 1"
    pos = parse_fen(fen)
    assert explore(pos, 0, 2_000)[0] is Winnability.UNWINNABLE
    assert explore(pos, 1, 2_000)[0] is Winnability.UNWINNABLE
    assert pos.fen() == fen


def test_exploration_leaves_a_lone_piece_against_a_caged_king() -> None:
    # White's only unit besides its walled-in king is the g-pawn. A queen or a bishop on g8
    # faces a caged king (every check it could give takes a wall unit and is taken back),
    # so those branches end at the promotion; a rook on the f-file takes the f-pawn when it
    # checks and frees the game, and the walk, no longer lost in the queen's branch, finds
    # the mate (undetermined at a ruling's bound before, and by CHA after 5.6 million nodes)
    fen = "8/5p2/8/6P1/6pp/6pk/p5pr/rn4K1 b - - 0 1"
    outcome, line, seen = explore(parse_fen(fen), 0, 200_000)
    assert outcome is Winnability.WINNABLE and seen < 100_000 and mates(fen, line, 0)
    verdict = can_checkmate(parse_fen(fen), Side.WHITE, "full", FLAG_BUDGET)
    assert verdict.winnable, verdict
    board = chess.Board(fen)  # python-chess replays the ruling's line
    for code in map(uci, verdict.line):
        board.push_uci(code)  # raises on an illegal move
    assert board.is_checkmate() and board.turn == chess.BLACK


def test_exploration_finds_a_mate_or_stops_at_its_cap() -> None:
    fen = "5k2/p1p5/8/4p3/8/6p1/P1P1P1Pp/7K w - - 0 1"
    outcome, line, _ = explore(parse_fen(fen), 1, 20_000)
    assert outcome is Winnability.WINNABLE and mates(fen, line, 1)
    outcome, line, seen = explore(Position(), 0, 300)
    assert outcome is Winnability.UNDETERMINED and line == () and seen == 300


def test_a_paused_exploration_goes_on_where_it_stopped() -> None:
    fen = "5k2/p1p5/8/4p3/8/6p1/P1P1P1Pp/7K w - - 0 1"
    pos = parse_fen(fen)
    at_once = explore(pos, 1, 20_000)
    exploration = Exploration(pos, 1)
    assert exploration.run(499) == Spent(499)
    assert len(exploration.seen) == 500 and pos.fen() == fen
    assert isinstance(exploration.run(20_000), Found)
    assert (Winnability.WINNABLE, exploration.found, len(exploration.seen)) == at_once
    assert pos.fen() == fen


@pytest.mark.parametrize(
    "fen",
    [
        "r3k2r/pPp2ppp/8/3pP3/8/8/P1P2PpP/R3K2R w KQkq d6 0 1",
        "r3k2r/pPp2ppp/8/4P3/8/8/P1P2PpP/R3K2R b KQkq - 0 1",
        "4k3/1P6/8/8/8/8/6p1/R3K2R w KQ - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w - - 1 8",
        "8/8/4p3/3pPk2/p1pPp1p1/P1PbP1Pp/3B3P/2K5 b - - 0 1",
        "4k3/1P6/8/2pP4/8/8/6p1/4K3 w - c6 0 1",
        "8/p1p1p3/8/8/8/6p1/P1P1P1Pp/k6K w - - 0 1",
    ],
)
def test_children_are_the_legal_moves_with_the_keys_after_them(fen: str) -> None:
    """On every position of a few random walks: the listed moves are the legal moves in
    the generator's order, with the pieces giving check, and each key is the key after the
    move; a move whose key is seen is left out."""
    rng = random.Random(fen)
    pos = parse_fen(fen)
    checked = 0
    for _ in range(6):
        for _ply in range(40):
            checking, entries = listed(pos, set())
            assert checking == sum(1 << sq for sq in pos.checkers())
            legal = pos.legal_moves()
            assert [move & MOVE for _, move in entries] == legal
            for key, move in entries:
                if key != UNKEYED:
                    undo = pos.make(move & MOVE)
                    assert key == pos.key()
                    pos.unmake(undo)
                    checked += 1
            keyed = [entry for entry in entries if entry[0] != UNKEYED]
            if keyed:
                rest = listed(pos, {keyed[0][0]})[1]
                assert rest == [e for e in entries if e != keyed[0]]
            if not legal:
                break
            pos.push(rng.choice(legal))
        while pos.move_stack:
            pos.pop()
    assert pos.fen() == fen and checked > 0


@pytest.mark.parametrize(
    "fen",
    [
        "r3k2r/pPp2ppp/8/4P3/8/8/P1P2PpP/R3K2R b KQkq - 0 1",
        "4k3/1P6/8/8/8/8/6p1/R3K2R w KQ - 0 1",
        "8/p1p1p3/8/8/8/6p1/P1P1P1Pp/k6K w - - 0 1",
    ],
)
def test_child_keys_are_the_keys_after_the_moves(fen: str) -> None:
    """The best-first and staged searches' :func:`child_key`: on random walks, each move's
    key (when it gives one) is the key after the move, castling rights and promotions
    included; none from a position with an en-passant square is asked for."""
    rng = random.Random(fen)
    pos = parse_fen(fen)
    keyed = 0
    for _ply in range(300):
        legal = pos.legal_moves()
        if not legal:
            break
        if pos.ep_square < 0:
            base = pos.key()
            for move in legal:
                key = child_key(pos, base, move)
                pos.push(move)
                assert key is None or key == pos.key()
                keyed += key is not None
                pos.pop()
        pos.push(rng.choice(legal))
    assert keyed > 50


def test_a_guided_line_is_checked_before_it_is_trusted() -> None:
    """The guided search keeps move lists by position key: a line it returns is replayed
    move by move, and one that is illegal or does not mate is refused."""
    from chessarbiter.core.moves import parse_uci_code
    from chessarbiter.laws.deadpos.guided import _mates

    pos = parse_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    mate = pos.parse_uci("a1a8")
    assert _mates(pos, (mate,))
    assert not _mates(pos, (pos.parse_uci("a1a7"),))  # legal, no mate
    assert not _mates(pos, (parse_uci_code("g1g3"),))  # not a legal move
    assert pos.fen() == "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
