"""axe-core (npm, pinned in :mod:`tests.server.web.axe`) on every page and state people reach:
home, a friend's game waiting, a game in progress, the promotion dialog, a draw offer, a game
over, a spectator, the accessible mode, the arbiter's console and the tournament pages. No
critical or serious violation anywhere; the moderate ones that remain are the ones
docs/server-web.md lists with the reason."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Final

import httpx
import pytest
from playwright import sync_api
from playwright.sync_api import Browser, Page, expect

from tests.server.web.axe import BLOCKING, audit, install_axe
from tests.server.web.browser import CHROMIUM, VIEWPORT
from tests.server.web.served import Served

ALLOWED_MODERATE: Final[frozenset[str]] = frozenset()
"""Moderate rules docs/server-web.md explains (none at present)."""


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


@pytest.fixture(scope="module")
def axe(tmp_path_factory: pytest.TempPathFactory) -> str:
    return install_axe(tmp_path_factory.mktemp("axe"))


def opened(browser: Browser, url: str) -> Page:
    """A page in a context of its own whose CSP lets the audit's script in."""
    page = browser.new_context(viewport=VIEWPORT, bypass_csp=True).new_page()
    page.goto(url)
    return page


def board(browser: Browser, url: str) -> Page:
    page = opened(browser, url)
    expect(page.locator("body")).to_have_attribute("data-status", "started")
    return page


def clean(page: Page, axe: str, state: str) -> None:
    found = audit(page, axe)
    blocking = [v for v in found if v["impact"] in BLOCKING]
    assert blocking == [], f"{state}: {blocking}"
    moderate = [v for v in found if v["id"] not in ALLOWED_MODERATE]
    assert moderate == [], f"{state}: {moderate}"


def plies(page: Page, count: int) -> None:
    expect(page.locator("body")).to_have_attribute("data-plies", str(count))


def click_move(page: Page, uci: str) -> None:
    page.click(f'#board rect[data-square="{uci[:2]}"]')
    page.click(f'#board rect[data-square="{uci[2:4]}"]')


def test_home_and_a_friends_game_waiting(served: Served, browser: Browser, axe: str) -> None:
    home = opened(browser, served.base + "/")
    clean(home, axe, "home")
    home.fill("#control", "5+3")
    home.click("#go")
    expect(home.locator("#links")).to_be_visible()
    clean(home, axe, "home, the links shown")
    home.click("#link-mine")
    expect(home.locator("body")).to_have_attribute("data-status", "started")
    clean(home, axe, "a game waiting for the friend")


def test_a_game_in_progress_offer_over_spectator_accessible(
    served: Served, browser: Browser, axe: str
) -> None:
    links = served.open_challenge(timeControl="5+3")
    white, black = board(browser, links["urlWhite"]), board(browser, links["urlBlack"])
    spectator = board(browser, links["url"])
    click_move(white, "e2e4")
    plies(black, 1)
    clean(black, axe, "in progress")
    black.click("#offer-draw")
    expect(white.locator("#offer-text")).to_have_text("Black offers a draw.")
    clean(white, axe, "a draw offer")
    white.click("#decline")
    plies(spectator, 1)
    clean(spectator, axe, "spectator")
    accessible = board(browser, links["urlBlack"] + "&accessible=1")
    accessible.fill("#san", "e5")
    accessible.press("#san", "Enter")
    plies(accessible, 2)
    expect(accessible.locator("#announce")).to_contain_text("black: pawn e5")
    clean(accessible, axe, "accessible mode")
    white.on("dialog", lambda dialog: dialog.accept())
    white.click("#resign")
    expect(white.locator("#result")).to_contain_text("0-1 Black wins")
    clean(white, axe, "game over")


def test_the_promotion_dialog(served: Served, browser: Browser, axe: str) -> None:
    links = served.open_challenge(timeControl="5+3", fen="7k/P6p/8/8/8/8/8/K7 w - - 0 1")
    white = board(browser, links["urlWhite"])
    plies(white, 0)
    click_move(white, "a7a8")
    expect(white.get_by_role("button", name="Knight")).to_be_visible()
    clean(white, axe, "the promotion dialog")


def test_the_arbiter_console(served: Served, browser: Browser, axe: str) -> None:
    served.open_challenge(timeControl="5+3")
    console = opened(browser, served.base + "/arbiter")
    clean(console, axe, "the console, signed out")
    console.fill("#token", served.arbiter_token("axe-arbiter"))
    console.click("#login button[type=submit]")
    expect(console.locator("#games tbody tr").first).to_have_attribute(
        "data-game", re.compile(r".+"))
    clean(console, axe, "the console with games")


def api(served: Served, path: str, token: str, **fields: object) -> Any:
    reply = httpx.post(served.base + path, json=fields, timeout=10,
                       headers={"Authorization": f"Bearer {token}"})
    assert reply.status_code == 200, reply.text
    return reply.json()


def test_the_tournament_pages(served: Served, browser: Browser, axe: str) -> None:
    names = ("ann", "ben", "cat", "dan")
    tokens = {name: served.run(served.hub.add_account(name))[1] for name in (*names, "td")}
    number = api(served, "/api/tournament/new", tokens["td"], name="Audit open",
                 system="swiss", rounds=3, timeControl="10+5")["id"]
    for name in names:
        api(served, f"/api/tournament/{number}/join", tokens[name], rating=1500)
    api(served, f"/api/tournament/{number}/pair", tokens["td"])
    for path in ("/tournaments", f"/tournament/{number}", f"/tournament/{number}/round/1",
                 f"/tournament/{number}/standings"):
        page = opened(browser, served.base + path)
        expect(page.locator("main")).to_be_visible()
        clean(page, axe, path)
