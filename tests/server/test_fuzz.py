"""Fuzzing the API from its OpenAPI document (schemathesis): no response is a 500, every
response conforms to the document, and a rejected request changes nothing. The streaming
routes (open until something happens) are left out."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import hypothesis
import pytest
import requests
import schemathesis
from hypothesis import strategies as st
from schemathesis.core.result import Ok
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi import checks

from chessarbiter.server.accounts import Role
from chessarbiter.server.app import api_document as document
from tests.server.helpers import Live, add_accounts, live_server, memory_lobby

EXAMPLES = 12
"""Examples per route and generation mode in the default run (``long``: 150)."""


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Live, dict[str, str]]]:
    db: Path = tmp_path_factory.mktemp("fuzz") / "games.sqlite"
    tokens = add_accounts(db, "alice", "bob")
    tokens |= add_accounts(db, "judge", role=Role.ARBITER)
    with live_server(db) as server:
        made = requests.post(f"{server.url}/api/challenge/bob", timeout=10,
                             headers={"Authorization": f"Bearer {tokens['alice']}"},
                             data={"color": "white", "clock.limit": "600"})
        game_id = made.json()["id"]
        requests.post(f"{server.url}/api/challenge/{game_id}/accept", timeout=10,
                      headers={"Authorization": f"Bearer {tokens['bob']}"}).raise_for_status()
        tokens["game"] = game_id
        yield server, tokens


def snapshot(live: Live) -> Any:
    """Everything a request could change (an engine's game only by existing: its engine
    moves on its own)."""
    lobby = memory_lobby(live.services)
    return (
        {gid: (e.meta.source == "ai" or len(e.game.log), e.meta.aborted,
               e.meta.source == "ai" or e.game.outcome) for gid, e in live.hub.games.items()},
        sorted(lobby.challenges), len(lobby.seeks),
        len(live.services.members.accounts),
    )


def operations() -> list[Any]:
    schema = schemathesis.openapi.from_dict(document())
    found = []
    for result in schema.get_all_operations():
        assert isinstance(result, Ok), f"the document is not valid: {result}"
        operation = result.ok()
        if not operation.definition.raw.get("x-stream"):
            found.append(operation)
    return found


OPERATIONS = operations()


def fuzz(live: Live, tokens: dict[str, str], operation: Any, examples: int) -> None:
    strategy = st.one_of(operation.as_strategy(GenerationMode.POSITIVE),
                         operation.as_strategy(GenerationMode.NEGATIVE))
    who = st.sampled_from([None, "alice", "bob", "judge", "forged"])
    session = requests.Session()

    @hypothesis.settings(max_examples=examples, deadline=None, database=None,
                         suppress_health_check=list(hypothesis.HealthCheck),
                         phases=[hypothesis.Phase.generate])
    @hypothesis.given(case=strategy, sender=who, real_game=st.booleans())
    def check(case: Any, sender: str | None, real_game: bool) -> None:
        if real_game and "gameId" in (case.path_parameters or {}):
            case.path_parameters["gameId"] = tokens["game"]
        headers = {}
        if sender is not None:
            headers["Authorization"] = f"Bearer {tokens.get(sender, 'cha_forged')}"
        before = snapshot(live)
        response = case.call(base_url=live.url, session=session, headers=headers, timeout=10)
        assert response.status_code < 500 or response.status_code == 503, (
            case.method, case.formatted_path, response.status_code, response.text)
        case.validate_response(response, checks=[
            checks.status_code_conformance, checks.content_type_conformance,
            checks.response_schema_conformance])
        if response.status_code >= 400:
            assert snapshot(live) == before, (case.method, case.formatted_path, response.text)
            assert "error" in response.json()

    check()


@pytest.mark.parametrize("operation", OPERATIONS, ids=[op.label for op in OPERATIONS])
def test_no_server_error_and_no_change_when_rejected(
        live: tuple[Live, dict[str, str]], operation: Any) -> None:
    fuzz(*live, operation, EXAMPLES)


@pytest.mark.long
@pytest.mark.parametrize("operation", OPERATIONS, ids=[op.label for op in OPERATIONS])
def test_fuzz_long(live: tuple[Live, dict[str, str]], operation: Any) -> None:
    fuzz(*live, operation, 150)
