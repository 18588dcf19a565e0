"""What the Playwright tests share: Debian's chromium (the importing test module is skipped
when it is missing; Playwright itself is a test dependency), where screenshots go, the page
size, the longest wait and a move made with the mouse."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

CHROMIUM = shutil.which("chromium")
if CHROMIUM is None:
    pytest.skip("Debian's chromium is not installed (scripts/test.sh installs it)",
                allow_module_level=True)

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"
VIEWPORT: ViewportSize = {"width": 1100, "height": 780}
WAIT_MS = 20_000
"""The longest wait for the pages (generous: a loaded machine; passing tests wait far less)."""
expect.set_options(timeout=WAIT_MS)


def signed_in(browser: Browser, url: str, token: str, audited: bool = False) -> Page:
    """``url`` in a new person's context, signed in with the account's API token by the
    page's form; ``audited``: the page's CSP bypassed, for axe-core to be injected."""
    page = browser.new_context(viewport=VIEWPORT, bypass_csp=audited).new_page()
    page.goto(url)
    page.fill("#token", token)
    page.click("#login button[type=submit]")
    expect(page.locator("#who")).to_contain_text("signed in as")
    return page


def click_move(page: Page, uci: str) -> None:
    """A move made with the mouse once the board takes one (after a refused move the piece
    goes back first): the piece, then its square."""
    expect(page.locator("#board g.board.input-enabled")).to_have_count(1)
    click_squares(page, uci)


def click_squares(page: Page, uci: str) -> None:
    """The two clicks of a move, whether or not the board takes one."""
    page.click(f'#board rect[data-square="{uci[:2]}"]')
    page.click(f'#board rect[data-square="{uci[2:4]}"]')
