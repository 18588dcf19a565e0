"""A tournament read while its director enters results (issue 24): readers must not hold up
the director, nor the director the readers.

Run: ``.venv/bin/python bench/tournament_reads.py [--players 1000] [--readers 10]
[--seconds 10] [--json]``. Starts ``chessarbiter serve --open-registration`` as
``load_server.py`` does (a temporary SQLite database), creates a Swiss tournament of
``--players`` players through the API and pairs round 1, then for ``--seconds``:
``--readers`` clients read the tournament (``GET /api/tournament/ID``: players, pairings,
standings, crosstable) in a loop while the director enters the round's results one by one
(each a new version of the tournament, rendered again in the pairing process). Prints the
results entered, the reads and their p50 / p99 time, and the server's CPU over the window.
Every client is a keep-alive connection of ``rawhttp``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from typing import Any

from load_server import _pct, cpu_seconds, server
from rawhttp import RawConnection, post_ok

LONG = 600.0
"""Seconds a request may take (a rendering or a pairing of many players)."""


async def measure(url: str, pid: int, players: int, readers: int, seconds: float
                  ) -> dict[str, Any]:
    director = RawConnection.to(url)
    token = (await post_ok(director, "/api/register", form={"username": "director"}))["token"]
    made = await post_ok(director, "/api/tournament/new", token,
                       form={"name": "reads", "system": "swiss", "rounds": "9"})
    number = made["id"]
    for n in range(players):
        await post_ok(director, f"/api/tournament/{number}/player", token,
                    form={"name": f"Player {n:04d}", "rating": str(1000 + 7 * n % 1500)})
    paired = await post_ok(director, f"/api/tournament/{number}/pair", token, timeout=LONG)
    boards = len(paired["boards"])
    end = time.monotonic() + seconds
    reads: list[float] = []
    entered = 0

    async def read() -> None:
        client = RawConnection.to(url)
        try:
            while time.monotonic() < end:
                began = time.monotonic()
                answer = await client.request("GET", f"/api/tournament/{number}",
                                              timeout=LONG)
                if answer.status != 200:
                    raise SystemExit(f"read: {answer.status} {answer.body[:200]!r}")
                reads.append(time.monotonic() - began)
        finally:
            await client.close()

    async def direct() -> None:
        nonlocal entered
        for board in range(1, boards + 1):
            if time.monotonic() >= end:
                return
            await post_ok(director, f"/api/tournament/{number}/result", token,
                        form={"round": "1", "board": str(board), "result": "1-0"})
            entered += 1

    cpu = cpu_seconds(pid)
    began = time.monotonic()
    await asyncio.gather(direct(), *(read() for _ in range(readers)))
    elapsed = time.monotonic() - began
    cpu = cpu_seconds(pid) - cpu
    await director.close()
    return {"players": players, "readers": readers, "seconds": elapsed, "boards": boards,
            "entered": entered, "reads": len(reads),
            "read_ms": {"p50": _pct(reads, 0.5) * 1e3, "p99": _pct(reads, 0.99) * 1e3},
            "server_cpu_share": cpu / elapsed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1_000)
    parser.add_argument("--readers", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if not 2 <= args.players <= 5_000 or not 0 < args.seconds <= 600 or args.readers < 0:
        parser.error("bounds: 2 <= --players <= 5000, 0 < --seconds <= 600, --readers >= 0")
    with server(["--open-registration"], []) as (url, pid, _):
        try:
            result = asyncio.run(measure(url, pid, args.players, args.readers, args.seconds))
        except RuntimeError as exc:  # a request the server refused
            raise SystemExit(f"tournament_reads: {exc}") from None
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(f"{result['players']} players, {result['readers']} readers, "
          f"{result['seconds']:.1f} s: the director entered {result['entered']} of "
          f"{result['boards']} results; {result['reads']} reads "
          f"({result['reads'] / result['seconds']:.0f}/s), p50 {result['read_ms']['p50']:.1f} "
          f"ms, p99 {result['read_ms']['p99']:.1f} ms; server CPU "
          f"{result['server_cpu_share'] * 100:.0f}% of a core")


if __name__ == "__main__":
    main()
