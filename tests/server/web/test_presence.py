"""Whether the opponent is at the board, in Debian's chromium against a real server whose
time is injected: the board says the opponent has not arrived yet, then that they arrived;
once all their streams have been closed for a few seconds (the server's time moved on, no
sleeping) that they have left, and that they are back; "Your move." is never said alone
meanwhile. Each state audited (axe-core) and photographed at 1280x800 and 390x844."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from chessarbiter.clock.clock import monotonic_ms
from chessarbiter.clock.records import Side
from chessarbiter.server.games.presence import GONE_MS
from tests.server.web.seen import Seer, opened
from tests.server.web.served import Served


class Shifted:
    """The monotonic clock, moved on by the test."""

    def __init__(self) -> None:
        self.shift = 0

    def __call__(self) -> int:
        return monotonic_ms() + self.shift


@pytest.fixture
def clock() -> Shifted:
    return Shifted()


@pytest.fixture
def shifted(tmp_path_factory: pytest.TempPathFactory, clock: Shifted) -> Iterator[Served]:
    """A server of the test's own on its clock, its timers off (the test says when to look;
    an earlier test's pages, closed after it, would be seen leaving on a shared one)."""
    with Served(tmp_path_factory.mktemp("presence") / "games.sqlite", now_ms=clock,
                timers=False) as running:
        yield running


def board(browser: Browser, url: str) -> Page:
    page = opened(browser, url)
    expect(page.locator("body")).to_have_attribute("data-status", "started")
    return page


def left(served: Served, game_id: str, side: Side) -> None:
    """Wait until the server has seen the side's last stream close (the browser's work)."""

    async def seen() -> bool:
        seats = served.services.presence.games.get(game_id)
        return seats is not None and seats.left_at[side] is not None

    deadline = time.monotonic() + 10
    while not served.run(seen()):
        assert time.monotonic() < deadline, "the closed page's stream is still open"
        time.sleep(0.05)


def look(served: Served) -> int:
    async def now() -> int:
        return served.services.presence.look()

    return served.run(now())


def test_the_opponent_arrives_leaves_and_comes_back(
        shifted: Served, clock: Shifted, browser: Browser, see: Seer) -> None:
    links = shifted.open_challenge(timeControl="10+0")
    white = board(browser, links["urlWhite"])
    status = white.locator("#status")
    expect(status).to_have_text("Your move. Your opponent has not arrived yet.")
    see(white, "the opponent has not arrived")

    black = board(browser, links["urlBlack"])
    expect(black.locator("#status")).to_have_text("White to move: waiting for your opponent.")
    expect(status).to_have_text("Your move.")
    expect(white.locator("#announce")).to_contain_text("Your opponent has arrived.")

    black.context.close()
    left(shifted, links["id"], Side.BLACK)
    clock.shift += GONE_MS - 100
    assert look(shifted) == 0  # not yet: a reload or a dropped connection is not leaving
    expect(status).to_have_text("Your move.")
    clock.shift += 100
    assert look(shifted) == 1
    assert look(shifted) == 0  # told once
    expect(status).to_have_text("Your move. Your opponent has left the game.")
    expect(white.locator("#announce")).to_contain_text("Your opponent has left the game.")
    see(white, "the opponent has left")

    board(browser, links["urlBlack"])
    expect(status).to_have_text("Your move.")
    expect(white.locator("#announce")).to_contain_text("Your opponent is back.")


def test_the_board_counts_down_to_a_claim_and_claims_the_game(
        shifted: Served, clock: Shifted, browser: Browser, see: Seer) -> None:
    links = shifted.open_challenge(timeControl="10+0")
    white = board(browser, links["urlWhite"])
    white.clock.install()  # the page's own countdown, on a clock the test moves
    black = board(browser, links["urlBlack"])
    gone, text = white.locator("#gone"), white.locator("#gone-text")
    win, draw = white.locator("#claim-victory"), white.locator("#claim-draw")
    expect(white.locator("#status")).to_have_text("Your move.")
    expect(gone).to_be_hidden()

    black.context.close()
    left(shifted, links["id"], Side.BLACK)
    clock.shift += GONE_MS
    assert look(shifted) == 1  # {"gone": true, "claimWinInSeconds": 25}
    expect(text).to_have_text("Your opponent has left the game: you may claim it in 25 s.")
    expect(win).to_be_disabled()
    expect(draw).to_be_disabled()
    white.clock.run_for(5_000)
    expect(text).to_have_text("Your opponent has left the game: you may claim it in 20 s.")
    see(white, "the opponent gone, a claim counted down")

    black = board(browser, links["urlBlack"])  # back: no claim any more
    expect(gone).to_be_hidden()
    black.context.close()
    left(shifted, links["id"], Side.BLACK)
    clock.shift += GONE_MS
    assert look(shifted) == 1
    expect(text).to_have_text("Your opponent has left the game: you may claim it in 25 s.")
    clock.shift += 25_000
    assert look(shifted) == 1  # {"gone": true, "claimWinInSeconds": 0}: the server's word
    ready = "Your opponent has left the game: you may claim the win, or a draw."
    expect(text).to_have_text(ready)
    expect(white.locator("#announce")).to_contain_text(ready)
    expect(win).to_be_enabled()
    see(white, "the opponent gone, the game may be claimed")
    win.click()
    expect(white.locator("body")).to_have_attribute("data-status", "timeout")
    expect(white.locator("#result")).to_contain_text("White wins")
    expect(gone).to_be_hidden()
