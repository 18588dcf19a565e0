"""The tournament pages in Debian's chromium (Playwright) against a real server: a player
signed in sees their game as a playing link, the organiser enters a result with the round
page's form, a refused form shows the server's reason, and the standings page shows the
points; screenshots in ``test-artifacts/``."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from tests.server.web.browser import ARTIFACTS, VIEWPORT, keep_screenshot, signed_in
from tests.server.web.served import Served

PLAYERS = ("alice", "bob", "carol", "dave")


def shot(page: Page, name: str) -> None:
    keep_screenshot(page, ARTIFACTS / f"{name}.png")


def test_results_entered_in_the_browser(served: Served, browser: Browser) -> None:
    tokens = {name: served.run(served.services.members.add(name))[1]
              for name in (*PLAYERS, "org")}
    number = served.post("/api/tournament/new", tokens["org"], name="Spring rapid",
                 system="roundrobin", timeControl="10+5")["id"]
    for name in PLAYERS:
        served.post(f"/api/tournament/{number}/join", tokens[name], rating=1400)
    boards = served.post(f"/api/tournament/{number}/pair", tokens["org"])["boards"]
    first = boards[0]
    served.post(f"/api/board/game/{first['game']}/resign", tokens[first["black"]])

    round_url = f"{served.base}/tournament/{number}/round/1"
    player = signed_in(browser, round_url, tokens[first["white"]])
    own = player.locator(f'a.game[data-game="{first["game"]}"]')
    expect(own).to_have_text(f"play game {first['game']}")
    other = boards[1]["game"]  # not this player's: a spectator's link
    expect(player.locator(f'a.game[data-game="{other}"]')).to_have_text(f"game {other}")
    expect(player.locator("tbody tr").first).to_contain_text("1-0")
    player.locator("form.action button").first.click()  # a player may not enter results
    expect(player.locator("#error")).to_contain_text("does not direct")

    organiser = signed_in(browser, round_url, tokens["org"])
    organiser.select_option('select[aria-label="Result of board 2"]', "1/2-1/2")
    organiser.locator('form[aria-label="Result of board 2"] button').click()
    expect(organiser.locator("tbody tr").nth(1)).to_contain_text("1/2-1/2")
    shot(organiser, "tournament-round")

    standings = browser.new_context(viewport=VIEWPORT).new_page()
    standings.goto(f"{served.base}/tournament/{number}/standings")
    table = standings.locator("table.standings tbody tr")
    expect(table.first).to_contain_text(first["white"])
    expect(table.first.locator("td").nth(4)).to_have_text("1")
    expect(standings.locator("table.crosstable")).to_contain_text("½")
    shot(standings, "tournament-standings")


def test_no_token_in_any_url(served: Served, browser: Browser) -> None:
    """Signed in on a tournament page, a player's link to their game is the game's plain
    address: the API token is in no URL (address bar, history, links), and the game page
    knows the player by the HttpOnly session cookie."""
    names = ("erin", "frank")
    tokens = {name: served.run(served.services.members.add(name))[1] for name in (*names, "org2")}
    number = served.post("/api/tournament/new", tokens["org2"], name="Token-free",
                 system="roundrobin", timeControl="10+5")["id"]
    for name in names:
        served.post(f"/api/tournament/{number}/join", tokens[name], rating=1400)
    board = served.post(f"/api/tournament/{number}/pair", tokens["org2"])["boards"][0]
    white = board["white"]
    player = signed_in(browser, f"{served.base}/tournament/{number}/round/1", tokens[white])
    own = player.locator(f'a.game[data-game="{board["game"]}"]')
    expect(own).to_have_text(f"play game {board['game']}")
    assert own.get_attribute("href") == f"/{board['game']}"
    assert tokens[white] not in player.content()
    cookies = {c["name"]: c for c in player.context.cookies()}
    assert cookies["chessarbiter-session"]["httpOnly"]
    assert tokens[white] not in cookies["chessarbiter-session"]["value"]
    own.click()
    player.wait_for_url(f"{served.base}/{board['game']}")
    you = player.evaluate(
        f"() => fetch('/api/game/{board['game']}').then(r => r.json()).then(g => g.you)")
    assert you == "white"
    seen = [player.url]
    while player.go_back() is not None:
        seen.append(player.url)
    assert len(seen) >= 2 and not any(tokens[white] in url for url in seen), seen
