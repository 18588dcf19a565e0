"""Every page and state people reach (home, a friend's game waiting, a game in progress, the
promotion dialog, a draw offer, a game over, a spectator, the accessible mode, the arbiter's
console, the tournament pages), seen as a person sees them:

- axe-core (npm, pinned in :mod:`tests.server.web.axe`): no critical or serious violation;
  the moderate ones that remain are the ones docs/server-web.md lists with the reason;
- on a phone (390x844): no horizontal scroll (the document no wider than the screen); in the
  accessible mode the move field above the fold;
- a screenshot at 1280x800 and at 390x844 of each, in ``$CHESSARBITER_SCREENSHOTS`` or else a
  folder under pytest's temporary directory (not kept in git)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.web.browser import click_move
from tests.server.web.seen import Seer, opened
from tests.server.web.served import Served


def test_axe_core_is_there(axe_found: tuple[str | None, str]) -> None:
    """The audits below run only with axe-core: say so when npm could not install it."""
    if axe_found[0] is None:
        pytest.skip(axe_found[1])
    assert "axe" in axe_found[0][:2000]


def board(browser: Browser, url: str) -> Page:
    page = opened(browser, url)
    expect(page.locator("body")).to_have_attribute("data-status", "started")
    return page


def plies(page: Page, count: int) -> None:
    expect(page.locator("body")).to_have_attribute("data-plies", str(count))


def test_home_and_a_friends_game_waiting(served: Served, browser: Browser, see: Seer) -> None:
    home = opened(browser, served.base + "/")
    see(home, "home")
    home.fill("#control", "5+3")
    home.click("#go")
    expect(home.locator("#links")).to_be_visible()
    see(home, "home, the links shown")
    home.click("#link-mine")
    expect(home.locator("body")).to_have_attribute("data-status", "started")
    see(home, "a game waiting for the friend")
    home.go_back()
    expect(home.locator("#kept-games li")).to_have_count(1)
    see(home, "home, a friend's game kept")


def test_a_game_in_progress_offer_over_spectator_accessible(
    served: Served, browser: Browser, see: Seer
) -> None:
    links = served.open_challenge(timeControl="5+3")
    white, black = board(browser, links["urlWhite"]), board(browser, links["urlBlack"])
    spectator = board(browser, links["url"])
    click_move(white, "e2e4")
    plies(black, 1)
    see(black, "in progress")
    black.click("#offer-draw")
    expect(white.locator("#offer-text")).to_have_text("Black offers a draw.")
    see(white, "a draw offer")
    white.click("#decline")
    plies(spectator, 1)
    see(spectator, "spectator")
    accessible = board(browser, links["urlBlack"] + "&accessible=1")
    plies(accessible, 1)  # the page has read the game (a move before that is not announced)
    accessible.fill("#san", "e5")
    accessible.press("#san", "Enter")
    plies(accessible, 2)
    expect(accessible.locator("#announce")).to_contain_text("black: pawn e5")
    see(accessible, "accessible mode")
    white.on("dialog", lambda dialog: dialog.accept())
    white.click("#resign")
    expect(white.locator("#result")).to_contain_text("0-1 Black wins")
    see(white, "game over")


def test_the_promotion_dialog(served: Served, browser: Browser, see: Seer) -> None:
    links = served.open_challenge(timeControl="5+3", fen="7k/P6p/8/8/8/8/8/K7 w - - 0 112")
    white = board(browser, links["urlWhite"])
    plies(white, 0)
    click_move(white, "a7a8")
    expect(white.get_by_role("button", name="Knight")).to_be_visible()
    see(white, "the promotion dialog")
    white.get_by_role("button", name="Knight").click()
    plies(white, 1)
    expect(white.locator("#moves li")).to_have_text("a8=N")
    marker = white.evaluate("""() => {
        const list = document.getElementById("moves")
        return [list.start, parseFloat(getComputedStyle(list).paddingLeft),
                parseFloat(getComputedStyle(list).fontSize)]
    }""")
    assert marker[0] == 112 and marker[1] >= 4.5 * 0.6 * marker[2]  # "112. " fits
    see(white, "move 112")


def test_the_arbiter_console(served: Served, browser: Browser, see: Seer) -> None:
    served.open_challenge(timeControl="5+3")
    console = opened(browser, served.base + "/arbiter")
    see(console, "the console, signed out")
    console.fill("#token", served.arbiter_token("axe-arbiter"))
    console.click("#login button[type=submit]")
    expect(console.locator("#games tbody tr").first).to_have_attribute(
        "data-game", re.compile(r".+"))
    see(console, "the console with games")


def api(served: Served, path: str, token: str, **fields: object) -> Any:
    reply = httpx.post(served.base + path, json=fields, timeout=10,
                       headers={"Authorization": f"Bearer {token}"})
    assert reply.status_code == 200, reply.text
    return reply.json()


def test_the_tournament_pages(served: Served, browser: Browser, see: Seer) -> None:
    names = ("ann", "ben", "cat", "dan")
    tokens = {name: served.run(served.services.members.add(name))[1] for name in (*names, "td")}
    number = api(served, "/api/tournament/new", tokens["td"], name="Audit open",
                 system="swiss", rounds=3, timeControl="10+5")["id"]
    for name in names:
        api(served, f"/api/tournament/{number}/join", tokens[name], rating=1500)
    api(served, f"/api/tournament/{number}/pair", tokens["td"])
    for path in ("/tournaments", f"/tournament/{number}", f"/tournament/{number}/round/1",
                 f"/tournament/{number}/standings"):
        page = opened(browser, served.base + path)
        expect(page.locator("main")).to_be_visible()
        see(page, path)
    director = opened(browser, f"{served.base}/tournament/{number}/round/1")
    director.fill("#token", tokens["td"])
    director.click("#login button[type=submit]")
    expect(director.locator("#who")).to_contain_text("signed in as")
    see(director, "the round, the director signed in")
