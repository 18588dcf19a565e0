"""A tournament round as its players live it, in Debian's chromium against a real server:
the pairing announced on the tournament page a player has open, on the board of their last
game (and on the event stream an API client holds), with a link to the board and no token
in any address; the clocks still until the director starts the round (FIDE rules, Art.
6.5); a result the director enters ending the live game, the game page and the round page
agreeing; the arbiter's console saying the round waits and who has not arrived (Art. 6.7's
default time is the arbiter's)."""

from __future__ import annotations

import json

import httpx
from playwright.sync_api import Browser, expect

from tests.server.web.browser import signed_in
from tests.server.web.seen import DESKTOP, Seer
from tests.server.web.served import Served

ROUND_WAIT = ("The round has not started: the clocks start when the tournament's director "
              "starts the round (Art. 6.5).")




def test_a_round_announced_started_and_ended_by_the_director(
        served: Served, browser: Browser, see: Seer) -> None:
    tokens = {name: served.run(served.services.members.add(name))[1]
              for name in ("uma", "vic", "td")}
    number = served.post("/api/tournament/new", tokens["td"], name="Evening rapid",
                 system="double", timeControl="10+5")["id"]  # auto: FIDE rapid
    for name in ("uma", "vic"):
        served.post(f"/api/tournament/{number}/join", tokens[name], rating=1500)
    player = signed_in(browser, f"{served.base}/tournament/{number}", tokens["uma"],
                       audited=True)
    expect(player.locator("#next")).to_be_hidden()

    with httpx.stream("GET", served.base + "/api/stream/event", timeout=10,
                      headers={"Authorization": f"Bearer {tokens['vic']}"}) as events:
        board = served.post(f"/api/tournament/{number}/pair", tokens["td"])["boards"][0]
        started = next(json.loads(line) for line in events.iter_lines() if line.strip())
    assert started["type"] == "gameStart" and started["game"]["gameId"] == board["game"]
    assert started["game"]["source"] == "tournament"

    colour = "white" if board["white"] == "uma" else "black"
    announced = player.locator("#next-games li")
    expect(announced).to_have_text(f"Round 1, board 1: you play {colour} against vic. "
                                   "Go to your board")
    see(player, "a tournament game announced")
    announced.get_by_role("link", name="Go to your board").click()
    player.wait_for_url(f"{served.base}/{board['game']}")
    expect(player.locator("#status")).to_have_text(
        ROUND_WAIT + " Your opponent has not arrived yet.")
    expect(player.locator("#announce")).to_contain_text(ROUND_WAIT)
    expect(player.locator(".clock.running")).to_have_count(0)
    expect(player.locator(".clock").first).to_contain_text("10:00")
    see(player, "a tournament game before the round starts")
    seen = [player.url]
    while player.go_back() is not None:
        seen.append(player.url)
    assert len(seen) >= 2 and not any(tokens["uma"] in url for url in seen), seen
    player.go_forward()
    player.go_forward()

    console = browser.new_context(viewport=DESKTOP).new_page()  # for the default time
    console.goto(served.base + "/arbiter")
    console.fill("#token", served.arbiter_token("round-arbiter"))
    console.click("#login button[type=submit]")
    row = console.locator(f'#games tr[data-game="{board["game"]}"]')
    expect(row).to_contain_text("the round has not started: its director starts it")
    expect(row).to_contain_text(f"{'black' if colour == 'white' else 'white'} has not arrived")
    console.context.close()

    director = signed_in(browser, f"{served.base}/tournament/{number}/round/1", tokens["td"],
                         audited=True)
    see(director, "a round page with its start button")
    director.get_by_role("button", name="Start round 1").click()
    expect(player.locator("#status")).to_have_text(
        ("Your move." if colour == "white" else "White to move: waiting for your opponent.")
        + " Your opponent has not arrived yet.")
    expect(player.locator("#announce")).to_contain_text("The round has started")
    expect(player.locator(".clock.running")).to_have_count(1)

    director.select_option('select[aria-label="Result of board 1"]', "1/2-1/2")
    director.locator('form[aria-label="Result of board 1"] button').click()
    expect(director.locator("table.pairings tbody tr").first).to_contain_text("1/2-1/2")
    expect(player.locator("#result")).to_contain_text("1/2-1/2 Draw")
    expect(player.locator("#result")).to_contain_text("director")
    see(player, "a tournament game ended by the director's result")

    async def last_event() -> str:
        kind: str = (await served.hub.get(board["game"])).game.log[-1].kind
        return kind

    assert served.run(last_event()) == "declare-result"

    second = served.post(f"/api/tournament/{number}/pair", tokens["td"])["boards"][0]
    colour = "white" if second["white"] == "uma" else "black"
    following = player.locator("#next-game")  # announced on the finished board
    expect(following).to_have_text(f"Your next tournament game: you play {colour} against "
                                    "vic. Go to your board")
    expect(player.locator("#announce")).to_contain_text("Your next tournament game")
    see(player, "the next tournament game announced on the finished board")
    following.get_by_role("link").click()
    player.wait_for_url(f"{served.base}/{second['game']}")
    expect(player.locator("#status")).to_contain_text("The round has not started")
