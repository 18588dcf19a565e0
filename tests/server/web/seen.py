"""Seeing a page as a person does (:class:`Seer`): axe-core's audit (no critical or serious
violation; the moderate ones docs/server-web.md explains), the phone's width (no horizontal
scroll at 390x844; in the accessible mode the move field above the fold) and a screenshot
at 1280x800 and at 390x844, in ``$CHESSARBITER_SCREENSHOTS`` or a folder under pytest's
temporary directory (the ``see`` fixture, conftest.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

from playwright.sync_api import Browser, Page, ViewportSize

from tests.server.web.axe import BLOCKING, audit
from tests.server.web.browser import keep_screenshot

ALLOWED_MODERATE: Final[frozenset[str]] = frozenset()
"""Moderate rules docs/server-web.md explains (none at present)."""
DESKTOP: Final[ViewportSize] = {"width": 1280, "height": 800}
PHONE: Final[ViewportSize] = {"width": 390, "height": 844}


class Seer:
    """Looks at a page in its state: the audit, the phone's width, the screenshots."""

    def __init__(self, axe: str | None, shots: Path) -> None:
        self.axe = axe
        self.shots = shots

    def __call__(self, page: Page, state: str) -> None:
        name = re.sub(r"[^a-z0-9]+", "-", state.lower()).strip("-")
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(150)  # the board redraws for the new width
        keep_screenshot(page, self.shots / f"{name}-390x844.png")
        width = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], f"{state}: {width[0]} px wide on a {width[1]} px phone"
        if page.locator("#san").is_visible():
            box = page.locator("#san").bounding_box()
            assert box is not None and box["y"] + box["height"] <= PHONE["height"], state
        page.set_viewport_size(DESKTOP)
        page.wait_for_timeout(150)
        keep_screenshot(page, self.shots / f"{name}-1280x800.png")
        if self.axe is None:
            return
        found = audit(page, self.axe)
        blocking = [v for v in found if v["impact"] in BLOCKING]
        assert blocking == [], f"{state}: {blocking}"
        moderate = [v for v in found if v["id"] not in ALLOWED_MODERATE]
        assert moderate == [], f"{state}: {moderate}"


def opened(browser: Browser, url: str) -> Page:
    """A page in a context of its own whose CSP lets the audit's script in."""
    page = browser.new_context(viewport=DESKTOP, bypass_csp=True).new_page()
    page.goto(url)
    return page


