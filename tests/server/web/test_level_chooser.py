"""The home page's engine level chooser shows each level's Elo from the ladder's table."""

from __future__ import annotations

import asyncio
import re

import httpx
import pytest
from starlette.applications import Starlette

from chessarbiter.engines.levels import LADDER_ELO
from chessarbiter.server.web import routes


def home() -> str:
    async def fetch() -> str:
        transport = httpx.ASGITransport(app=Starlette(routes=routes()))
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            page = await http.get("/")
            assert page.status_code == 200
            return page.text

    return asyncio.run(fetch())


def test_each_level_is_offered_with_its_elo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LADDER_ELO, 7, 1720)
    monkeypatch.setitem(LADDER_ELO, 8, None)
    chooser = re.search(r'<select id="level"[^>]*>(.*?)</select>', home(), re.DOTALL)
    assert chooser is not None
    options = re.findall(r'<option value="(\d+)"( selected)?>([^<]*)</option>', chooser[1])
    assert [int(value) for value, _, _ in options] == list(range(1, 11))
    assert [value for value, selected, _ in options if selected] == ["3"]
    labels = {int(value): label for value, _, label in options}
    assert labels[7] == "7 (about 1720 Elo)"
    assert labels[8] == "8 (Elo not measured)"
