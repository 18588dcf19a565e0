"""A correspondence game's page in Debian's chromium (Playwright): each side's days per move,
then, once both have moved, the deadline of the side to move ("1 day 23 h left to move")."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import Browser, expect

from tests.server.web.browser import VIEWPORT
from tests.server.web.served import Served


def test_the_page_shows_the_deadline(served: Served, browser: Browser) -> None:
    made = served.open_challenge(days="2", color="white")
    page = browser.new_context(viewport=VIEWPORT).new_page()
    page.goto(made["urlWhite"])
    expect(page.locator("body")).to_have_attribute("data-status", "started")
    white, black = page.locator("#clock-bottom .time"), page.locator("#clock-top .time")
    expect(white).to_have_text("2 days per move")  # no deadline runs before both have moved
    expect(black).to_have_text("2 days per move")
    for uci, secret in (("e2e4", made["secretWhite"]), ("e7e5", made["secretBlack"])):
        moved = httpx.post(f"{served.base}/api/board/game/{made['id']}/move/{uci}",
                           headers={"Authorization": f"Bearer {secret}"}, timeout=10)
        assert moved.status_code == 200, moved.text
    expect(page.locator("body")).to_have_attribute("data-plies", "2")
    expect(white).to_have_text(re.compile(r"^1 day 23 h left to move$"))
    expect(black).to_have_text("2 days per move")
