"""The noisy neighbour of ``bench/load_server.py --neighbour``: while the games play, one
process (i) directs tournaments of growing size (``--neighbour-players``, e.g. 400 then
1,000 players): creates each and registers its players before the measured window, then in
it pairs a round, enters every board's result, pairs the next (a Dutch pairing, CPU-bound
for seconds) and so on, while ``--neighbour-readers`` clients read the tournament
(standings, crosstable) in a loop; (ii) ``--spammers`` accounts each send challenges as
fast as their rate limit lets them (waiting the 429's ``Retry-After``); and (iii)
``--engine-games`` players each play the server's built-in engine (``--engine-level``),
answering its every move at once with a random legal move, so that the engines think
without a pause. It needs a server with ``--open-registration``. It stops asking when the
window ends (a pairing asked for is awaited); what it measured in the window (pairings'
durations, reads, challenges accepted and refused, the engines' moves) goes back to the
parent; the games' own figures say what the neighbour cost them. Each of its clients (the
director, every reader, spammer and engine's opponent) has one keep-alive connection of
``rawhttp``: a lean client, so that the neighbour's load is the server's work more than its
own CPU."""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

from rawhttp import RawConnection, post_ok

from chessarbiter.core.position import Position

RESULTS = ("1-0", "0-1", "1/2-1/2")


@dataclass
class NeighbourPlan:
    url: str
    players: list[int]
    readers: int
    spammers: int
    window: Any
    """Shared with the parent: the measured window [start, end)."""
    seed: int
    ready: Any
    """Shared with the parent: set to 1 once the accounts and the tournaments with their
    players are made (the parent opens the window after it)."""
    rounds: int = 9
    """Rounds of each tournament paired before the next tournament's."""
    engine_games: int = 0
    """Players each playing the server's engine, one game after another."""
    engine_level: int = 10


@dataclass
class NeighbourTally:
    pairings: list[tuple[int, int, float]] = field(default_factory=list)
    """(players, round, seconds) of each pairing request."""
    reads: list[float] = field(default_factory=list)
    challenges: dict[int, int] = field(default_factory=dict)
    """Answers to the spammers' challenges, by status."""
    engine_moves: int = 0
    """Moves the server's engines played in the window."""
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


TIMEOUT = 60.0
"""Seconds for a request; a pairing's or a read's may take longer (``LONG``)."""
LONG = 600.0


async def _register(client: RawConnection, name: str) -> str:
    token: str = (await post_ok(client, "/api/register", form={"username": name}))["token"]
    return token


class Neighbour:
    def __init__(self, plan: NeighbourPlan) -> None:
        self.plan = plan
        self.client = RawConnection.to(plan.url)
        """The director's connection."""
        self.tally = NeighbourTally()
        self.current: int | None = None
        """The tournament being directed (the readers read it)."""
        self.rng = random.Random(plan.seed)

    def live(self) -> bool:
        return bool(time.monotonic() < self.plan.window[1])

    async def run(self) -> NeighbourTally:
        tag = f"{self.rng.randrange(10**6):06d}"
        director = await _register(self.client, f"nn{tag}d")
        target = f"nn{tag}t"
        await _register(self.client, target)
        spammers = [await _register(self.client, f"nn{tag}s{n}")
                    for n in range(self.plan.spammers)]
        made = [(await self.prepare(director, size), size) for size in self.plan.players]
        self.plan.ready.value = 1
        while self.plan.window[0] == float("inf") or time.monotonic() < self.plan.window[0]:
            await asyncio.sleep(0.1)  # the games are in play and measured
        tasks = [asyncio.create_task(self.spam(token, target)) for token in spammers]
        tasks += [asyncio.create_task(self.read()) for _ in range(self.plan.readers)]
        tasks += [asyncio.create_task(self.against_engine(random.Random(self.rng.random())))
                  for _ in range(self.plan.engine_games)]
        try:
            for number, size in made:
                if self.live():
                    await self.direct(director, number, size)
            while self.live():
                await asyncio.sleep(0.1)
        finally:
            if tasks:  # each ends its request, then stops
                await asyncio.wait(tasks, timeout=10)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await self.client.close()
        return self.tally

    async def prepare(self, token: str, size: int) -> int:
        """A tournament of ``size`` players made and filled, before the window: its number."""
        made = await post_ok(self.client, "/api/tournament/new", token, form={
            "name": f"neighbour {size}", "system": "swiss", "rounds": "9"})
        number = made["id"]
        for n in range(size):
            await post_ok(self.client, f"/api/tournament/{number}/player", token,
                        form={"name": f"Player {n:04d}", "rating": str(1000 + 7 * n % 1500)})
        return int(number)

    async def direct(self, token: str, number: int, size: int) -> None:
        """The tournament's rounds paired and their results entered, while the window lasts."""
        self.current = number
        for round_no in range(1, self.plan.rounds + 1):
            if not self.live():
                return
            began = time.monotonic()
            paired = await self.client.request("POST", f"/api/tournament/{number}/pair",
                                               token, timeout=LONG)
            if paired.status != 200:
                self.tally.error(f"pair {paired.status}")
                return
            self.tally.pairings.append((size, round_no, time.monotonic() - began))
            for board, _ in enumerate(paired.json()["boards"], 1):
                if not self.live():
                    return
                entered = await self.client.request(
                    "POST", f"/api/tournament/{number}/result", token,
                    form={"round": str(round_no), "board": str(board),
                          "result": self.rng.choice(RESULTS)}, timeout=TIMEOUT)
                if entered.status != 200:
                    self.tally.error(f"result {entered.status}")

    async def read(self) -> None:
        client = RawConnection.to(self.plan.url)
        try:
            while self.live():
                if self.current is None:
                    await asyncio.sleep(0.1)
                    continue
                began = time.monotonic()
                answer = await client.request("GET", f"/api/tournament/{self.current}",
                                              timeout=LONG)
                if answer.status == 200:
                    self.tally.reads.append(time.monotonic() - began)
                else:
                    self.tally.error(f"read {answer.status}")
        finally:
            await client.close()

    async def spam(self, token: str, target: str) -> None:
        client = RawConnection.to(self.plan.url)
        try:
            while self.live():
                answer = await client.request("POST", f"/api/challenge/{target}", token,
                                              form={"clock.limit": "60"}, timeout=TIMEOUT)
                status = answer.status
                self.tally.challenges[status] = self.tally.challenges.get(status, 0) + 1
                if status == 429:
                    await asyncio.sleep(float(answer.headers.get(b"retry-after", b"1")))
                elif status != 200:
                    await asyncio.sleep(1)
        finally:
            await client.close()

    async def against_engine(self, rng: random.Random) -> None:
        """Games against the server's engine while the window lasts: each of the engine's
        moves answered at once with a random legal move."""
        client = RawConnection.to(self.plan.url)
        try:
            while self.live():
                made = await client.request("POST", "/api/challenge/ai", form={
                    "level": str(self.plan.engine_level), "clock.limit": "300",
                    "clock.increment": "2", "color": rng.choice(("white", "black"))},
                    timeout=TIMEOUT)
                if made.status != 201:
                    self.tally.error(f"ai {made.status}")
                    await asyncio.sleep(1)
                    continue
                game = made.json()
                await self.answer_engine(client, game["id"], game["secret"],
                                         game["player"], rng)
        finally:
            await client.close()

    async def answer_engine(self, client: RawConnection, game_id: str, secret: str,
                            colour: str, rng: random.Random) -> None:
        mine = 0 if colour == "white" else 1
        answered = -1  # the plies at the last move made
        async with client.stream(f"/api/board/game/stream/{game_id}", secret) as lines:
            async for raw in lines:
                data = json.loads(raw)
                state = data.get("state", data) if data.get("type") == "gameFull" else data
                if state.get("type") != "gameState":
                    continue
                if state.get("status", "started") != "started" or not self.live():
                    return
                moves = state["moves"].split()
                if len(moves) % 2 != mine or len(moves) <= answered:
                    continue  # the engine's turn, or a line about a move answered already
                answered = len(moves)
                if moves:
                    self.tally.engine_moves += 1  # it has moved
                pos = Position()
                for move in moves:
                    pos.push_uci(move)
                legal = pos.legal_moves()
                if not legal:
                    return
                answer = await client.request(
                    "POST", f"/api/board/game/{game_id}/move/{pos.uci(rng.choice(legal))}",
                    secret, timeout=TIMEOUT)
                if answer.status != 200:
                    self.tally.error(f"move against the engine {answer.status}")
                    return


def neighbour_process(plan: NeighbourPlan, out: Any) -> None:
    """The neighbour's process: its tally to ``out``."""
    out.put(asyncio.run(Neighbour(plan).run()))


def summary(tally: NeighbourTally, cpu: float, seconds: float) -> dict[str, Any]:
    """The tally's figures, with the neighbour process's CPU time ``cpu`` over the window
    of ``seconds``."""
    reads = sorted(tally.reads)

    def pct(q: float) -> float:
        return reads[min(len(reads) - 1, int(q * len(reads)))] * 1e3 if reads else float("nan")

    return {"pairings": [{"players": p, "round": r, "s": s} for p, r, s in tally.pairings],
            "reads": len(reads), "read_ms": {"p50": pct(0.5), "p99": pct(0.99)},
            "challenges": {str(k): v for k, v in sorted(tally.challenges.items())},
            "engine_moves": tally.engine_moves,
            "errors": tally.errors, "cpu_s": cpu, "cpu_share": cpu / seconds}
