"""Fit the full mode's schedule of searches (``api.SCHEDULE``) to measured needs.

Run, after ``bench_deadpos.py --sample --rows ROWS``:

* ``.venv/bin/python bench/deadpos_schedule.py measure ROWS NEEDS [--budget N] [--slowest S]
  [--below S]``: for each position and side of ``ROWS`` (those that took at least
  ``--slowest`` seconds and less than ``--below``),
  the stages before the schedule, timed, and when they do not decide, each search alone with
  ``--budget`` nodes: the nodes the guided search, the best-first search and the exploration
  need to decide (none: never within the budget), the staged search at five budgets (it
  spends its budget in stages, so its need is not one number), and each one's CPU time per
  node. One JSON line per position and side.
* ``.venv/bin/python bench/deadpos_schedule.py fit ROWS NEEDS... [--speed SEARCH=X]
  [--iterations N]``: replays those needs under ``api.SCHEDULE`` the way ``api._full`` spends
  the budget (each verdict counted as often as ``ROWS`` holds it; ``--speed explore=1.7``
  makes that search's nodes 1.7 times cheaper), prints the simulated p99, the verdicts over
  one second and the undetermined ones, then climbs from it (one random change at a time:
  a share, a search, a turn added, dropped or swapped, kept when the p99 does not grow and
  no more verdicts are undetermined) and prints the best schedule found.

The model is what the schedule does, not a second solver: it answers only from the needs
measured, so a schedule it suggests must be measured again with ``bench_deadpos.py``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.position import Position
from chessarbiter.laws.deadpos import api
from chessarbiter.laws.deadpos.deadline import Deadline
from chessarbiter.laws.deadpos.forced import play_forced_moves
from chessarbiter.laws.deadpos.promote import StagedSearch
from chessarbiter.laws.deadpos.strategy import Found, Spent, has_piece
from chessarbiter.laws.deadpos.verdict import Winnability

NEVER = 10**12
"""A need no budget meets."""
STAGED_BUDGETS = (6_250, 12_500, 25_000, 50_000, 100_000)
SEARCHES = (api.GUIDED, api.BEST_FIRST, api.EXPLORED, api.STAGED)
Schedule = tuple[tuple[str, int], ...]
Need = dict[str, Any]


def _position(fen: str) -> Position:
    fields = fen.split()
    fields += ["-"] * (4 - len(fields))
    return parse_fen(" ".join(fields), lenient=True)


def measure(
    rows: list[dict[str, Any]], budget: int, slowest: float, below: float = float("inf")
) -> list[Need]:
    """Each search's needs, alone, for every position and side of ``rows`` that took from
    ``slowest`` to ``below`` seconds."""
    clock = time.process_time
    out: list[Need] = []
    done: set[tuple[str, int]] = set()
    for row in rows:
        case = (row["fen"], row["side"])
        if not slowest <= row["seconds"] < below or case in done:
            continue
        done.add(case)
        pos, side = _position(row["fen"]), row["side"]
        saved = api.SCHEDULE
        api.SCHEDULE = ()  # type: ignore[misc,assignment]  # the stages before the schedule, alone
        began = clock()
        verdict = api.can_checkmate(pos, side, "full")
        need: Need = {"fen": row["fen"], "side": side, "prefix": clock() - began,
                      "decided": verdict.outcome is not Winnability.UNDETERMINED}
        api.SCHEDULE = saved  # type: ignore[misc]
        if not need["decided"]:
            need.update(_alone(pos, side, budget))
        out.append(need)
        print(json.dumps(need), flush=True)
    return out


def _alone(pos: Position, side: int, budget: int) -> Need:
    """Each search's needs from ``pos`` (forced moves played), and its CPU time per node."""
    clock = time.process_time
    work = Position.from_snapshot(pos.snapshot())
    play_forced_moves(work)
    need: Need = {"has_piece": has_piece(work, side)}
    wanted = [api.GUIDED, api.BEST_FIRST if need["has_piece"] else api.STAGED, api.EXPLORED]
    for name in wanted:
        if name == api.STAGED:
            staged = {}
            for nodes in STAGED_BUDGETS:
                began = clock()
                outcome = StagedSearch(work, side).run(nodes)
                used = outcome.nodes
                staged[nodes] = (isinstance(outcome, Found), used, (clock() - began) / max(used, 1))
            need[name] = staged
            continue
        began = clock()
        outcome = api.SEARCHES[name](work, side).run(budget, Deadline())
        used = outcome.nodes
        need[name] = (NEVER if isinstance(outcome, Spent) else used,
                      (clock() - began) / max(used, 1))
    return need


def simulate(
    need: Need, schedule: Schedule, nodes: int, speed: dict[str, float]
) -> tuple[bool, float]:
    """Whether the verdict is decided under ``schedule`` and its CPU seconds, spending the
    budget as ``api._full`` does."""
    if need["decided"]:
        return True, float(need["prefix"])
    spent = float(need["prefix"])
    others, seen, best_first = 0, 1, 1
    for stage, share in schedule:
        left = nodes - others - (seen - 1)
        if stage == api.EXPLORED:
            wanted, cost = need[stage]
            cost /= speed.get(stage, 1.0)
            cap = min(nodes // share, nodes - others)
            if wanted <= cap:
                return True, spent + (wanted - seen) * cost
            if cap > seen:
                spent += (cap - seen) * cost
                seen = cap
            continue
        if stage == "best-first search":
            if not need["has_piece"]:
                continue
            wanted, cost = need[stage]
            cost /= speed.get(stage, 1.0)
            target = min(nodes // share, best_first + left)
            if wanted <= target:
                return True, spent + (wanted - best_first) * cost
            used = max(0, target - best_first)
            best_first = max(best_first, target)
        elif stage == "staged search":
            if need["has_piece"]:
                continue
            allowed = min(nodes // share, left)
            measured = min(need[stage], key=lambda b: abs(int(b) - allowed))
            found, used, cost = need[stage][measured]
            used = min(used, allowed)
            cost /= speed.get(stage, 1.0)
            if found and int(measured) <= allowed:
                return True, spent + used * cost
        else:
            wanted, cost = need[stage]
            cost /= speed.get(stage, 1.0)
            allowed = min(nodes // share, left)
            if wanted <= allowed:
                return True, spent + wanted * cost
            used = allowed
        spent += used * cost
        others += used
    return False, spent


def score(
    needs: list[Need], counts: Counter[tuple[str, int]], schedule: Schedule,
    speed: dict[str, float], nodes: int = api.FULL_BUDGET,
) -> tuple[float, int, int]:
    """The simulated p99 (as ``bench_deadpos.py`` takes it), the verdicts over 1 s and the
    undetermined ones, each need counted as often as the sample holds it."""
    times: list[float] = []
    over = undetermined = 0
    for need in needs:
        decided, seconds = simulate(need, schedule, nodes, speed)
        count = counts[(need["fen"], need["side"])]
        times += [seconds] * count
        over += count * (seconds > 1.0)
        undetermined += count * (not decided)
    total = sum(counts.values())
    times += [0.0] * (total - len(times))
    times.sort()
    return times[min(total - 1, int(total * 0.99))], over, undetermined


def climb(
    needs: list[Need], counts: Counter[tuple[str, int]], start: Schedule,
    speed: dict[str, float], iterations: int, seed: int = 1,
) -> Schedule:
    """The best schedule met by random single changes from ``start``."""
    chance = random.Random(seed)
    shares = (64, 32, 16, 8, 4, 2)
    most = score(needs, counts, start, speed)[2]
    current, best = start, score(needs, counts, start, speed)[0]
    for _ in range(iterations):
        turns = list(current[:-1])
        pick = chance.random()
        at = chance.randrange(len(turns)) if turns else 0
        if pick < 0.3 and turns:
            turns[at] = (turns[at][0], chance.choice(shares))
        elif pick < 0.5 and turns:
            turns[at] = (chance.choice(SEARCHES), turns[at][1])
        elif pick < 0.7 and len(turns) < 12:
            turns.insert(at, (chance.choice(SEARCHES), chance.choice(shares)))
        elif pick < 0.85 and len(turns) > 1:
            turns.pop(at)
        elif len(turns) > 1:
            at = min(at, len(turns) - 2)
            turns[at], turns[at + 1] = turns[at + 1], turns[at]
        candidate = (*turns, (api.EXPLORED, 1))
        p99, _, undetermined = score(needs, counts, candidate, speed)
        if undetermined <= most and p99 <= best:
            current, best = candidate, p99
    return current


def _rows(path: str) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as stream:
        return [json.loads(line) for line in stream if line.strip()]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("measure")
    run.add_argument("rows")
    run.add_argument("needs")
    run.add_argument("--budget", type=int, default=260_000)
    run.add_argument("--slowest", type=float, default=0.0)
    run.add_argument("--below", type=float, default=float("inf"))
    fit = sub.add_parser("fit")
    fit.add_argument("rows")
    fit.add_argument("needs", nargs="+")
    fit.add_argument("--speed", action="append", default=[], metavar="SEARCH=X")
    fit.add_argument("--iterations", type=int, default=1_000)
    fit.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rows = _rows(args.rows)
    if args.command == "measure":
        ordered = sorted(rows, key=lambda row: -row["seconds"])
        needs = measure(ordered, args.budget, args.slowest, args.below)
        with open(args.needs, "w", encoding="utf-8") as stream:
            stream.writelines(json.dumps(need) + "\n" for need in needs)
        return
    first: dict[tuple[str, int], Need] = {}
    for path in args.needs:  # a position measured twice: the first file's needs
        for need in _rows(path):
            first.setdefault((need["fen"], need["side"]), need)
    needs = list(first.values())
    counts = Counter((row["fen"], row["side"]) for row in rows)
    names = {"guided": "guided search", "best-first": "best-first search",
             "explore": api.EXPLORED, "staged": "staged search"}
    speed = {names.get(name, name): float(x)
             for name, x in (item.split("=", 1) for item in args.speed)}
    for need in needs:  # JSON made the staged budgets' keys text
        if "staged search" in need:
            need["staged search"] = {int(k): v for k, v in need["staged search"].items()}
    start: Schedule = tuple(api.SCHEDULE)
    p99, over, undetermined = score(needs, counts, start, speed)
    print(f"today's schedule: p99 {p99:.3f} s, {over} over 1 s, {undetermined} undetermined")
    best = climb(needs, counts, start, speed, args.iterations, args.seed)
    p99, over, undetermined = score(needs, counts, best, speed)
    print(f"best found: p99 {p99:.3f} s, {over} over 1 s, {undetermined} undetermined")
    print(best)


if __name__ == "__main__":
    main()
