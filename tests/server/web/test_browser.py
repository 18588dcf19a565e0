"""The browser board driven by Playwright (Debian's chromium) against a real server: two
players in separate browser contexts play to mate while a spectator watches, a flag falls
against a lone king (a draw, Art. 6.9), a draw offer is accepted, the accessible mode
announces moves in words and reads the board; screenshots of the pages are kept in
``test-artifacts/``."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Page, expect

from tests.server.web.browser import (
    ARTIFACTS,
    VIEWPORT,
    WAIT_MS,
    click_move,
    click_squares,
    keep_screenshot,
)
from tests.server.web.served import Served


def page(browser: Browser, url: str, status: str = "started") -> Page:
    """A page in a browser context of its own (its own cookies: another person), once it
    shows the game's ``status``."""
    opened = browser.new_context(viewport=VIEWPORT).new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda exc: errors.append(str(exc)))
    opened.goto(url)
    expect(opened.locator("body")).to_have_attribute("data-status", status, timeout=WAIT_MS)
    assert errors == []
    return opened


def plies(board: Page, count: int) -> None:
    expect(board.locator("body")).to_have_attribute("data-plies", str(count), timeout=WAIT_MS)


def shot(board: Page, name: str) -> None:
    keep_screenshot(board, ARTIFACTS / f"{name}.png")


def test_two_players_to_mate_with_a_spectator(served: Served, browser: Browser) -> None:
    links = served.open_challenge(timeControl="5+3")
    white, black = page(browser, links["urlWhite"]), page(browser, links["urlBlack"])
    spectator = page(browser, links["url"])
    expect(white.locator("#role")).to_have_text("You play white")
    expect(black.locator("#role")).to_have_text("You play black")
    expect(spectator.locator("#role")).to_contain_text("Spectating")
    expect(spectator.locator("#actions")).to_be_hidden()
    moves = ["f2f3", "e7e5", "g2g4", "d8h4"]
    for ply, uci in enumerate(moves, start=1):
        mover, other = (white, black) if ply % 2 else (black, white)
        plies(mover, ply - 1)
        click_move(mover, uci)
        for board in (other, spectator):
            plies(board, ply)
        if ply == 3:
            shot(white, "game")
    for board in (white, black, spectator):
        expect(board.locator("body")).to_have_attribute("data-status", "mate")
        expect(board.locator("#result")).to_contain_text("0-1 Black wins")
    expect(spectator.locator("#moves")).to_have_text("f3e5g4Qh4#")
    expect(white.locator("#announce")).to_contain_text("black: queen h4, checkmate")
    shot(black, "game-over")


def test_a_spectator_cannot_move_a_player_aborts_then_one_resigns(
    served: Served, browser: Browser
) -> None:
    links = served.open_challenge(timeControl="5+3")
    spectator, white = page(browser, links["url"]), page(browser, links["urlWhite"])
    click_squares(spectator, "e2e4")
    spectator.wait_for_timeout(300)
    expect(spectator.locator("body")).to_have_attribute("data-plies", "0")
    white.on("dialog", lambda dialog: dialog.accept())  # "Abort this game?"
    white.click("#abort")
    for board in (white, spectator):
        expect(board.locator("#result")).to_have_text("Game aborted", timeout=WAIT_MS)
    links = served.open_challenge(timeControl="5+3")
    white, black = page(browser, links["urlWhite"]), page(browser, links["urlBlack"])
    black.on("dialog", lambda dialog: dialog.accept())
    black.click("#resign")
    for board in (white, black):
        expect(board.locator("#result")).to_contain_text("1-0 White wins", timeout=WAIT_MS)
        expect(board.locator("body")).to_have_attribute("data-status", "resign")


def test_flag_against_a_lone_king_is_a_draw(served: Served, browser: Browser) -> None:
    # White's clock runs from the start (Art. 6.5, FIDE blitz); the arbiter leaves it 2 s
    # (a control that short is refused: 15 s at least).
    links = served.open_challenge(timeControl="1+0", profile="fide-2023-blitz",
                                  fen="4k3/8/8/8/8/8/8/3QK3 w - - 0 1")
    set_clocks = httpx.post(f"{served.base}/api/arbiter/game/{links['id']}/set-clocks",
                            json={"wtime": 2000, "btime": 60000}, timeout=10,
                            headers={"Authorization": f"Bearer {served.arbiter_token('flag')}"})
    assert set_clocks.status_code == 200, set_clocks.text
    white = page(browser, links["urlWhite"], status="outoftime")
    black = page(browser, links["urlBlack"], status="outoftime")
    for board in (white, black):
        expect(board.locator("#result")).to_contain_text("1/2-1/2 Draw", timeout=WAIT_MS)
        expect(board.locator("#result")).to_contain_text("6.9")
        expect(board.locator("#clock-bottom, #clock-top").filter(has_text="White")
               ).to_contain_text("0:00")
    shot(white, "game-flag")


def test_a_draw_offer_accepted(served: Served, browser: Browser) -> None:
    links = served.open_challenge(timeControl="5+3")
    white, black = page(browser, links["urlWhite"]), page(browser, links["urlBlack"])
    click_move(white, "e2e4")
    plies(black, 1)
    click_move(black, "e7e5")
    plies(white, 2)
    white.check("#with-offer")  # the offer made with the move (Art. 9.1.2.1)
    click_move(white, "g1f3")
    expect(black.locator("#offer-text")).to_have_text("White offers a draw.", timeout=WAIT_MS)
    expect(black.locator("#announce")).to_contain_text("White offers a draw.")
    black.click("#accept")
    for board in (white, black):
        expect(board.locator("#result")).to_contain_text("1/2-1/2 Draw", timeout=WAIT_MS)
        expect(board.locator("body")).to_have_attribute("data-status", "draw")


def test_the_accessible_mode_announces_and_reads(served: Served, browser: Browser) -> None:
    links = served.open_challenge(timeControl="5+3")
    white = page(browser, links["urlWhite"] + "&accessible=1")
    black = page(browser, links["urlBlack"] + "&accessible=1")
    live = black.locator('#announce[aria-live="assertive"]')
    white.fill("#san", "e4")
    white.press("#san", "Enter")
    expect(live).to_contain_text("white: pawn e4", timeout=WAIT_MS)
    black.fill("#san", "nf6")
    black.press("#san", "Enter")
    expect(white.locator("#announce")).to_contain_text("black: knight f6", timeout=WAIT_MS)
    white.fill("#san", "Ke3")
    white.press("#san", "Enter")
    expect(white.locator("#error")).to_contain_text("illegal move 'Ke3'")
    white.fill("#san", "rank 4")
    white.press("#san", "Enter")
    expect(white.locator("#reading")).to_have_text(
        "rank 4: a4 to d4 empty, e4 white pawn, f4 to h4 empty")
    white.fill("#san", "clocks")
    white.press("#san", "Enter")
    expect(white.locator("#reading")).to_have_text(re.compile(
        r"^white: 4 minutes \d\d? seconds, running; black: 5 minutes$"))
    white.click('[data-read="black"]')
    expect(white.locator("#reading")).to_contain_text("black: king e8")
    typed(white, "file e")
    expect(white.locator("#reading")).to_contain_text(
        "file e: e1 white king, e2 to e3 empty, e4 white pawn, e5 to e6 empty, e7 black pawn")
    white.click('[data-read="board"]')
    expect(white.locator("#reading")).to_contain_text("rank 8: a8 black rook")
    shot(black, "game-accessible")


def test_home_starts_a_game_by_link(served: Served, browser: Browser) -> None:
    home = browser.new_context(viewport=VIEWPORT).new_page()
    home.goto(served.base + "/")
    home.fill("#control", "5 minutes")
    home.click("#go")
    expect(home.locator("#error")).to_contain_text("timeControl: '5 minutes'")
    home.fill("#control", "3|2")
    home.check('input[name="color"][value="white"]')
    home.click("#go")
    expect(home.locator("#links")).to_be_visible(timeout=WAIT_MS)
    expect(home.locator("#link-other")).to_have_value(
        re.compile(r"^http://127\.0\.0\.1:\d+/\w+\?secret=\S+$"))
    expect(home.locator("#link-watch")).to_have_text(re.compile(r"^http://127\.0\.0\.1:\d+/\w+$"))
    shot(home, "home")
    home.click("#link-mine")
    expect(home.locator("#role")).to_have_text("You play white", timeout=WAIT_MS)
    expect(home.locator("#clock-bottom")).to_contain_text("3:00")
    # the secret went into the game's cookie: not in the address bar nor the history
    expect(home).to_have_url(re.compile(r"^http://127\.0\.0\.1:\d+/\w+$"))
    game_url = home.url
    home.go_back()
    expect(home).to_have_url(served.base + "/")
    home.go_forward()
    expect(home).to_have_url(game_url)
    expect(home.locator("#role")).to_have_text("You play white", timeout=WAIT_MS)


def test_the_arbiter_console(served: Served, browser: Browser) -> None:
    links = served.open_challenge(timeControl="5+3")
    game_id = links["id"]
    white = page(browser, links["urlWhite"])
    token = served.arbiter_token()
    console = browser.new_context(viewport=VIEWPORT).new_page()
    console.on("dialog", lambda dialog: dialog.accept("distracting the opponent"))
    console.goto(served.base + "/arbiter")
    console.fill("#token", token)
    console.click("#login button[type=submit]")
    row = console.locator(f'#games tr[data-game="{game_id}"]')
    expect(row).to_contain_text("white 5:00, black 5:00", timeout=WAIT_MS)
    row.get_by_role("button", name="+2 min white").click()
    expect(console.locator("#done")).to_have_text(f"Added 2 minutes to white in game {game_id}.")
    expect(row).to_contain_text("white 7:00, black 5:00")
    expect(white.locator("#clock-bottom")).to_have_text("White: Anonymous7:00")  # the server's
    row.get_by_role("button", name="Warn black").click()
    expect(row).to_contain_text("warnings: white 0, black 1")
    shot(console, "arbiter")


def test_promotion_reconnection_and_pgn(served: Served, browser: Browser) -> None:
    links = served.open_challenge(timeControl="5+3", fen="7k/P6p/8/8/8/8/8/K7 w - - 0 1")
    white, black = page(browser, links["urlWhite"]), page(browser, links["urlBlack"])
    click_move(white, "a7a8")
    white.get_by_role("button", name="Knight").click()
    plies(black, 1)
    expect(black.locator("#moves")).to_have_text("a8=N")
    white.context.set_offline(True)  # the network goes, the stream drops
    served.drop_streams(links["id"])
    expect(white.locator("#status")).to_contain_text("reconnecting", timeout=WAIT_MS)
    click_move(black, "h8g7")
    white.context.set_offline(False)
    plies(white, 2)
    expect(white.locator("#moves")).to_have_text("a8=NKg7")
    with white.expect_download() as download:
        white.click("#pgn")
    pgn = Path(download.value.path()).read_text(encoding="utf-8")
    assert '[FEN "7k/P6p/8/8/8/8/8/K7 w - - 0 1"]' in pgn
    assert "1. a8=N {" in pgn
    assert "1... Kg7 {" in pgn


def typed(board: Page, text: str) -> None:
    """A move or a request typed in the accessible mode's field."""
    board.fill("#san", text)
    board.press("#san", "Enter")


def test_a_claim_on_the_intended_move(served: Served, browser: Browser) -> None:
    # FIDE rules: a repetition is a draw only when claimed (Art. 9.2), here on the move
    # that would repeat the position a third time, written but not played (Art. 9.2.1.1).
    links = served.open_challenge(timeControl="-", profile="fide-2023")
    white = page(browser, links["urlWhite"] + "&accessible=1")
    black = page(browser, links["urlBlack"] + "&accessible=1")
    for ply, san in enumerate(["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"], start=1):
        mover = white if ply % 2 else black
        plies(mover, ply - 1)
        typed(mover, san)
    plies(black, 7)
    black.click("#claim")
    black.fill('#claim-form input[name="intended"]', "Ng8")
    black.click('#claim-form button[type="submit"]')
    for board in (white, black):
        expect(board.locator("#result")).to_contain_text("1/2-1/2 Draw", timeout=WAIT_MS)
        expect(board.locator("#result")).to_contain_text("9.2")


def test_a_game_against_the_engine_from_home(served: Served, browser: Browser) -> None:
    home = browser.new_context(viewport=VIEWPORT).new_page()
    home.goto(served.base + "/")
    home.check('input[name="color"][value="black"]')
    home.check('input[name="opponent"][value="engine"]')
    home.select_option("#level", "1")
    home.click("#go")
    expect(home.locator("#role")).to_have_text("You play black", timeout=WAIT_MS)
    plies(home, 1)  # the engine, White, has moved
    expect(home.locator("#status")).to_have_text("Your move.")


def test_two_seeks_are_paired(served: Served, browser: Browser) -> None:
    seekers = [browser.new_context(viewport=VIEWPORT).new_page() for _ in range(2)]
    for seeker, colour in zip(seekers, ("white", "random"), strict=True):
        seeker.goto(served.base + "/")
        seeker.fill("#control", "7+2")
        seeker.check(f'input[name="color"][value="{colour}"]')
        seeker.check('input[name="opponent"][value="seek"]')
        seeker.click("#go")
    expect(seekers[0].locator("#role")).to_have_text("You play white", timeout=WAIT_MS)
    expect(seekers[1].locator("#role")).to_have_text("You play black", timeout=WAIT_MS)
    assert seekers[0].url.split("?")[0] == seekers[1].url.split("?")[0]
