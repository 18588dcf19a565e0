"""lichess-bot, unmodified (its own virtual environment, Debian's stockfish, configured
only by its config file, greetings on): it upgrades its account to a BOT, accepts a
challenge from an account driven by berserk, answers ``!name`` written in the player room
(a ``chatLine`` on its game stream) and plays until that side resigns; it plays
the built-in engine through ``/api/challenge/ai``; a random-colour challenge; a
correspondence game (its config accepting correspondence). No error line in its log."""

from __future__ import annotations

import datetime
import threading
import time
from collections.abc import Iterator
from typing import Any

import berserk
import chess
import httpx
import pytest

from tests.server.helpers import add_accounts, live_server
from tests.server.lichess_bot import BotInstall, RunningBot, install, running

WAIT_S = 60
"""How long a step of a game may take on a loaded machine."""

ONLINE_S = 180
"""How long its start may take on a loaded machine: it checks its engine, then starts five
processes, each a new interpreter importing its modules (``spawn``); the one that opens the
event stream took over 50 s during a run's busiest minute."""


@pytest.fixture(scope="session")
def lichess_bot(tmp_path_factory: pytest.TempPathFactory) -> BotInstall:
    return install(tmp_path_factory.mktemp("lichess-bot-install"))


@pytest.fixture(scope="module")
def bot_server(tmp_path_factory: pytest.TempPathFactory, lichess_bot: BotInstall
               ) -> Iterator[tuple[str, dict[str, str], RunningBot]]:
    """One server and one lichess-bot for the module's games (one at a time, as the bot's
    default config plays)."""
    tmp_path = tmp_path_factory.mktemp("bot-server")
    db = tmp_path / "games.sqlite"
    tokens = add_accounts(db, "alice", "robot")
    with live_server(db) as live, running(lichess_bot, tmp_path / "bot", live.url,
                                          tokens["robot"]) as bot:
        wait_online(live.url, bot)
        yield live.url, tokens, bot
    assert errors(bot.text()) == []


def errors(log: str) -> list[str]:
    return [line for line in log.splitlines()
            if "ERROR" in line or "Traceback" in line or "CRITICAL" in line]


def wait_online(url: str, bot: RunningBot, name: str = "robot") -> None:
    """Until the bot (account ``name``) is a BOT with its event stream open
    (``/api/bot/online`` lists it)."""
    deadline = time.monotonic() + ONLINE_S
    while time.monotonic() < deadline:
        assert bot.process.poll() is None, f"lichess-bot stopped:\n{bot.text()[-3000:]}"
        online = httpx.get(f"{url}/api/bot/online").text.split("\n")
        if any(f'"{name}"' in line for line in online):
            return
        time.sleep(0.2)
    raise AssertionError(f"lichess-bot never came online:\n{bot.debug_text()[-4000:]}")


class Side:
    """A berserk-driven player: its game stream in a thread, the states it saw."""

    def __init__(self, client: berserk.Client, game_id: str) -> None:
        self.states: list[dict[str, Any]] = []
        self.full: dict[str, Any] = {}
        self.changed = threading.Condition()
        threading.Thread(target=self.watch, args=(client, game_id), daemon=True).start()

    def watch(self, client: berserk.Client, game_id: str) -> None:
        for line in client.board.stream_game_state(game_id):
            with self.changed:
                if line["type"] == "gameFull":
                    self.full = line
                    self.states.append(line["state"])
                elif line["type"] == "gameState":
                    self.states.append(line)
                self.changed.notify_all()

    def wait(self, test: Any) -> dict[str, Any]:
        with self.changed:
            assert self.changed.wait_for(lambda: self.states and test(self.states[-1]),
                                         WAIT_S), self.states[-1:]
            return self.states[-1]


def moves_of(state: dict[str, Any]) -> list[str]:
    return state["moves"].split() if state["moves"] else []


def game_started(client: berserk.Client) -> str:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        ongoing = client.games.get_ongoing()
        if ongoing:
            return str(ongoing[0]["gameId"])
        time.sleep(0.2)
    raise AssertionError("the bot never accepted the challenge")


def play_then_resign(client: berserk.Client, game_id: str, mine: chess.Color,
                     plies: int) -> dict[str, Any]:
    """Play legal moves as ``mine`` until ``plies`` moves are on the board, then resign;
    the game's last state."""
    side = Side(client, game_id)
    turn = 0 if mine else 1  # the plies on the board when it is my turn next
    while True:
        state = side.wait(lambda s, at=turn: len(moves_of(s)) >= at
                          or s["status"] != "started")
        assert state["status"] == "started", state
        board = chess.Board()
        for uci in moves_of(state):
            board.push_uci(uci)
        if len(board.move_stack) >= plies:
            break
        client.board.make_move(game_id, next(iter(board.legal_moves)).uci())
        turn = len(board.move_stack) + 2
    client.board.resign_game(game_id)
    return side.wait(lambda s: s["status"] != "started")


def test_lichess_bot_accepts_plays_and_greets(
        bot_server: tuple[str, dict[str, str], RunningBot]) -> None:
    url, tokens, _ = bot_server
    alice = berserk.Client(berserk.TokenSession(tokens["alice"]), base_url=url)
    account = httpx.get(f"{url}/api/account",
                        headers={"Authorization": f"Bearer {tokens['robot']}"}).json()
    assert account["title"] == "BOT"
    alice.challenges.create("robot", rated=False, clock_limit=60, clock_increment=0,
                            color="white")
    game_id = game_started(alice)
    alice.board.make_move(game_id, "e2e4")
    said = player_chat(url, tokens["alice"], game_id, "robot")  # its greeting, on its turn
    assert any("robot" in line["text"] for line in said), said
    alice.board.post_message(game_id, "!name")  # a chatLine on its stream: it answers
    said = player_chat(url, tokens["alice"], game_id, "robot", "running")  # after its move
    assert any(line["text"].startswith("robot running") for line in said), said
    last = play_then_resign(alice, game_id, chess.WHITE, plies=6)
    assert last["status"] == "resign" and last["winner"] == "black"
    assert len(moves_of(last)) >= 6  # the bot answered every move


def player_chat(url: str, token: str, game_id: str, user: str, text: str = ""
                ) -> list[dict[str, str]]:
    """The game's player room once ``user`` has written a line containing ``text``."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        said: list[dict[str, str]] = httpx.get(
            f"{url}/api/board/game/{game_id}/chat",
            headers={"Authorization": f"Bearer {token}"}).json()
        if any(line["user"] == user and text in line["text"] for line in said):
            return said
        time.sleep(0.1)
    raise AssertionError(f"{user} never wrote {text!r} in the chat")


def test_lichess_bot_plays_correspondence(
        bot_server: tuple[str, dict[str, str], RunningBot]) -> None:
    """A correspondence challenge (``days``), accepted as its config's ``correspondence``
    time control, played at its ``move_time`` until alice resigns."""
    url, tokens, _ = bot_server
    alice = berserk.Client(berserk.TokenSession(tokens["alice"]), base_url=url)
    challenge = alice.challenges.create("robot", rated=False, days=3, color="white")
    assert challenge["timeControl"] == {"type": "correspondence", "daysPerTurn": 3}
    game_id = game_started(alice)
    assert alice.games.get_ongoing()[0]["speed"] == "correspondence"
    last = play_then_resign(alice, game_id, chess.WHITE, plies=4)
    assert last["status"] == "resign" and last["winner"] == "black"
    assert len(moves_of(last)) >= 4
    assert last["btime"] > datetime.timedelta(days=2)  # the 3 days barely touched (berserk
    # reads wtime and btime as durations)


@pytest.mark.long
def test_random_colour_challenge(bot_server: tuple[str, dict[str, str], RunningBot]) -> None:
    url, tokens, _ = bot_server
    alice = berserk.Client(berserk.TokenSession(tokens["alice"]), base_url=url)
    challenge = alice.challenges.create("robot", rated=False, clock_limit=60,
                                        clock_increment=0)  # colour: random by default
    assert challenge["color"] == "random"
    mine = chess.WHITE if challenge["finalColor"] == "white" else chess.BLACK
    game_id = game_started(alice)
    assert alice.games.get_ongoing()[0]["color"] == challenge["finalColor"]
    last = play_then_resign(alice, game_id, mine, plies=4)
    assert last["status"] == "resign"


@pytest.mark.long
def test_lichess_bot_against_the_built_in_engine(
        bot_server: tuple[str, dict[str, str], RunningBot]) -> None:
    url, tokens, _ = bot_server
    robot = {"Authorization": f"Bearer {tokens['robot']}"}
    answer = httpx.post(f"{url}/api/challenge/ai", headers=robot,
                        data={"level": 1, "clock.limit": 60, "clock.increment": 1,
                              "color": "white"})
    assert answer.status_code == 201, answer.text
    game_id = answer.json()["id"]
    deadline = time.monotonic() + 3 * WAIT_S
    state: dict[str, Any] = {}
    while time.monotonic() < deadline:
        state = httpx.get(f"{url}/api/game/{game_id}", headers=robot).json()["state"]
        if len(moves_of(state)) >= 8 or state["status"] != "started":
            break
        time.sleep(0.3)
    assert len(moves_of(state)) >= 8, state  # both sides played: the bot's moves stand
    assert httpx.post(f"{url}/api/bot/game/{game_id}/resign", headers=robot).status_code == 200
