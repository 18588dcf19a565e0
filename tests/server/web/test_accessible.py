"""The accessible mode in Debian's chromium (Playwright), as a player who does not see the
board uses it: the move field focused on load and emptied after each entry, the actions
typed as commands (offer, decline, accept, resign, claim), the announcements in order (the
mating move, then the result), a declined offer and the arbiter's notes announced,
low-time warnings, and refusals in words (no FEN, no HTTP status)."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, Page, expect

from tests.server.web.browser import VIEWPORT
from tests.server.web.served import Served


def board(browser: Browser, url: str) -> Page:
    page = browser.new_context(viewport=VIEWPORT).new_page()
    page.goto(url + "&accessible=1")
    expect(page.locator("body")).to_have_attribute("data-status", "started")
    return page


def typed(page: Page, text: str) -> None:
    page.fill("#san", text)
    page.press("#san", "Enter")
    expect(page.locator("#san")).to_have_value("")


def plies(page: Page, count: int) -> None:
    expect(page.locator("body")).to_have_attribute("data-plies", str(count))


def said(page: Page) -> list[str]:
    return page.locator("#announce p").all_inner_texts()


def test_moves_then_the_result_and_refusals_in_words(served: Served, browser: Browser) -> None:
    links = served.open_challenge(timeControl="5+3")
    white, black = board(browser, links["urlWhite"]), board(browser, links["urlBlack"])
    expect(white.locator("#san")).to_be_focused()
    typed(white, "Ke7xyz")  # refused: said why, the field empty for the next try
    expect(white.locator("#error")).to_have_text(
        "move: invalid SAN 'Ke7xyz': expected a move like Nf3, exd5 or O-O")
    typed(white, "Ke3")
    expect(white.locator("#error")).to_have_text(
        "move: illegal move 'Ke3': no king can move to e3")
    for ply, san in enumerate(["f3", "e5", "g4", "Qh4"], start=1):
        mover = white if ply % 2 else black
        plies(mover, ply - 1)
        typed(mover, san)
    for page in (white, black):
        expect(page.locator("#announce")).to_contain_text("0-1 Black wins")
        lines = said(page)
        mate = lines.index("black: queen h4, checkmate")
        assert lines[mate + 1].startswith("0-1 Black wins"), lines


def test_commands_declines_and_the_arbiters_notes(served: Served, browser: Browser) -> None:
    links = served.open_challenge(timeControl="5+3")
    white, black = board(browser, links["urlWhite"]), board(browser, links["urlBlack"])
    typed(black, "accept")
    expect(black.locator("#error")).to_have_text("there is no draw offer to answer")
    typed(white, "e4")
    plies(black, 1)
    typed(white, "offer")
    expect(black.locator("#announce")).to_contain_text("White offers a draw.")
    typed(black, "decline")
    expect(white.locator("#announce")).to_contain_text("black declines the draw offer")
    token = served.arbiter_token("notes-arbiter")
    reply = httpx.post(f"{served.base}/api/arbiter/game/{links['id']}/add-time", timeout=10,
                       json={"color": "white", "seconds": 60, "reason": "a broken clock"},
                       headers={"Authorization": f"Bearer {token}"})
    assert reply.status_code == 200, reply.text
    for page in (white, black):
        expect(page.locator("#announce")).to_contain_text(
            "Arbiter: 60 s added to white's clock: a broken clock")
    typed(black, "e5")
    plies(white, 2)
    typed(white, "claim")  # no repetition: refused, said why
    expect(white.locator("#error")).to_contain_text("claim:")
    black.on("dialog", lambda dialog: dialog.accept())
    typed(black, "resign")
    expect(white.locator("#result")).to_contain_text("1-0 White wins")
    expect(white.locator("#announce p").last).to_contain_text("1-0 White wins")


def test_low_time_is_announced(served: Served, browser: Browser) -> None:
    # FIDE blitz: White's clock runs from the start (Art. 6.5); once the page has read the
    # game, the arbiter leaves it 32 s, soon 30 (however long the page took to load).
    links = served.open_challenge(timeControl="1+0", profile="fide-2023-blitz")
    white = board(browser, links["urlWhite"])
    expect(white.locator("#clock-bottom")).to_contain_text("0:5")
    set_clocks = httpx.post(f"{served.base}/api/arbiter/game/{links['id']}/set-clocks",
                            json={"wtime": 32000, "btime": 60000}, timeout=10,
                            headers={"Authorization": f"Bearer {served.arbiter_token('low')}"})
    assert set_clocks.status_code == 200, set_clocks.text
    expect(white.locator("#announce")).to_contain_text("30 seconds left on your clock.")
    assert "1 minute left" not in " ".join(said(white))
