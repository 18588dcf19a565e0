"""What the Playwright tests share: Debian's chromium (the importing test module is skipped
when it is missing; Playwright itself is a test dependency), where screenshots go, the page
size, the longest wait, screenshots kept and a move made with the mouse."""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

CHROMIUM = shutil.which("chromium")
if CHROMIUM is None:
    pytest.skip("Debian's chromium is not installed (scripts/test.sh installs it)",
                allow_module_level=True)

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"
VIEWPORT: ViewportSize = {"width": 1100, "height": 780}
WAIT_MS = 20_000
"""The longest wait for the pages (generous: a loaded machine; passing tests wait far less)."""
expect.set_options(timeout=WAIT_MS)


def keep_screenshot(page: Page, path: Path) -> None:
    """The whole page as a PNG at ``path``, for people to look at (no test reads it back).
    On a loaded machine Playwright's screenshot sometimes waits past its timeout for the
    page to settle (its fonts, a new frame: microsoft/playwright#32849); then one more try,
    and a warning with Playwright's account instead of a failure, since the test's
    assertions are elsewhere."""
    path.parent.mkdir(parents=True, exist_ok=True)
    for attempt in (1, 2):
        try:
            page.screenshot(path=str(path), full_page=True, timeout=WAIT_MS)
            return
        except PlaywrightTimeout as error:
            if attempt == 2:
                warnings.warn(f"no screenshot {path.name}: {error}", stacklevel=2)


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
