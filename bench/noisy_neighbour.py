"""The noisy neighbour of ``bench/load_server.py --neighbour``: while the games play, one
process (i) directs tournaments of growing size (``--neighbour-players``, e.g. 400 then
1,000 players): creates each and registers its players before the measured window, then in
it pairs a round, enters every board's result, pairs the next (a Dutch pairing, CPU-bound
for seconds) and so on, while
``--neighbour-readers`` clients read the tournament (standings, crosstable) in a loop; and
(ii) ``--spammers`` accounts each send challenges as fast as their rate limit lets them
(waiting the 429's ``Retry-After``). It needs a server with ``--open-registration``. What
it measured (pairings' durations, reads, challenges accepted and refused) goes back to the
parent; the games' own figures say what the neighbour cost them."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

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


@dataclass
class NeighbourTally:
    pairings: list[tuple[int, int, float]] = field(default_factory=list)
    """(players, round, seconds) of each pairing request."""
    reads: list[float] = field(default_factory=list)
    challenges: dict[int, int] = field(default_factory=dict)
    """Answers to the spammers' challenges, by status."""
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _register(client: httpx.AsyncClient, name: str) -> str:
    answer = await client.post("/api/register", data={"username": name})
    answer.raise_for_status()
    token: str = answer.json()["token"]
    return token


class Neighbour:
    def __init__(self, plan: NeighbourPlan, client: httpx.AsyncClient) -> None:
        self.plan, self.client = plan, client
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
        try:
            for number, size in made:
                if self.live():
                    await self.direct(director, number, size)
            while self.live():
                await asyncio.sleep(0.1)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        return self.tally

    async def prepare(self, token: str, size: int) -> int:
        """A tournament of ``size`` players made and filled, before the window: its number."""
        made = await self.client.post("/api/tournament/new", headers=_auth(token), data={
            "name": f"neighbour {size}", "system": "swiss", "rounds": "9"})
        made.raise_for_status()
        number = made.json()["id"]
        for n in range(size):
            added = await self.client.post(f"/api/tournament/{number}/player",
                                           headers=_auth(token),
                                           data={"name": f"Player {n:04d}",
                                                 "rating": str(1000 + 7 * n % 1500)})
            added.raise_for_status()
        return int(number)

    async def direct(self, token: str, number: int, size: int) -> None:
        """The tournament's rounds paired and their results entered, while the window lasts."""
        self.current = number
        for round_no in range(1, 10):
            if not self.live():
                return
            began = time.monotonic()
            paired = await self.client.post(f"/api/tournament/{number}/pair",
                                            headers=_auth(token), timeout=600)
            if paired.status_code != 200:
                self.tally.error(f"pair {paired.status_code}")
                return
            self.tally.pairings.append((size, round_no, time.monotonic() - began))
            for board, _ in enumerate(paired.json()["boards"], 1):
                entered = await self.client.post(
                    f"/api/tournament/{number}/result", headers=_auth(token),
                    data={"round": str(round_no), "board": str(board),
                          "result": self.rng.choice(RESULTS)})
                if entered.status_code != 200:
                    self.tally.error(f"result {entered.status_code}")

    async def read(self) -> None:
        while True:
            if self.current is None:
                await asyncio.sleep(0.1)
                continue
            began = time.monotonic()
            answer = await self.client.get(f"/api/tournament/{self.current}", timeout=600)
            if answer.status_code == 200:
                self.tally.reads.append(time.monotonic() - began)
            else:
                self.tally.error(f"read {answer.status_code}")

    async def spam(self, token: str, target: str) -> None:
        while True:
            answer = await self.client.post(f"/api/challenge/{target}", headers=_auth(token),
                                            data={"clock.limit": "60"})
            status = answer.status_code
            self.tally.challenges[status] = self.tally.challenges.get(status, 0) + 1
            if status == 429:
                await asyncio.sleep(float(answer.headers.get("Retry-After", "1")))
            elif status != 200:
                await asyncio.sleep(1)


async def _main(plan: NeighbourPlan) -> NeighbourTally:
    limits = httpx.Limits(max_connections=plan.readers + plan.spammers + 4)
    async with httpx.AsyncClient(base_url=plan.url, limits=limits, timeout=60) as client:
        return await Neighbour(plan, client).run()


def neighbour_process(plan: NeighbourPlan, out: Any) -> None:
    """The neighbour's process: its tally to ``out``."""
    out.put(asyncio.run(_main(plan)))


def summary(tally: NeighbourTally, cpu: float, seconds: float) -> dict[str, Any]:
    """The tally's figures, with the neighbour process's CPU time ``cpu`` over the window
    of ``seconds``."""
    reads = sorted(tally.reads)

    def pct(q: float) -> float:
        return reads[min(len(reads) - 1, int(q * len(reads)))] * 1e3 if reads else float("nan")

    return {"pairings": [{"players": p, "round": r, "s": s} for p, r, s in tally.pairings],
            "reads": len(reads), "read_ms": {"p50": pct(0.5), "p99": pct(0.99)},
            "challenges": {str(k): v for k, v in sorted(tally.challenges.items())},
            "errors": tally.errors, "cpu_s": cpu, "cpu_share": cpu / seconds}
