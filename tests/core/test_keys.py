"""The position key as the identity of Laws Art. 9.2.3, on ../shared/corpus/repetition/.

Counts of equal keys decide the repetition verdicts the cases give: the position has
appeared three (five) times; a threefold claim is correct now or on a move about to be made
(Art. 9.2.1); two positions are the same or differ (castling rights, a possible en passant).
The SAN moves of the cases are turned into UCI by python-chess (a test-only oracle) until
the project reads SAN itself.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import chess
import pytest

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.position import Position
from chessarbiter.core.zobrist import (
    EN_PASSANT_KEYS,
    PIECE_KEYS,
    TURN_KEY,
    castling_key,
)
from tests.corpus import CORPUS, corpus_path


def _cases() -> list[dict[str, Any]]:
    path = CORPUS / "repetition" / "repetition_cases.jsonl"
    if not path.exists():
        return [{"id": "corpus-missing"}]
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _claimable(pos: Position, seen: Counter[int]) -> bool:
    if seen[pos.key()] >= 3:
        return True
    for move in pos.legal_moves():
        pos.push(move)
        hit = seen[pos.key()] >= 2
        pos.pop()
        if hit:
            return True
    return False


@pytest.mark.parametrize("case", _cases(), ids=lambda c: str(c["id"]))
def test_repetition_case(case: dict[str, Any]) -> None:
    corpus_path("repetition", "repetition_cases.jsonl")
    board = chess.Board(case["fen"])
    pos = parse_fen(case["fen"])
    history = [pos.key()]
    for san in case["moves"]:
        pos.push(pos.parse_uci(board.push_san(san).uci()))
        history.append(pos.key())
    checks = {c["ply"]: c for c in case["checks"]}
    pos = parse_fen(case["fen"])
    board = chess.Board(case["fen"])
    seen: Counter[int] = Counter([history[0]])
    for ply in range(len(case["moves"]) + 1):
        check = checks.get(ply, {})
        key = history[ply]
        if "is_repetition_3" in check:
            assert (seen[key] >= 3) == check["is_repetition_3"], ply
        if "is_fivefold" in check:
            assert (seen[key] >= 5) == check["is_fivefold"], ply
        if "can_claim_threefold" in check:
            assert _claimable(pos, seen) == check["can_claim_threefold"], ply
        if "same_position_as_ply" in check:
            same = history[check["same_position_as_ply"]] == key
            assert same == check["expected_same"], (ply, check.get("why"))
        if ply < len(case["moves"]):
            pos.push(pos.parse_uci(board.push_san(case["moves"][ply]).uci()))
            seen[history[ply + 1]] += 1


def _scratch_key(pos: Position) -> int:
    key = TURN_KEY if pos.turn else 0
    for sq, piece in enumerate(pos.board):
        if piece:
            key ^= PIECE_KEYS[piece][sq]
    key ^= castling_key(pos.castling_rights)
    if pos.ep_square >= 0 and any(
        pos.board[m & 63] & 7 == 1 and (m >> 6) & 63 == pos.ep_square for m in pos.legal_moves()
    ):
        key ^= EN_PASSANT_KEYS[pos.ep_square & 7]
    return key


def test_incremental_key_equals_key_from_scratch() -> None:
    rng = random.Random(7)
    for _ in range(100):
        pos = Position()
        for _ in range(80):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
            assert pos.key() == _scratch_key(pos)
            assert parse_fen(pos.fen()).key() == pos.key()


def test_en_passant_counts_only_when_the_capture_is_legal() -> None:
    # The d-pawn's double step: e4xd3 e.p. is legal in one, pinned along the rank in the other.
    free = parse_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1")
    pinned = parse_fen("8/8/8/8/k2pP2Q/8/8/4K3 b - e3 0 1")
    assert free.key() != parse_fen("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1").key()
    assert pinned.key() == parse_fen("8/8/8/8/k2pP2Q/8/8/4K3 b - - 0 1").key()
