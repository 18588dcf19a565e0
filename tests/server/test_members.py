"""What a server of one process knows of its accounts and sessions is read from its database
again: an account made beside the running server (as ``serve --add-account`` does) works at
once; a known token is read again in the background once ``CHECK_S`` has passed (the request
served meanwhile by what was known), so a role changed or a token removed in the database
holds within that time; a made-up token costs one read each ``CHECK_S``; a session opened by
another process is known at once."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from chessarbiter.server import members as members_module
from chessarbiter.server.accounts import hash_secret, insert_session, select_account
from chessarbiter.server.members import CHECK_S, MAX_CHECKED
from tests.server.helpers import add_accounts, in_process


def test_an_account_made_beside_the_running_server_works_at_once(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"

    async def run() -> None:
        async with in_process(db) as server:
            token = add_accounts(db, "Latecomer")["Latecomer"]  # another connection
            headers = {"Authorization": f"Bearer {token}"}
            answer = await server.client.get("/api/account", headers=headers)
            assert answer.status_code == 200, answer.text
            assert answer.json()["username"] == "Latecomer"
            challenged = await server.client.post(  # challenged by name, too
                "/api/challenge/latecomer", headers=await server.account("host"),
                data={"clock.limit": "300", "clock.increment": "2"})
            assert challenged.status_code == 200, challenged.text
            assert challenged.json()["destUser"]["id"] == "latecomer"

    asyncio.run(run())


def test_a_known_token_is_read_again_in_the_background(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "games.sqlite"
    token = add_accounts(db, "Ann")["Ann"]  # known from the start
    headers = {"Authorization": f"Bearer {token}"}

    async def run() -> None:
        async with in_process(db) as server:
            members = server.services.members
            now = [1000.0]
            members.clock = lambda: now[0]
            reads: list[Any] = []

            def counted(*args: Any) -> Any:
                reads.append(args)
                return select_account(*args)

            monkeypatch.setattr(members_module, "select_account", counted)
            assert (await server.client.get("/api/account", headers=headers)).status_code == 200
            await members.settled()
            assert len(reads) == 1  # read once in the background, the request not held
            await server.services.db.run(lambda store, conn: conn.execute(
                "UPDATE server_accounts SET role = 'arbiter' WHERE id = 'ann'"))
            now[0] += CHECK_S - 1
            await server.client.get("/api/account", headers=headers)
            await members.settled()
            known = members.accounts.by_token(token)
            assert len(reads) == 1 and known is not None and not known.is_arbiter
            now[0] += 1
            await server.client.get("/api/account", headers=headers)
            await members.settled()
            known = members.accounts.by_token(token)
            assert len(reads) == 2 and known is not None and known.is_arbiter
            await server.services.db.run(lambda store, conn: conn.execute(
                "DELETE FROM server_accounts WHERE id = 'ann'"))
            now[0] += CHECK_S
            served = await server.client.get("/api/account", headers=headers)
            assert served.status_code == 200  # what was known, while it is read again
            await members.settled()
            refused = await server.client.get("/api/account", headers=headers)
            assert refused.status_code == 401 and "token" in refused.json()["error"]
            for _ in range(3):  # a made-up token: one read, then refused from memory
                made_up = await server.client.get(
                    "/api/account", headers={"Authorization": "Bearer cha_madeup"})
                assert made_up.status_code == 401
            assert len(reads) == 4
            now[0] += CHECK_S
            await server.client.get("/api/account", headers={"Authorization": "Bearer cha_madeup"})
            assert len(reads) == 5

    asyncio.run(run())


def test_a_flood_of_made_up_tokens_keeps_the_memory_bounded(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    monkeypatch.setattr(members_module, "MAX_CHECKED", 5)
    assert MAX_CHECKED > 5

    async def run() -> None:
        async with in_process(tmp_path / "games.sqlite") as server:
            members = server.services.members
            for n in range(12):
                await members.check_token(f"cha_madeup{n}")
            assert len(members._checked) <= 5

    asyncio.run(run())


def test_a_session_opened_elsewhere_is_known_at_once(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"

    async def run() -> None:
        async with in_process(db) as server:
            await server.account("Bea")
            secret, digest = await server.services.db.run(  # as another process would
                lambda store, conn: insert_session(conn, "bea", 1_000))
            assert digest == hash_secret(secret)
            server.services.members.sessions.now_ms = lambda: 2_000
            server.client.cookies.set("chessarbiter-session", secret)
            answer = await server.client.get("/api/account")
            assert answer.status_code == 200, answer.text
            assert answer.json()["id"] == "bea"

    asyncio.run(run())
