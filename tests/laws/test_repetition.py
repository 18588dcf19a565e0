"""Repetition identity and claims (Art. 9.2, 9.3, 9.6) against the third-party cases."""

from __future__ import annotations

import json
from typing import Any

import pytest

from chessarbiter.core import Position, parse_fen
from chessarbiter.laws.repetition import (
    FIVEFOLD,
    SEVENTY_FIVE_MOVE_PLIES,
    RepetitionTable,
    fifty_move_claim_correct,
    threefold_claim_correct,
)
from chessarbiter.notation.san import push_san
from tests.corpus import corpus_path


def load(*parts: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in corpus_path(*parts).read_text().splitlines() if line]


def can_claim_threefold(pos: Position, table: RepetitionTable) -> bool:
    return threefold_claim_correct(pos, table, None) or any(
        threefold_claim_correct(pos, table, m) for m in pos.legal_moves()
    )


@pytest.mark.parametrize(
    "case", load("repetition", "repetition_cases.jsonl"), ids=lambda c: c["id"]
)
def test_art_9_2_repetition_cases(case: dict[str, Any]) -> None:
    pos = parse_fen(case["fen"])
    table = RepetitionTable()
    keys = [pos.key()]
    table.add(keys[0])
    checks = {check["ply"]: check for check in case["checks"]}
    for ply in range(len(case["moves"]) + 1):
        if ply:
            push_san(pos, case["moves"][ply - 1])
            keys.append(pos.key())
            table.add(keys[-1])
        check = checks.get(ply, {})
        if "is_repetition_3" in check:
            assert threefold_claim_correct(pos, table, None) is check["is_repetition_3"]
        if "can_claim_threefold" in check:
            assert can_claim_threefold(pos, table) is check["can_claim_threefold"]
        if "is_fivefold" in check:
            assert (table.count(pos.key()) >= FIVEFOLD) is check["is_fivefold"]
        if "same_position_as_ply" in check:
            same = keys[check["same_position_as_ply"]] == keys[ply]
            assert same is check["expected_same"], check.get("why")


@pytest.mark.parametrize("case", load("status", "status_cases.jsonl"), ids=lambda c: c["id"])
def test_art_9_3_and_9_6_2_move_counts(case: dict[str, Any]) -> None:
    pos = parse_fen(case["fen"])
    moves = pos.legal_moves()
    if not moves:  # mate or stalemate has already ended the game: nothing to claim
        assert not case.get("fifty_moves") and not case.get("can_claim_fifty_moves")
        return
    if "fifty_moves" in case:
        assert fifty_move_claim_correct(pos, None) is case["fifty_moves"]
    if "can_claim_fifty_moves" in case:
        claim = fifty_move_claim_correct(pos, None) or any(
            fifty_move_claim_correct(pos, m) for m in moves
        )
        assert claim is case["can_claim_fifty_moves"]
    if "seventyfive_moves" in case:
        seventy_five = pos.halfmove_clock >= SEVENTY_FIVE_MOVE_PLIES and bool(moves)
        assert seventy_five is case["seventyfive_moves"]
