"""Load test of ``chessarbiter serve``: concurrent games played by bot clients over the lichess
Board API on loopback.

Run: ``PYTHONPATH=src .venv/bin/python bench/load_server.py --games 1000 --seconds 60``.
Without ``--url`` the server is started as a real subprocess (``python -m
chessarbiter.cli.main serve``) on a free port of 127.0.0.1 with a temporary database, and
stopped at the end. Each game is an open challenge (two per-game secrets used as Bearer
tokens); both players follow the game stream (``GET /api/board/game/stream/{id}``, NDJSON)
and the side to move posts the next move of a real game from ``../shared/corpus/pgn``
(``POST /api/board/game/{id}/move/{uci}``) at ``--rate`` moves per second per game, under a
long time control. A game whose line is played out is resigned; a game that ends is replaced
by a new one, so ``--games`` games are in play throughout.

Measured in the window after ``--warmup`` seconds: the move round trip (the move POSTed ->
both players' streams have received the ``gameState`` with it) and the acknowledgement (the
POST's 200), p50 / p99 / max; moves per second; the server process's CPU time (from
``/proc/PID/stat``) per move, the clients' own, and PostgreSQL's and Redis's (every process
of theirs, for a cluster). Clients run in ``--procs`` processes of
one asyncio loop each (uvloop when installed), on raw HTTP/1.1 keep-alive connections
(``--client raw``, ``bench/rawhttp.py``: one connection per game for its moves, one per
player for its stream) or
httpx (``--client httpx``), to compare what the clients cost. Everything is bounded: at most
``--games`` games and ``--seconds`` seconds, then every connection is closed.

Also measured: how much more a mover's clock was charged than the client's own thinking
time (from the opponent's move reaching the mover's stream to the move's POST): the server's
delays charged to a player (docs/server.md, "Clocks, flags and lag"); never more than the
network time (the round trip) when none is.

``--neighbour`` adds the noisy neighbour of ``bench/noisy_neighbour.py`` in its own process
(tournaments of ``--neighbour-players`` paired ``--neighbour-rounds`` rounds each, one
after the other, and read by ``--neighbour-readers`` clients, ``--spammers`` accounts
sending challenges at their rate limit, ``--engine-games`` players playing the server's
built-in engine, answering at once); the server is started with
``--open-registration`` for it.

``--timeline`` prints the round trips second by second: a tail from a stall shows as one
bad second among good ones, a machine short of CPU as a queue that builds up and stays.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing
import os
import random
import re
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Protocol

from noisy_neighbour import NeighbourPlan, neighbour_process, summary
from rawhttp import Answer, RawConnection, ndjson

from chessarbiter.notation.pgn_reader import read_pgn_file
from chessarbiter.server.games.db import SLOW_COMMIT_S
from chessarbiter.server.http.share import STALL_S

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "pgn"
STANDARD = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
TICK = os.sysconf("SC_CLK_TCK")


# -- the lines the bots play ------------------------------------------------------------------


def load_lines(count: int, min_plies: int = 20) -> list[list[str]]:
    """UCI lines of ``count`` real games from the standard start (the corpus read with the
    project's PGN reader), each at least ``min_plies`` long."""
    lines: list[list[str]] = []
    for path in sorted(CORPUS.rglob("*.pgn")):
        for game in read_pgn_file(path):
            if game.error is not None or game.chess960 or game.start_fen != STANDARD:
                continue
            if len(game.moves) < min_plies:
                continue
            pos = game.start_position()
            line = []
            for record in game.moves:
                line.append(pos.uci(record.move))
                pos.push(record.move)
            lines.append(line)
            if len(lines) >= count:
                return lines
    if not lines:
        raise SystemExit(f"no games found under {CORPUS}")
    return lines


# -- transports ---------------------------------------------------------------------------------


class Transport(Protocol):
    """What a bot needs from HTTP: a request, and an NDJSON stream line by line (a
    ``rawhttp.RawConnection`` or an ``HttpxTransport``)."""

    async def request(self, method: str, path: str, token: str | None = None,
                      data: dict[str, object] | None = None) -> Answer: ...

    def stream(self, path: str, token: str) -> contextlib.AbstractAsyncContextManager[
        AsyncIterator[bytes]]: ...

    async def close(self) -> None: ...


class HttpxTransport:
    """The same over one shared ``httpx.AsyncClient`` (HTTP/1.1 connection pool)."""

    def __init__(self, url: str, games: int) -> None:
        import httpx

        self._client = httpx.AsyncClient(
            base_url=url, timeout=None,
            limits=httpx.Limits(max_connections=3 * games + 10,
                                max_keepalive_connections=games + 10))

    async def request(self, method: str, path: str, token: str | None = None,
                      data: dict[str, object] | None = None) -> Answer:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = await self._client.request(method, path, headers=headers, json=data)
        return Answer(response.status_code, response.content,
                      {name.lower(): value for name, value in response.headers.raw})

    @contextlib.asynccontextmanager
    async def stream(self, path: str, token: str) -> AsyncIterator[AsyncIterator[bytes]]:
        headers = {"Authorization": f"Bearer {token}"}
        async with self._client.stream("GET", path, headers=headers) as response:
            if response.status_code != 200:
                raise RuntimeError(f"GET {path}: {response.status_code}")
            yield ndjson(response.aiter_raw())

    async def close(self) -> None:
        await self._client.aclose()


# -- one client process ---------------------------------------------------------------------------


@dataclass
class Plan:
    """What a client process does; times are ``time.monotonic()`` values (one clock for all
    processes of the machine)."""

    url: str
    games: int
    rate: float
    start: float
    window: Any
    """Shared with the parent: the measured window [start, end), infinite until every game
    is in play (the parent sets it then)."""
    started: Any
    """Shared with the parent: how many bots have their first game in play."""
    client: str
    lines: list[list[str]]
    control: tuple[int, int]  # clock limit and increment, seconds
    seed: int


@dataclass
class Tally:
    url: str = ""
    round_trips: list[float] = field(default_factory=list)
    posted: list[float] = field(default_factory=list)
    """When each round trip's move was posted (``time.monotonic``, the same in every
    process)."""
    acks: list[float] = field(default_factory=list)
    overcharges: list[float] = field(default_factory=list)
    """Per move (ms): the mover's clock charged minus the client's thinking time."""
    beyond_exchange: list[float] = field(default_factory=list)
    """Per move (ms): the mover's clock charged minus the whole exchange, from the
    opponent's move's POST to this move's 200. The thinking, the network time both ways and
    the server's work on both moves are within it, so a positive value is a charge no
    measured time accounts for (a weak test: a server delay inside the exchange is not
    seen)."""
    moves: int = 0
    games_started: int = 0
    games_ended: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    cpu: float = 0.0

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


MISTAKES: Final = (TypeError, NameError, AttributeError, AssertionError)
"""Exceptions that are the bench's own mistakes, not the server's: they end the run (a
mistake counted as an error once made a run report 0 moves measured instead of failing)."""


def _count_moves(moves: str) -> int:
    return moves.count(" ") + 1 if moves else 0


class Bot:
    """One game: create it, follow both streams, play its line, replace it when it ends."""

    def __init__(self, plan: Plan, tally: Tally, transport: Transport, moves: Transport,
                 number: int, rng: random.Random) -> None:
        self.plan, self.tally, self.transport, self.moves = plan, tally, transport, moves
        self.number, self.rng = number, rng
        self.counted = False

    async def run(self) -> None:
        plan = self.plan
        await asyncio.sleep(max(0.0, plan.start - time.monotonic()))
        while time.monotonic() < plan.window[1]:
            try:
                await self.play(self.rng.choice(plan.lines))
            except MISTAKES:
                raise  # the bench's own mistake: the run fails, it is not an error counted
            except Exception as exc:  # counted, and the bot plays on with a new game
                self.tally.error(f"{type(exc).__name__}: {str(exc)[:60]}")
                await asyncio.sleep(0.5)

    async def create(self) -> tuple[str, str, str]:
        limit, increment = self.plan.control
        status, body, _ = await self.transport.request(
            "POST", "/api/challenge/open",
            data={"clock.limit": limit, "clock.increment": increment,
                  "name": f"load {self.number}"})
        if status != 200:
            raise RuntimeError(f"open challenge: {status} {body[:200]!r}")
        data = json.loads(body)
        return data["id"], data["secretWhite"], data["secretBlack"]

    async def play(self, line: list[str]) -> None:
        game_id, white, black = await self.create()
        self.tally.games_started += 1
        sent: dict[int, list[float]] = {}  # ply -> [posted at, streams that saw it, answered at]
        seen: list[dict[int, float]] = [{}, {}]  # each stream: plies -> when it got them
        clocks: dict[int, tuple[int, int]] = {}  # plies -> (wtime, btime) after them
        ready = [asyncio.Event(), asyncio.Event()]
        over = asyncio.Event()
        window = self.plan.window

        async def follow(index: int, token: str) -> None:
            async with self.transport.stream(f"/api/board/game/stream/{game_id}",
                                             token) as lines:
                async for raw in lines:
                    now = time.monotonic()
                    data = json.loads(raw)
                    state = data.get("state", data) if data.get("type") == "gameFull" else data
                    if data.get("type") == "gameFull":
                        ready[index].set()
                    if state.get("type") != "gameState":
                        continue
                    plies = _count_moves(state["moves"])
                    seen[index].setdefault(plies, now)
                    clocks.setdefault(plies, (state["wtime"], state["btime"]))
                    entry = sent.get(plies)
                    if entry is not None:
                        entry[1] += 1
                        if entry[1] == 2 and window[0] <= entry[0] < window[1]:
                            self.tally.round_trips.append(now - entry[0])
                            self.tally.posted.append(entry[0])
                    if state.get("status", "started") not in ("started", "created"):
                        over.set()
                        return

        followers = [asyncio.create_task(follow(0, white)),
                     asyncio.create_task(follow(1, black))]
        try:
            await asyncio.wait_for(asyncio.gather(ready[0].wait(), ready[1].wait()), 30)
            if not self.counted:
                self.counted = True
                with self.plan.started.get_lock():
                    self.plan.started.value += 1
            interval = 1.0 / self.plan.rate
            due = time.monotonic() + self.rng.random() * interval
            for ply, move in enumerate(line, 1):
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                if over.is_set() or time.monotonic() >= window[1]:
                    break
                token = white if ply % 2 else black
                posted = time.monotonic()
                sent[ply] = [posted, 0, math.inf]
                status, _, _ = await self.moves.request(
                    "POST", f"/api/board/game/{game_id}/move/{move}", token)
                done = time.monotonic()
                if status != 200:
                    self.tally.error(f"move {status}")
                    break
                sent[ply][2] = done
                if window[0] <= posted < window[1]:
                    self.tally.acks.append(done - posted)
                    self.tally.moves += 1
                due += interval  # each bot keeps its own phase: a late answer does not
                if due < done:  # line bots up behind a stall (they would move in bursts)
                    due += math.ceil((done - due) / interval) * interval
            if not over.is_set() and time.monotonic() < window[1]:
                token = white if (len(sent) + 1) % 2 else black
                await self.moves.request("POST", f"/api/board/game/{game_id}/resign", token)
                await asyncio.wait_for(over.wait(), 10)
            if over.is_set():
                self.tally.games_ended += 1
        finally:
            for task in followers:
                task.cancel()
            for failed in await asyncio.gather(*followers, return_exceptions=True):
                if isinstance(failed, MISTAKES):
                    raise failed
                if isinstance(failed, Exception):
                    self.tally.error(f"stream {type(failed).__name__}: {str(failed)[:60]}")
            self.overcharged(sent, seen, clocks)

    def overcharged(self, sent: dict[int, list[float]], seen: list[dict[int, float]],
                    clocks: dict[int, tuple[int, int]]) -> None:
        """Each measured move's charge beyond its thinking time (from the third ply: both
        clocks run from Black's first move online)."""
        window, increment = self.plan.window, self.plan.control[1] * 1000
        for ply, (posted, *_) in sent.items():
            side = 0 if ply % 2 else 1
            got = seen[side].get(ply - 1)
            if ply < 3 or got is None or ply not in clocks or ply - 2 not in clocks \
                    or not window[0] <= posted < window[1]:
                continue
            charged = clocks[ply - 2][side] - clocks[ply][side] + increment
            self.tally.overcharges.append(charged - (posted - got) * 1000)
            before, done = sent.get(ply - 1), sent[ply][2]
            if before is not None and done < math.inf:
                self.tally.beyond_exchange.append(charged - (done - before[0]) * 1000)


async def _client_main(plan: Plan) -> Tally:
    tally = Tally(plan.url)
    shared: Transport | None = None
    if plan.client == "httpx":
        shared = HttpxTransport(plan.url, plan.games)
    rng = random.Random(plan.seed)
    bots = []
    own: list[Transport] = []
    for number in range(plan.games):
        if shared is None:
            moves = RawConnection.to(plan.url)
            own.append(moves)
            bots.append(Bot(plan, tally, moves, moves, number, random.Random(rng.random())))
        else:
            bots.append(Bot(plan, tally, shared, shared, number, random.Random(rng.random())))
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    while plan.window[0] == math.inf:
        await asyncio.sleep(0.1)
    await asyncio.sleep(max(0.0, plan.window[0] - time.monotonic()))
    cpu = time.process_time()
    await asyncio.sleep(max(0.0, plan.window[1] - time.monotonic()))
    tally.cpu = time.process_time() - cpu
    await asyncio.wait(tasks, timeout=5)
    for task in tasks:
        task.cancel()
    for failed in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(failed, MISTAKES):
            raise failed
    for transport in own:
        await transport.close()
    if shared is not None:
        await shared.close()
    return tally


def client_process(plan: Plan, out: Any) -> None:
    """A client process: its share of the games on one event loop; the tally to ``out``."""
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    out.put(asyncio.run(_client_main(plan)))


# -- the server ---------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def server(extra: list[str], wrap: list[str]) -> Iterator[tuple[str, int, Path]]:
    """``chessarbiter serve`` on a free port of 127.0.0.1 with a temporary database, its
    command behind ``wrap`` (e.g. a profiler's ``py-spy record -o FILE --``): its URL, the
    server's process id (stopped at the end) and the file its output goes to."""
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="load-server-") as folder:
        command = [*wrap, sys.executable, "-m", "chessarbiter.cli.main", "serve", "--host",
                   "127.0.0.1", "--port", str(port), "--db", str(Path(folder) / "games.sqlite"),
                   *extra]
        environ = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        log = open(Path(folder) / "server.log", "wb")  # noqa: SIM115 - closed below
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=environ)
        child = process.pid
        try:
            url = f"http://127.0.0.1:{port}"
            wait_ready(port, process)
            child = _python(process.pid) if wrap else process.pid
            yield url, child, Path(folder) / "server.log"
        finally:
            process.send_signal(signal.SIGINT)  # as Ctrl-C: a profiler writes its file
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            if child != process.pid:  # the server behind a wrapper outlives it
                with contextlib.suppress(ProcessLookupError):
                    os.kill(child, signal.SIGKILL)
            log.close()
            if process.returncode not in (0, 130, -signal.SIGINT, -signal.SIGKILL):  # 130: Ctrl-C
                sys.stderr.write((Path(folder) / "server.log").read_text()[-3000:])


def wait_ready(port: int, process: subprocess.Popen[bytes], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited ({process.returncode}) before listening")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.1)
    raise SystemExit(f"the server did not listen on port {port} within {seconds} s")


def _python(pid: int) -> int:
    """The server process under a wrapper process ``pid`` (its first child)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return int(children[0]) if children else pid


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far."""
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / TICK


SERVICES: Final = {"postgres": "PostgreSQL", "redis-server": "Redis"}
"""The database services' process names (``/proc/PID/comm``) and how the report names them."""


def services_cpu() -> dict[str, float]:
    """The CPU seconds so far of the processes of each of :data:`SERVICES` (every
    PostgreSQL backend and Redis), by service; a process gone meanwhile is not counted."""
    found = dict.fromkeys(SERVICES.values(), 0.0)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            name = SERVICES.get((entry / "comm").read_text().strip())
            if name is not None:
                found[name] += cpu_seconds(int(entry.name))
        except OSError:  # gone meanwhile
            continue
    return found


SLOW_COMMIT = re.compile(rb"the store took up to (\d+) ms to commit \((\d+) commits over "
                         rb"\d+ ms, (\d+) events\)")
"""The server's warning of a slow commit (``chessarbiter.server.games.db``)."""
LATE_LOOP = re.compile(rb"the event loop ran up to (\d+) ms late \((\d+) times")
"""The server's warning of a late event loop (``chessarbiter.server.http.share``)."""


def told(log: Path, start: int) -> dict[str, dict[str, int]]:
    """What the server's output ``log`` tells from byte ``start`` on: its slow commits (how
    many, the slowest in ms, the events they held back) and its late event loop (how many
    late timers, the latest in ms)."""
    with log.open("rb") as out:
        out.seek(start)
        text = out.read()
    commits = [(int(ms), int(n), int(events)) for ms, n, events in SLOW_COMMIT.findall(text)]
    late = [(int(ms), int(n)) for ms, n in LATE_LOOP.findall(text)]
    return {
        "slow_commits": {"n": sum(n for _, n, _ in commits),
                         "max_ms": max((ms for ms, _, _ in commits), default=0),
                         "events": sum(events for _, _, events in commits)},
        "late_loop": {"n": sum(n for _, n in late), "max_ms": max((ms for ms, _ in late),
                                                                   default=0)},
    }


def machine_busy() -> tuple[float, float, float, float]:
    """The machine's busy and total CPU seconds so far, over all its cores
    (``/proc/stat``): everything counted, the clients, the neighbour, the server's pairing
    process, PostgreSQL and Redis; and of the busy seconds, those of the kernel's
    interrupts (``softirq``: the loopback network's packets) and those the hypervisor gave
    to others (``steal``: a virtual machine's neighbours, which no process here sees)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return ((sum(fields) - idle) / TICK, sum(fields) / TICK, fields[6] / TICK,
            fields[7] / TICK)


# -- the run ------------------------------------------------------------------------------------


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(args: argparse.Namespace, url: str | list[str], pids: list[int],
        log: Path | None = None) -> dict[str, Any]:
    """The load run; with several URLs (a cluster's processes) the client processes take
    them in turn. The CPU time of the server processes ``pids`` (in the order of the URLs)
    is measured over the window: in all per move, and each process's per move it served;
    from the server's output ``log``, the store's slow commits it reported in the window."""
    urls = [url] if isinstance(url, str) else url
    lines = [line[:args.plies or None] for line in load_lines(max(200, args.games))]
    start = time.monotonic() + 1.0
    context = multiprocessing.get_context("spawn")
    window = context.RawArray("d", [math.inf, math.inf])
    started = context.Value("i", 0)
    ready = context.Value("i", 0 if args.neighbour else 1)  # the neighbour's tournaments made
    out = context.Queue()
    shares = [args.games // args.procs + (i < args.games % args.procs)
              for i in range(args.procs)]
    procs = []
    for index, share in enumerate(shares):
        plan = Plan(urls[index % len(urls)], share, args.rate, start, window, started,
                    args.client, lines, (args.limit, args.increment), args.seed + index)
        proc = context.Process(target=client_process, args=(plan, out))
        proc.start()
        procs.append(proc)
    neighbour, neighbour_out = None, context.Queue()
    if args.neighbour:
        players = [int(n) for n in args.neighbour_players.split(",") if n.strip()]
        neighbour = context.Process(target=neighbour_process, args=(NeighbourPlan(
            urls[0], players, args.neighbour_readers, args.spammers, window, args.seed,
            ready, args.neighbour_rounds, args.engine_games, args.engine_level),
            neighbour_out))
        neighbour.start()
    ramp_end = time.monotonic() + args.ramp
    while (started.value < args.games or not ready.value) and time.monotonic() < ramp_end:
        time.sleep(0.1)  # every game created and in play (and the neighbour ready) first
    ramp = time.monotonic() - start
    window[1] = time.monotonic() + args.warmup + args.seconds
    window[0] = window[1] - args.seconds
    load_before = os.getloadavg()
    time.sleep(max(0.0, window[0] - time.monotonic()))
    cpu_before = [cpu_seconds(pid) for pid in pids]
    neighbour_pid = neighbour.pid if neighbour is not None else None
    neighbour_cpu = -cpu_seconds(neighbour_pid) if neighbour_pid else 0.0
    busy_before = machine_busy()
    services_before = services_cpu()
    log_from = log.stat().st_size if log is not None else 0
    time.sleep(max(0.0, window[1] - time.monotonic()))
    warnings = told(log, log_from) if log is not None else None
    services = {name: cpu - services_before.get(name, 0.0)
                for name, cpu in services_cpu().items()}
    cpus = [cpu_seconds(pid) - before for pid, before in zip(pids, cpu_before, strict=True)]
    neighbour_cpu += cpu_seconds(neighbour_pid) if neighbour_pid else 0.0
    busy_after = machine_busy()
    total = busy_after[1] - busy_before[1]
    busy, softirq, steal = ((busy_after[i] - busy_before[i]) / total for i in (0, 2, 3))
    server_cpu = sum(cpus)
    load_after = os.getloadavg()
    tallies: list[Tally] = [out.get(timeout=120) for _ in procs]
    for proc in procs:
        proc.join(30)
    neighbourly = None
    if neighbour is not None:
        neighbourly = summary(neighbour_out.get(timeout=600), neighbour_cpu, args.seconds)
        neighbour.join(30)
    served = [sum(tally.moves for tally in tallies if tally.url == url) for url in urls]
    trips = [t for tally in tallies for t in tally.round_trips]
    over = [t for tally in tallies for t in tally.overcharges]
    beyond = [t for tally in tallies for t in tally.beyond_exchange]
    acks = [t for tally in tallies for t in tally.acks]
    moves = sum(tally.moves for tally in tallies)
    errors: dict[str, int] = {}
    for tally in tallies:
        for key, value in tally.errors.items():
            errors[key] = errors.get(key, 0) + value

    timeline: dict[int, list[float]] = {}  # second of the window -> its round trips
    for tally in tallies:
        for posted, trip in zip(tally.posted, tally.round_trips, strict=True):
            timeline.setdefault(int(posted - window[0]), []).append(trip * 1e3)

    def per_move(cpu: float) -> float:
        return cpu / moves * 1e6 if moves else float("nan")

    return {
        "games": args.games, "rate": args.rate, "seconds": args.seconds, "client": args.client,
        "ramp_s": ramp, "in_play_at_start": started.value,
        "procs": args.procs, "moves": moves, "moves_per_s": moves / args.seconds,
        "round_trip_ms": {"p50": _pct(trips, 0.5) * 1e3, "p99": _pct(trips, 0.99) * 1e3,
                          "max": _pct(trips, 1.0) * 1e3, "n": len(trips)},
        "ack_ms": {"p50": _pct(acks, 0.5) * 1e3, "p99": _pct(acks, 0.99) * 1e3,
                   "max": _pct(acks, 1.0) * 1e3},
        "overcharge_ms": {"p50": _pct(over, 0.5), "p99": _pct(over, 0.99),
                          "max": _pct(over, 1.0), "n": len(over)},
        "beyond_exchange_ms": {"max": _pct(beyond, 1.0), "n": len(beyond),
                               "over": sum(1 for t in beyond if t > 0)},
        "server_cpu_us_per_move": per_move(server_cpu) if pids else None,
        "server_cpu_share": server_cpu / args.seconds if pids else None,
        "server_cpu_us_per_move_each": [cpu / count * 1e6 if count else float("nan")
                                        for cpu, count in zip(cpus, served, strict=False)],
        "client_cpu_us_per_move": per_move(sum(t.cpu for t in tallies)),
        "services_cpu_us_per_move": {name: per_move(cpu) for name, cpu in services.items()},
        "services_cpu_share": {name: cpu / args.seconds for name, cpu in services.items()},
        "games_started": sum(t.games_started for t in tallies),
        "games_ended": sum(t.games_ended for t in tallies),
        "errors": errors,
        "loadavg_before": load_before, "loadavg_after": load_after,
        "machine_busy": busy, "machine_softirq": softirq, "machine_steal": steal,
        "cores": os.cpu_count(), "told": warnings,
        "neighbour": neighbourly,
        "timeline": [{"second": second, "n": len(trips), "p50": _pct(trips, 0.5),
                      "p99": _pct(trips, 0.99), "max": max(trips)}
                     for second, trips in sorted(timeline.items())],
    }


def report(result: dict[str, Any], timeline: bool = False) -> str:
    trip, ack, over = result["round_trip_ms"], result["ack_ms"], result["overcharge_ms"]
    lines = [
        f"{result['games']} games at {result['rate']} move/s each, {result['seconds']} s "
        f"measured, {result['client']} clients in {result['procs']} process(es)",
        f"moves: {result['moves']} ({result['moves_per_s']:.0f}/s); games started "
        f"{result['games_started']}, ended {result['games_ended']}; errors {result['errors']}",
        f"creating the games: {result['ramp_s']:.1f} s ({result['in_play_at_start']} in play "
        "when measuring began)",
        f"round trip (POST -> both streams): p50 {trip['p50']:.1f} ms, p99 {trip['p99']:.1f} ms,"
        f" max {trip['max']:.1f} ms ({trip['n']} samples)",
        f"acknowledgement (POST -> 200): p50 {ack['p50']:.1f} ms, p99 {ack['p99']:.1f} ms",
        f"clock charged beyond the client's thinking: p50 {over['p50']:.0f} ms, p99 "
        f"{over['p99']:.0f} ms, max {over['max']:.0f} ms ({over['n']} moves; the lag "
        "compensation gives up to 300 ms back)",
        f"clock charged beyond the whole exchange (the opponent's POST to this move's 200): "
        f"max {result['beyond_exchange_ms']['max']:.0f} ms, "
        f"{result['beyond_exchange_ms']['over']} of {result['beyond_exchange_ms']['n']} moves "
        "over 0",
    ]
    if result["server_cpu_us_per_move"] is not None:
        each = result["server_cpu_us_per_move_each"]
        lines.append(f"server CPU: {result['server_cpu_us_per_move']:.0f} us per move "
                     f"({result['server_cpu_share'] * 100:.0f}% of one core)"
                     + ("; " + ", ".join(f"{cpu:.0f}" for cpu in each)
                        + " us per move served by each process"
                        if len(each) > 1 else ""))
    lines.append(f"client CPU: {result['client_cpu_us_per_move']:.0f} us per move")
    lines.append("databases' CPU: " + ", ".join(
        f"{name} {cpu:.0f} us per move ({result['services_cpu_share'][name] * 100:.0f}% of "
        "one core)" for name, cpu in result["services_cpu_us_per_move"].items()))
    lines.append(f"load average before/after: {result['loadavg_before'][0]:.2f} / "
                 f"{result['loadavg_after'][0]:.2f}; the machine busy "
                 f"{result['machine_busy'] * 100:.0f}% of its {result['cores']} cores in the "
                 "window (everything: clients, neighbour, databases; of it, the kernel's "
                 f"interrupts {result['machine_softirq'] * 100:.0f}%, stolen by the "
                 f"hypervisor {result['machine_steal'] * 100:.1f}%)")
    warnings = result.get("told")
    if warnings is not None:
        slow, late = warnings["slow_commits"], warnings["late_loop"]
        lines.append(f"the server's warnings in the window: {slow['n']} store commits over "
                     f"{SLOW_COMMIT_S * 1000:.0f} ms" + (
                         f" (the slowest {slow['max_ms']} ms, {slow['events']} events' "
                         "acknowledgements held back)" if slow["n"] else "")
                     + f"; the event loop's timer over {STALL_S * 1000:.0f} ms late "
                     f"{late['n']} times" + (f" (at most {late['max_ms']} ms)"
                                             if late["n"] else ""))
    neighbour = result.get("neighbour")
    if neighbour is not None:
        lines.append("neighbour: pairings " + ", ".join(
            f"{p['players']} players round {p['round']} {p['s']:.1f} s"
            for p in neighbour["pairings"]) + f"; {neighbour['reads']} tournament reads "
            f"(p50 {neighbour['read_ms']['p50']:.0f} ms, p99 "
            f"{neighbour['read_ms']['p99']:.0f} ms); challenges by status "
            f"{neighbour['challenges']}; the engines' moves {neighbour['engine_moves']}; "
            f"errors {neighbour['errors']}; neighbour CPU "
            f"{neighbour['cpu_s']:.1f} s ({neighbour['cpu_share'] * 100:.0f}% of a core)")
    if timeline:
        lines.append("round trips by second of the window (posted): n, p50 / p99 / max ms")
        lines.extend(f"  {t['second']:4d}  {t['n']:5d}  {t['p50']:7.1f} / {t['p99']:7.1f} / "
                     f"{t['max']:7.1f}" for t in result["timeline"])
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="concurrent games (100)")
    parser.add_argument("--seconds", type=float, default=30, help="measured seconds (30)")
    parser.add_argument("--rate", type=float, default=1.0, help="moves/s per game (1)")
    parser.add_argument("--url", action="append", help="a running server (default: start "
                        "one); repeated: a cluster's processes, one per client process in turn")
    parser.add_argument("--pid", type=int, action="append", default=[],
                        help="with --url: a server's process id, for its CPU (repeatable: "
                        "each process of a cluster)")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    parser.add_argument("--ramp", type=float, default=180,
                        help="at most this many seconds for every game to be in play (180)")
    parser.add_argument("--procs", type=int, default=1, help="client processes (1)")
    parser.add_argument("--client", choices=("raw", "httpx"), default="raw")
    parser.add_argument("--limit", type=int, default=3600, help="clock limit, s (3600)")
    parser.add_argument("--increment", type=int, default=0, help="clock increment, s (0)")
    parser.add_argument("--plies", type=int, default=0,
                        help="play at most this many plies of each line, then resign (all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--timeline", action="store_true", help="also the round trips "
                        "second by second (a stall at one instant, or a queue building up)")
    parser.add_argument("--server-arg", action="append", default=[],
                        help="an argument for `serve` (repeatable)")
    parser.add_argument("--wrap", default="", help="a command prefix for the server, e.g. "
                        "'py-spy record -f raw -o FILE --' to profile it")
    parser.add_argument("--neighbour", action="store_true",
                        help="a noisy neighbour beside the games (bench/noisy_neighbour.py)")
    parser.add_argument("--neighbour-players", default="400,1000",
                        help="its tournaments' sizes, one after the other (400,1000)")
    parser.add_argument("--neighbour-rounds", type=int, default=2,
                        help="rounds of each tournament paired before the next's (2)")
    parser.add_argument("--neighbour-readers", type=int, default=10,
                        help="clients reading its tournament in a loop (10)")
    parser.add_argument("--spammers", type=int, default=100,
                        help="its accounts sending challenges at their rate limit (100)")
    parser.add_argument("--engine-games", type=int, default=0,
                        help="its players each playing the server's built-in engine, "
                        "answering at once (0); e.g. --neighbour --neighbour-players '' "
                        "--neighbour-readers 0 --spammers 0 --engine-games 2: engines alone")
    parser.add_argument("--engine-level", type=int, default=10,
                        help="the engine's level in those games (10)")
    args = parser.parse_args()
    if not 1 <= args.games <= 5000 or not 0 < args.seconds <= 600 or not 0 < args.rate <= 10:
        parser.error("bounds: 1 <= --games <= 5000, 0 < --seconds <= 600, 0 < --rate <= 10")
    if args.url is not None:
        if any(urllib.parse.urlsplit(url).hostname not in ("127.0.0.1", "localhost")
               for url in args.url):
            parser.error("--url: loopback only (127.0.0.1)")
        result = run(args, args.url, args.pid)
    else:
        extra = [*args.server_arg, *(["--open-registration"] if args.neighbour else [])]
        with server(extra, shlex.split(args.wrap)) as (url, pid, log):
            result = run(args, url, [pid], log)
    print(json.dumps(result, indent=1) if args.json else report(result, args.timeline))


if __name__ == "__main__":
    main()
