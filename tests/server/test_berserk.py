"""The lichess client ``berserk``, unchanged, against a real server on loopback: two tokens
play a game to mate and another to a draw by agreement; challenges declined and cancelled."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import berserk
import pytest

from tests.server.helpers import add_accounts, live_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    db = tmp_path_factory.mktemp("server") / "games.sqlite"
    tokens = add_accounts(db, "alice", "bob")
    with live_server(db) as live:
        yield live.url, tokens


def clients(server: tuple[str, dict[str, str]]) -> tuple[berserk.Client, berserk.Client]:
    url, tokens = server
    return (berserk.Client(berserk.TokenSession(tokens["alice"]), base_url=url),
            berserk.Client(berserk.TokenSession(tokens["bob"]), base_url=url))


class Watcher:
    """bob's event stream and a game's stream read in threads, as a bot reads them."""

    def __init__(self, client: berserk.Client) -> None:
        self.client = client
        self.events: list[dict[str, Any]] = []
        self.started = threading.Event()
        self.challenged = threading.Event()
        self.states: list[dict[str, Any]] = []
        self.ended = threading.Event()

    def watch_events(self) -> None:
        for event in self.client.board.stream_incoming_events():
            self.events.append(event)
            if event["type"] == "challenge":
                self.challenged.set()
            if event["type"] == "gameStart":
                self.started.set()
                return

    def watch_game(self, game_id: str) -> None:
        for state in self.client.board.stream_game_state(game_id):
            self.states.append(state)
            current = state.get("state", state)
            if current.get("status") not in (None, "started"):
                self.ended.set()
                return
        self.ended.set()


def start_game(alice: berserk.Client, bob: berserk.Client) -> tuple[str, Watcher]:
    watcher = Watcher(bob)
    events = threading.Thread(target=watcher.watch_events, daemon=True)
    events.start()
    challenge = alice.challenges.create("bob", rated=False, clock_limit=180,
                                        clock_increment=2, color="white")
    assert watcher.challenged.wait(20)  # live, or listed when the stream opened after it
    bob.challenges.accept(challenge["id"])
    assert watcher.started.wait(20)
    game_id = next(e["game"]["gameId"] for e in watcher.events if e["type"] == "gameStart")
    threading.Thread(target=watcher.watch_game, args=(game_id,), daemon=True).start()
    return game_id, watcher


def test_a_game_to_mate(server: tuple[str, dict[str, str]]) -> None:
    alice, bob = clients(server)
    assert alice.account.get()["username"] == "alice"
    game_id, watcher = start_game(alice, bob)
    assert alice.games.get_ongoing()[0]["gameId"] == game_id
    for ply, move in enumerate(["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"]):
        (alice if ply % 2 == 0 else bob).board.make_move(game_id, move)
    assert watcher.ended.wait(20)
    full, last = watcher.states[0], watcher.states[-1]
    assert full["type"] == "gameFull" and full["white"]["name"] == "alice"
    assert full["clock"] == {"initial": 180_000, "increment": 2_000}
    assert last["status"] == "mate" and last["winner"] == "white"
    assert last["moves"].split()[-1] == "h5f7"
    assert last["wtime"].total_seconds() > 0  # berserk reads the clocks as durations
    pgn = alice.games.export(game_id, as_pgn=True)
    assert "Qxf7#" in pgn and '[Result "1-0"]' in pgn
    assert alice.games.get_ongoing() == []


def test_a_draw_by_agreement(server: tuple[str, dict[str, str]]) -> None:
    alice, bob = clients(server)
    game_id, watcher = start_game(alice, bob)
    alice.board.make_move(game_id, "d2d4")
    bob.board.make_move(game_id, "d7d5")
    alice.board.offer_draw(game_id)
    bob.board.decline_draw(game_id)
    alice.board.make_move(game_id, "c2c4")
    bob.board.offer_draw(game_id)
    alice.board.accept_draw(game_id)
    assert watcher.ended.wait(20)
    states = [s for s in watcher.states if s["type"] == "gameState"]
    assert any(s["wdraw"] for s in states) and any(s["bdraw"] for s in states)
    assert states[-1]["status"] == "draw" and "winner" not in states[-1]
    assert states[-1]["termination"]["name"] == "agreement"


def test_declined_and_cancelled_challenges(server: tuple[str, dict[str, str]]) -> None:
    alice, bob = clients(server)
    first = alice.challenges.create("bob", rated=False, clock_limit=60, clock_increment=0)
    assert bob.challenges.get_mine()["in"][0]["id"] == first["id"]
    bob.challenges.decline(first["id"], reason="later")
    second = alice.challenges.create("bob", rated=False)
    alice.challenges.cancel(second["id"])
    assert bob.challenges.get_mine() == {"in": [], "out": []}
    with pytest.raises(berserk.exceptions.ResponseError) as refused:
        bob.challenges.accept(second["id"])
    assert refused.value.status_code == 404


def test_wrong_token_refused(server: tuple[str, dict[str, str]], tmp_path: Path) -> None:
    alice, bob = clients(server)
    game_id, _ = start_game(alice, bob)
    url, _ = server
    stranger = berserk.Client(berserk.TokenSession("cha_not-a-token"), base_url=url)
    for client, status in ((stranger, 401), (bob, 400)):  # no one's token; not white's
        with pytest.raises(berserk.exceptions.ResponseError) as refused:
            client.board.make_move(game_id, "e2e4")
        assert refused.value.status_code == status
    with pytest.raises(berserk.exceptions.ResponseError) as refused:
        stranger.board.resign_game(game_id)
    assert refused.value.status_code == 401
    alice.board.resign_game(game_id)
