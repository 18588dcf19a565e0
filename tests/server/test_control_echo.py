"""The server's game creation echoes the control it read, seconds forms included, in the
written form and in words."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.server.helpers import InProcess, in_process


@pytest.mark.parametrize(("written", "text", "words"), [
    ("20s+0.1s", "20s+0.1s", "20 seconds + 0.1 seconds per move"),
    ("1m+1s", "1+1", "1 minute + 1 second per move"),
    ("5+3", "5+3", "5 minutes + 3 seconds per move"),
    ("G/30s;d2s", None, "30 seconds with a delay of 2 seconds per move"),
])
def test_a_challenge_echoes_its_control(
    tmp_path: Path, written: str, text: str | None, words: str
) -> None:
    async def scenario(s: InProcess) -> None:
        alice = await s.account("alice")
        await s.account("bob")
        made = await s.post("/api/challenge/bob", alice,
                            data={"color": "white", "timeControl": written})
        assert made.status_code == 200, made.text
        control = made.json()["control"]
        assert (control["text"], control["words"]) == (text, words)

    async def main() -> None:
        async with in_process(tmp_path / "games.sqlite") as server:
            await scenario(server)

    asyncio.run(main())


def test_a_bad_control_is_a_400_naming_the_token(tmp_path: Path) -> None:
    async def scenario(s: InProcess) -> None:
        alice = await s.account("alice")
        await s.account("bob")
        made = await s.post("/api/challenge/bob", alice,
                            data={"color": "white", "timeControl": "10x+0.1s"})
        assert made.status_code == 400
        assert "'10x': expected time" in made.json()["error"]

    async def main() -> None:
        async with in_process(tmp_path / "games.sqlite") as server:
            await scenario(server)

    asyncio.run(main())
