"""What the browser tests share: a server on a fresh database and one Chromium per module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright import sync_api
from playwright.sync_api import Browser

from tests.server.web.browser import CHROMIUM
from tests.server.web.served import Served


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with Served(tmp_path_factory.mktemp("server") / "games.sqlite") as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert CHROMIUM is not None
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM)
        yield launched
        launched.close()
