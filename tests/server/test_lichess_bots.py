"""Two lichess-bots, unmodified (each its own process, Debian's stockfish), against each
other on the server: a whole game from a random-colour challenge one bot makes to the
other, and a draw both reach by ``offeringDraw`` on their moves (their config's
``offer_draw_*`` settings made eager). No error line in either log. Long: whole games."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.helpers import add_accounts, live_server
from tests.server.lichess_bot import BotInstall, RunningBot, install, running
from tests.server.test_lichess_bot import errors, wait_online

pytestmark = pytest.mark.long

GAME_S = 900
"""How long a whole bullet game between the bots may take on a loaded machine."""
EAGER_DRAWS = {
    "offer_draw_score: 0 ": "offer_draw_score: 1000 ",
    "offer_draw_moves: 10 ": "offer_draw_moves: 1 ",
    "offer_draw_pieces: 10 ": "offer_draw_pieces: 32 ",
}
"""lichess-bot's draw settings made eager: it offers (or agrees) on every move."""

Bots = tuple[str, dict[str, str], RunningBot, RunningBot]


@pytest.fixture(scope="module")
def install_once(tmp_path_factory: pytest.TempPathFactory) -> BotInstall:
    return install(tmp_path_factory.mktemp("lichess-bot-install"))


@contextmanager
def two_bots(root: Path, bot: BotInstall, changes: dict[str, str] | None) -> Iterator[Bots]:
    db = root / "games.sqlite"
    tokens = add_accounts(db, "robot1", "robot2")
    with live_server(db) as live, \
            running(bot, root / "one", live.url, tokens["robot1"], changes) as one, \
            running(bot, root / "two", live.url, tokens["robot2"], changes) as two:
        for name, each in (("robot1", one), ("robot2", two)):
            wait_online(live.url, each, name)
        yield live.url, tokens, one, two
    assert errors(one.text()) == [] and errors(two.text()) == []


def finished(url: str, game_id: str, token: str) -> dict[str, Any]:
    """The game's last state, once it has ended."""
    deadline = time.monotonic() + GAME_S
    while time.monotonic() < deadline:
        state: dict[str, Any] = httpx.get(f"{url}/api/game/{game_id}", headers={
            "Authorization": f"Bearer {token}"}).json()["state"]
        if state["status"] not in ("created", "started"):
            return state
        time.sleep(1)
    raise AssertionError(f"game {game_id} did not end in {GAME_S} s")


def challenge(url: str, tokens: dict[str, str], **fields: object) -> dict[str, Any]:
    made = httpx.post(f"{url}/api/challenge/robot2", data={
        "clock.limit": 60, "clock.increment": 1, **fields},
        headers={"Authorization": f"Bearer {tokens['robot1']}"})
    assert made.status_code == 200, made.text
    answer: dict[str, Any] = made.json()
    return answer


def test_a_whole_game_between_two_bots_from_a_random_colour_challenge(
        tmp_path: Path, install_once: BotInstall) -> None:
    with two_bots(tmp_path, install_once, None) as (url, tokens, _, _):
        made = challenge(url, tokens)  # colour: random
        assert made["color"] == "random" and made["finalColor"] in ("white", "black")
        last = finished(url, made["id"], tokens["robot1"])
        assert last["status"] in ("mate", "draw", "stalemate", "outoftime"), last
        moves = last["moves"].split()
        assert len(moves) >= 10  # both bots played it out
        white = httpx.get(f"{url}/api/game/{made['id']}").json()["white"]["name"]
        assert (white == "robot1") is (made["finalColor"] == "white")


def test_two_bots_agree_a_draw_by_offering_draw(tmp_path: Path,
                                                install_once: BotInstall) -> None:
    with two_bots(tmp_path, install_once, EAGER_DRAWS) as (url, tokens, _, _):
        made = challenge(url, tokens, color="white")
        last = finished(url, made["id"], tokens["robot1"])
        assert last["status"] == "draw", last
        assert last["termination"]["name"] == "agreement", last
