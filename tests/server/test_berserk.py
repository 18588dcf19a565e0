"""The lichess client ``berserk``, unchanged, against a real server on loopback: two tokens
play a game to mate and another to a draw by agreement; challenges declined and cancelled;
every method of its Board, Bots and Challenges clients."""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import berserk
import pytest

from chessarbiter.clock.records import Side
from chessarbiter.server.games.presence import GONE_MS
from tests.clock.fake_time import FakeTime
from tests.server.helpers import Live, add_accounts, live_server


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


@pytest.fixture(scope="module")
def timed() -> Iterator[tuple[Live, dict[str, str], FakeTime]]:
    """A server on a hand-driven clock (absences measured on it), with a BOT account."""
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "games.sqlite"
        tokens = add_accounts(db, "alice", "bob", "robot")
        clock = FakeTime()
        with live_server(db, now_ms=clock) as live:
            yield live, tokens, clock


def read_until(stream: Iterator[Any], found: list[dict[str, Any]],
               done: Callable[[dict[str, Any]], bool]) -> threading.Thread:
    """Read a berserk stream in a thread until ``done`` says so."""
    def read() -> None:
        for item in stream:
            found.append(item)
            if done(item):
                return

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


def eventually(check: Callable[[], bool]) -> None:
    for _ in range(400):
        if check():
            return
        threading.Event().wait(0.05)
    raise AssertionError("never came")


CLOCK: dict[str, Any] = {"clock_limit": 180, "clock_increment": 2}


@pytest.mark.filterwarnings("ignore:Call to deprecated method create_with_accept")
def test_every_board_bot_and_challenge_method(
        timed: tuple[Live, dict[str, str], FakeTime]) -> None:
    live, tokens, clock = timed
    alice, bob, robot = (berserk.Client(berserk.TokenSession(tokens[n]), base_url=live.url)
                         for n in ("alice", "bob", "robot"))
    robot.account.upgrade_to_bot()  # type: ignore[no-untyped-call]
    # Challenges
    events: list[dict[str, Any]] = []
    read_until(bob.board.stream_incoming_events(), events, lambda e: e["type"] == "gameFinish")
    first = alice.challenges.create("bob", rated=False, **CLOCK)
    eventually(lambda: any(e["type"] == "challenge" for e in events))
    assert bob.challenges.get_mine()["in"][0]["id"] == first["id"]
    bob.challenges.decline(first["id"], reason="tooFast")
    second = alice.challenges.create("bob", rated=False)
    alice.challenges.cancel(second["id"])
    game = alice.challenges.create_with_accept("bob", rated=False, token=tokens["bob"],
                                               color="white", **CLOCK)["id"]
    eventually(lambda: any(e["type"] == "gameStart" for e in events))
    # Board
    states: list[dict[str, Any]] = []
    watching = read_until(alice.board.stream_game_state(game), states,
                          lambda s: s.get("status") == "timeout")
    for player, move in ((alice, "e2e4"), (bob, "e7e5"), (alice, "g1f3")):
        player.board.make_move(game, move)
    alice.challenges.start_clocks(game, tokens["alice"], tokens["bob"])  # running: no effect
    alice.challenges.add_time_to_opponent_clock(game, 15)
    alice.board.post_message(game, "good luck")
    bob.board.post_message(game, "hello all", spectator=True)
    assert bob.board.get_game_chat(game) == [{"user": "alice", "text": "good luck"}]
    alice.board.offer_draw(game)
    bob.board.decline_draw(game)
    bob.board.handle_draw_offer(game, True)  # an offer
    alice.board.handle_draw_offer(game, False)
    alice.board.offer_takeback(game)
    bob.board.decline_takeback(game)
    alice.board.handle_takeback_offer(game, True)
    bob.board.accept_takeback(game)
    alice.board.make_move(game, "b1c3")
    bob.board.make_move(game, "b8c6")
    bob.board.offer_takeback(game)
    alice.board.handle_takeback_offer(game, False)
    with pytest.raises(berserk.exceptions.ResponseError) as refused:
        alice.board.go_berserk(game)
    assert refused.value.status_code == 400  # arena tournaments only
    for _ in bob.board.stream_game_state(game):
        break  # bob at the board, then gone
    presence = live.services.presence
    eventually(lambda: presence.games[game].left_at[Side.BLACK] is not None)
    clock.advance(GONE_MS)  # left once his streams have been closed 5 s
    live.hub.loop.call_soon_threadsafe(presence.look)
    eventually(lambda: any(s.get("type") == "opponentGone" and s["gone"] for s in states))
    clock.advance(30_000 - GONE_MS)
    alice.board.claim_victory(game)
    watching.join(20)
    assert states[-1]["status"] == "timeout" and states[-1]["winner"] == "white"
    assert any(s.get("wtakeback") for s in states)
    eventually(lambda: any(e["type"] == "gameFinish" for e in events))
    to_abort = alice.challenges.create_with_accept("bob", rated=False, token=tokens["bob"],
                                                   **CLOCK)["id"]
    alice.board.abort_game(to_abort)
    to_resign = alice.challenges.create("bob", rated=False, **CLOCK)["id"]
    bob.challenges.accept(to_resign)
    bob.board.resign_game(to_resign)
    drawn = alice.challenges.create_with_accept("bob", rated=False, token=tokens["bob"],
                                                color="white", **CLOCK)["id"]
    alice.board.make_move(drawn, "d2d4")
    bob.board.make_move(drawn, "d7d5")
    alice.board.offer_draw(drawn)
    bob.board.accept_draw(drawn)
    seekers = [threading.Thread(target=c.board.seek, args=(3, 2), daemon=True)
               for c in (alice, bob)]
    for seeker in seekers:
        seeker.start()
    for seeker in seekers:
        seeker.join(20)
        assert not seeker.is_alive()  # paired: the seek returned
    # Bots
    bot_events: list[dict[str, Any]] = []
    read_until(robot.bots.stream_incoming_events(), bot_events,
               lambda e: e["type"] == "gameFinish")
    eventually(lambda: robot.bots.get_online_bots() is not None and any(
        b["id"] == "robot" for b in robot.bots.get_online_bots()))
    declined = alice.challenges.create("robot", rated=False, **CLOCK)["id"]
    eventually(lambda: any(e["type"] == "challenge" for e in bot_events))
    robot.bots.decline_challenge(declined, reason="later")
    bot_game = alice.challenges.create("robot", rated=False, color="black", **CLOCK)["id"]
    robot.bots.accept_challenge(bot_game)
    bot_states: list[dict[str, Any]] = []
    bot_watch = read_until(robot.bots.stream_game_state(bot_game), bot_states,
                           lambda s: s.get("status") == "resign")
    robot.bots.make_move(bot_game, "e2e4")
    robot.bots.post_message(bot_game, "have fun")
    robot.bots.resign_game(bot_game)
    bot_watch.join(20)
    assert bot_states[-1]["status"] == "resign"
    to_abort = alice.challenges.create("robot", rated=False, **CLOCK)["id"]
    robot.bots.accept_challenge(to_abort)
    robot.bots.abort_game(to_abort)
    ai = alice.challenges.create_ai(level=1, color="black", **CLOCK)
    assert ai["id"]
    assert alice.challenges.create_open(**CLOCK)["urlWhite"]
    # a method berserk 0.14 cannot send: it passes `payload=` on to requests
    with pytest.raises(TypeError, match="payload"):
        alice.challenges.create_tokens_for_multiple_users(["bob"], "tokens")
