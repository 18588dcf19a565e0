"""The spectators' stream ``/api/stream/game/{id}`` as lichess documents it: an ongoing
game three moves behind (a spectator arriving late starts there too), the players' own
streams not delayed, the withheld moves and the game whole at its end; a takeback behind
what was shown shows the position it went back to. Every line validated against lichess'
specification."""

from __future__ import annotations

import json
import threading

from chessarbiter.server.games.spectate import DELAY_PLIES
from tests.server.test_lichess_schemas import Checked, server, started, wait_for

__all__ = ["server"]  # the fixture


def moves_of(lines: list[bytes]) -> list[str]:
    return [json.loads(line)["lm"] for line in lines if b'"lm"' in line]


def test_an_ongoing_game_is_shown_three_moves_behind(server: tuple[Checked, dict[str, str]]
                                                     ) -> None:
    s, tok = server
    alice, bob = tok["alice"], tok["bob"]
    game_id = started(s, alice, bob)
    early: list[bytes] = []
    s.stream(f"/api/stream/game/{game_id}", None, early, '"resign"')
    states: list[bytes] = []
    s.stream(f"/api/board/game/stream/{game_id}", bob, states, '"resign"')
    wait_for(early, '"turns":0')
    wait_for(states, "gameFull")
    played = ["e2e4", "e7e5", "g1f3", "b8c6"]
    for token, move in zip((alice, bob, alice, bob), played, strict=True):
        s.call("POST", f"/api/board/game/{game_id}/move/{move}", token)
    wait_for(states, '"moves":"e2e4 e7e5 g1f3 b8c6"')  # the player: at once
    wait_for(early, '"lm":"e2e4"')
    assert DELAY_PLIES == 3 and moves_of(early) == ["e2e4"]  # b8c6 shows e2e4 only
    shown = json.loads(next(line for line in early if b'"lm"' in line))
    assert shown["fen"] == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b"
    assert (shown["wc"], shown["bc"]) == (180, 180)
    late: list[bytes] = []
    s.stream(f"/api/stream/game/{game_id}", None, late, '"resign"')
    wait_for(late, '"turns":1')
    first = json.loads(late[0])
    assert (first["lastMove"], first["player"]) == ("e2e4", "black")
    assert first["fen"].startswith("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq")
    s.call("POST", f"/api/board/game/{game_id}/resign", bob)
    for lines in (early, late):
        wait_for(lines, '"resign"')
    assert moves_of(early) == played and moves_of(late) == played[1:]
    end = json.loads(early[-1])
    assert (end["turns"], end["lastMove"], end["status"]["name"]) == (4, "b8c6", "resign")
    assert end["fen"].startswith("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w")
    assert s.found == [], "\\n".join(s.found)


def test_a_takeback_behind_the_shown_moves_shows_its_position(
        server: tuple[Checked, dict[str, str]]) -> None:
    s, tok = server
    alice, bob = tok["alice"], tok["bob"]
    game_id = started(s, alice, bob)
    board = f"/api/board/game/{game_id}"
    played = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"]
    for token, move in zip((alice, bob) * 3, played, strict=True):
        s.call("POST", f"{board}/move/{move}", token)
    watched: list[bytes] = []
    s.stream(f"/api/stream/game/{game_id}", None, watched, '"resign"')
    wait_for(watched, '"turns":3')  # e2e4 e7e5 g1f3 shown
    for _ in range(2):  # alice's last move and bob's after it, twice: e2e4 e7e5 stand
        s.call("POST", f"{board}/takeback/yes", alice)
        s.call("POST", f"{board}/takeback/yes", bob)
    wait_for(watched, '"lm":"e7e5"')
    back = json.loads(next(line for line in watched if b'"lm"' in line))
    assert back["fen"] == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w"
    s.call("POST", f"{board}/move/d2d4", alice)
    threading.Event().wait(0.3)
    assert moves_of(watched) == ["e7e5"]  # d2d4 is not three moves old
    s.call("POST", f"{board}/resign", bob)
    wait_for(watched, '"resign"')
    assert moves_of(watched) == ["e7e5", "d2d4"]
    assert s.found == [], "\n".join(s.found)
