"""The server's background processes (server/background.py): the pairing, the renderings, the
built-in engine's searches and the rulings' analyses run outside the server's process, at a
lower CPU priority, so that compiled code holding the interpreter's lock never takes the
event loop's core; they end with the server, even one killed; the engine in its process
plays as it does in the server's thread, and a stop reaches its search there."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor
from pathlib import Path

import pytest

from chessarbiter.arbiter.oracles import mate_verdict
from chessarbiter.clock.records import Side
from chessarbiter.core.position import Position
from chessarbiter.engines.book import shipped_book
from chessarbiter.server import background
from chessarbiter.server.background import BACKGROUND_NICE
from chessarbiter.server.games import rulings, searching
from chessarbiter.server.games.searching import BackgroundBuiltin
from chessarbiter.server.tournaments.desk import pairing_pool, rendering_pool
from chessarbiter.session.players import BuiltinPlayer

POOLS: dict[str, Callable[[], Executor]] = {
    "pairing": pairing_pool,
    "rendering": rendering_pool,
    "engine": lambda: searching._pool(2),
    "analysis": lambda: background.pool(rulings.JOB, rulings.RULING_WORKERS),
}
LINES = [  # past the opening book: the search answers
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7",
    "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4 d1c2",
    "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 a2a4",  # a repetition in the history
]


def played(line: str) -> Position:
    pos = Position()
    for move in line.split():
        pos.push_uci(move)
    return pos


@pytest.mark.parametrize("job", sorted(POOLS))
def test_each_background_process_is_another_niced_below_the_server(job: str) -> None:
    mine = os.nice(0)
    pool = POOLS[job]()
    assert pool.submit(os.getpid).result(timeout=60) != os.getpid()
    assert pool.submit(os.nice, 0).result(timeout=60) == min(19, mine + BACKGROUND_NICE)
    assert os.nice(0) == mine  # the server's own priority is unchanged
    assert len({id(make()) for make in POOLS.values()}) == len(POOLS)
    if hasattr(os, "SCHED_IDLE"):  # the engines search only on CPU no one else wants
        policy = pool.submit(os.sched_getscheduler, 0).result(timeout=60)
        assert (policy == os.SCHED_IDLE) is (job == "engine")


def ended(pid: int) -> bool:
    """Whether process ``pid`` has ended (gone, or a zombie nobody has reaped yet)."""
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "State:\tZ" in state


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc")
def test_a_background_process_ends_with_a_server_killed() -> None:
    server = subprocess.Popen(
        [sys.executable, "-c", "import os, sys\n"
         "from chessarbiter.server import background\n"
         "print(background.pool('test').submit(os.getpid).result(), flush=True)\n"
         "sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    worker = int(server.stdout.readline())
    assert not ended(worker)
    server.send_signal(signal.SIGKILL)
    server.wait()
    deadline = time.monotonic() + 30  # a guard: it ends within a look (0.5 s)
    while not ended(worker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert ended(worker)


@pytest.mark.parametrize("line", LINES)
def test_the_engine_in_its_process_plays_as_in_the_servers_thread(line: str) -> None:
    """Level 7 is capped by depth alone: the same move and score, the game's history (its
    repetitions) sent along."""
    pos = played(line)
    assert shipped_book().moves(pos) == ()
    here, there = BuiltinPlayer(7), BackgroundBuiltin(7, 2)
    move = here.think(pos.copy(), None, None, threading.Event())
    assert there.think(pos.copy(), None, None, threading.Event()) == move
    assert there.score_cp == here.score_cp is not None
    assert pos.parse_uci(str(move)) in pos.legal_moves()


def test_the_engine_in_its_process_plays_from_the_opening_book() -> None:
    """After ``1. e4`` (the game's history sent along, a repetition in it) the search
    process answers from the book, as the server's thread does: one of its moves."""
    pos = played("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 e2e4")
    book = {move.uci for move in shipped_book().moves(pos)}
    assert len(book) > 1
    move = BackgroundBuiltin(7, 2).think(pos.copy(), None, None, threading.Event())
    assert move in book


def test_a_stop_reaches_the_search_in_its_process() -> None:
    """Level 10 without a clock searches until stopped: the stop set by the game (it ended,
    the server stops) ends it with the best move found."""
    pos = played(LINES[0])
    stop = threading.Event()
    stop.set()
    answers: list[object] = []
    thinking = threading.Thread(target=lambda: answers.append(
        BackgroundBuiltin(10, 2).think(pos, None, None, stop)))
    thinking.start()
    thinking.join(timeout=120)  # a guard only: it answers within a look at the flag
    assert not thinking.is_alive() and len(answers) == 1
    assert pos.parse_uci(str(answers[0])) in pos.legal_moves()


@pytest.mark.parametrize(("fen", "colour"), [
    ("8/8/4k3/8/8/3BK3/8/8 w - - 0 1", Side.WHITE),  # a lone bishop: material
    ("8/8/4k3/8/8/3BK3/8/8 w - - 0 1", Side.BLACK),
    ("k7/P7/1K6/8/8/8/8/8 b - - 0 1", Side.WHITE),  # stalemated: never mated
    ("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", Side.WHITE),  # winnable
])
def test_a_rulings_analysis_in_its_process_is_the_laws_oracle(fen: str, colour: Side) -> None:
    answered = background.pool(rulings.JOB, rulings.RULING_WORKERS).submit(
        rulings.verdict_of, fen, False, colour).result(timeout=120)
    assert answered == mate_verdict(Position(fen), colour)
