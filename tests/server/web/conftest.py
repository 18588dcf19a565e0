"""What the browser tests share: a server on a fresh database and one Chromium per module,
and the ``see`` fixture (:class:`~tests.server.web.seen.Seer`): audit, phone width, screenshots."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright import sync_api
from playwright.sync_api import Browser

from tests.server.web.axe import install_axe
from tests.server.web.browser import CHROMIUM
from tests.server.web.seen import Seer
from tests.server.web.served import Served


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with Served(tmp_path_factory.mktemp("server") / "games.sqlite") as running:
        yield running


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    assert CHROMIUM is not None
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM)
        yield launched
        launched.close()


@pytest.fixture
def browser(chromium: Browser) -> Iterator[Browser]:
    """The module's browser; the contexts (people) a test opened are closed after it, so
    that no page of an earlier test keeps its streams and clocks running in the browser."""
    yield chromium
    for context in chromium.contexts:
        context.close()


@pytest.fixture(scope="session")
def axe_found(tmp_path_factory: pytest.TempPathFactory) -> tuple[str | None, str]:
    return install_axe(tmp_path_factory.mktemp("axe"))


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    named = os.environ.get("CHESSARBITER_SCREENSHOTS")
    folder = Path(named) if named else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def see(axe_found: tuple[str | None, str], shots: Path) -> Seer:
    return Seer(axe_found[0], shots)
