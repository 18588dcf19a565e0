"""A restart under an over-the-board profile in Debian's chromium (Playwright): the server
stops the clocks of every game it takes up again (Art. 6.12, the outage rule), the players'
pages say so and wait, the arbiter's console lists the game first with the decision to
take, and the arbiter's "Start the clocks" lets play go on. The restart is a second server
on the same database and port; the open pages reconnect by themselves."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.server.web.browser import VIEWPORT, click_move
from tests.server.web.served import Served

HALTED = ("The clocks are stopped after an interruption (Art. 6.12): waiting for the "
          "arbiter to start them.")



def board(browser: Browser, url: str) -> Page:
    page = browser.new_context(viewport=VIEWPORT).new_page()
    page.goto(url)
    expect(page.locator("body")).to_have_attribute("data-status", "started")
    return page


def plies(page: Page, count: int) -> None:
    expect(page.locator("body")).to_have_attribute("data-plies", str(count))


def test_a_restart_waits_for_the_arbiter(tmp_path: Path, browser: Browser) -> None:
    db = tmp_path / "games.sqlite"
    with Served(db) as first:
        port = first.port
        token = first.arbiter_token()
        other = first.open_challenge(timeControl="5+3", profile="online")  # not stopped
        links = first.open_challenge(timeControl="5+3", profile="fide-2023-blitz")
        white = board(browser, links["urlWhite"] + "&accessible=1")
        black = board(browser, links["urlBlack"])
        click_move(white, "e2e4")
        plies(black, 1)
        click_move(black, "e7e5")
        plies(white, 2)
        expect(white.locator("#status")).to_have_text("Your move.")
    with Served(db, port=port) as second:
        for page in (white, black):
            expect(page.locator("#status")).to_have_text(HALTED)
        expect(white.locator("#announce")).to_contain_text(HALTED)
        white.fill("#san", "Nf3")
        white.press("#san", "Enter")
        expect(white.locator("#error")).to_have_text(
            "the clocks are stopped: waiting for the arbiter")

        console = browser.new_context(viewport=VIEWPORT).new_page()
        console.goto(second.base + "/arbiter")
        console.fill("#token", token)
        console.click("#login button[type=submit]")
        first_row = console.locator("#games tbody tr").first
        expect(first_row).to_have_attribute("data-game", links["id"])
        expect(first_row).to_contain_text("clocks stopped: start them, set them or declare")
        sleeping = console.locator(f'#games tr[data-game="{other["id"]}"]')
        expect(sleeping).not_to_contain_text("clocks stopped")
        expect(sleeping).to_contain_text("not loaded since the restart")  # listed, not loaded
        first_row.get_by_role("button", name="Start the clocks").click()
        expect(console.locator("#done")).to_have_text(f"Started the clocks in game {links['id']}.")
        expect(white.locator("#status")).to_have_text("Your move.")
        expect(white.locator("#notes")).to_contain_text("the clocks are restarted")
        white.fill("#san", "Nf3")
        white.press("#san", "Enter")
        plies(black, 3)
        expect(black.locator("#moves")).to_have_text("e4e5Nf3")
