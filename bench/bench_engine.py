"""The built-in engine's speed and strength (issue: engines).

Speed: ``.venv/bin/python bench/bench_engine.py nps [--seconds 3] [--rounds 1]`` searches a few
positions in turn with the built-in engine and with Debian's Stockfish (one thread, 16 MB
hash), for the same time each, and prints both engines' nodes per CPU second and the ratio.

Strength: ``.venv/bin/python bench/bench_engine.py match --opponent OPP --games N
[--level L] [--tc 10+0.1]`` plays a small match against ``random``, ``sf-elo:1350``
(Stockfish with ``UCI_LimitStrength``) or ``sf-skill:0`` (Stockfish ``Skill Level``), from
short openings played with both colours, on real clocks. Games end at checkmate,
stalemate, the 50-move rule, threefold repetition, insufficient material, a flag fall, an
engine failure or the move cap (a draw). A minimal loop: the arbiter does this properly.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import shutil
import subprocess
import time
from pathlib import Path
from typing import Protocol

from chessarbiter.clock import BonusMode, parse_human
from chessarbiter.core.fen import parse_fen
from chessarbiter.core.moves import Move
from chessarbiter.core.position import Position
from chessarbiter.engines import BuiltinEngine, Limits, Searcher, budget
from chessarbiter.engines.evaluation import insufficient_material
from chessarbiter.engines.uci_client import ClockTimes, EngineFailure, EngineMove, UciEngine

POSITIONS = (
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 3 8",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
)
OPENINGS = ("e2e4 e7e5", "d2d4 d7d5", "e2e4 c7c5", "c2c4 e7e5", "g1f3 d7d5", "e2e4 e7e6",
            "d2d4 g8f6", "e2e4 c7c6", "b1c3 d7d5", "e2e4 d7d6")
MOVE_CAP = 400


class Player(Protocol):
    name: str

    def move(self, pos: Position, clock: ClockTimes) -> Move | EngineFailure: ...

    def close(self) -> None: ...


class Builtin:
    def __init__(self, level: int) -> None:
        self.engine = BuiltinEngine(level=level)
        self.name = f"chessarbiter level {level}"

    def move(self, pos: Position, clock: ClockTimes) -> Move | EngineFailure:
        mine, inc = (clock.wtime, clock.winc) if pos.turn == 0 else (clock.btime, clock.binc)
        mode = BonusMode.INCREMENT if inc else BonusMode.NONE
        move = self.engine.play(pos, budget(max(mine, 0), mode, inc))
        return move if move is not None else EngineFailure("illegal", "no move")

    def close(self) -> None:
        pass


class RandomMover:
    name = "random mover"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def move(self, pos: Position, clock: ClockTimes) -> Move | EngineFailure:
        return self.rng.choice(pos.legal_moves())

    def close(self) -> None:
        pass


class External:
    def __init__(self, engine: UciEngine, name: str) -> None:
        self.engine = engine
        self.name = name

    def move(self, pos: Position, clock: ClockTimes) -> Move | EngineFailure:
        outcome = self.engine.play(pos, clock)
        return outcome.move if isinstance(outcome, EngineMove) else outcome

    def close(self) -> None:
        self.engine.close()


def stockfish(spec: str, path: str) -> External:
    kind, _, value = spec.partition(":")
    options: dict[str, str | int | bool] = {"Threads": 1, "Hash": 16}
    if kind == "sf-elo":
        options.update({"UCI_LimitStrength": True, "UCI_Elo": int(value)})
    elif kind == "sf-skill":
        options["Skill Level"] = int(value)
    else:
        raise SystemExit(f"unknown opponent {spec!r}: expected random, sf-elo:N or sf-skill:N")
    engine = UciEngine.start([path], options=options)
    if isinstance(engine, EngineFailure):
        raise SystemExit(f"cannot start {path}: {engine.detail}")
    return External(engine, f"Stockfish {spec}")


def play_game(white: Player, black: Player, opening: str, base_ms: int, inc_ms: int) -> (
    tuple[float, str]
):
    """White's score (1, 0.5, 0) and why the game ended."""
    pos = Position()
    for text in opening.split():
        pos.push_uci(text)
    times = [base_ms, base_ms]
    seen: dict[int, int] = {}
    while True:
        key = pos.key()
        seen[key] = seen.get(key, 0) + 1
        if not pos.legal_moves():
            return (0.5, "stalemate") if not pos.is_check() else (
                float(pos.turn), "checkmate")
        if seen[key] >= 3:
            return 0.5, "threefold repetition"
        if pos.halfmove_clock >= 100:
            return 0.5, "50-move rule"
        if insufficient_material(pos):
            return 0.5, "insufficient material"
        if len(pos.move_stack) >= MOVE_CAP:
            return 0.5, "move cap"
        player = white if pos.turn == 0 else black
        clock = ClockTimes(times[0], times[1], inc_ms, inc_ms)
        started = time.monotonic()
        outcome = player.move(pos, clock)
        used = int((time.monotonic() - started) * 1000)
        if isinstance(outcome, EngineFailure):
            return float(pos.turn), f"{player.name}: {outcome.kind}: {outcome.detail}"
        times[pos.turn] -= used
        if times[pos.turn] < 0:
            return float(pos.turn), f"{player.name} lost on time"
        times[pos.turn] += inc_ms
        pos.push(outcome)


def elo(score: float, games: int) -> str:
    p = score / games
    if p <= 0 or p >= 1:
        return "unbounded"
    return f"{-400 * math.log10(1 / p - 1):+.0f}"


def match(args: argparse.Namespace) -> None:
    control = parse_human(args.tc)
    period = control.periods[0]
    base, inc = period.time_ms, period.bonus_ms
    ours = Builtin(args.level)
    if args.opponent == "random":
        theirs: Player = RandomMover(seed=1)
    else:
        path = args.stockfish or shutil.which("stockfish") or shutil.which(
            "stockfish", path="/usr/games")
        if path is None:
            raise SystemExit("stockfish not found (Debian: apt-get install stockfish)")
        theirs = stockfish(args.opponent, path)
    score = 0.0
    try:
        for game in range(args.games):
            opening = OPENINGS[(game // 2) % len(OPENINGS)]
            we_are_white = game % 2 == 0
            white, black = (ours, theirs) if we_are_white else (theirs, ours)
            ours.engine.new_game()
            white_score, reason = play_game(white, black, opening, base, inc)
            ours_score = white_score if we_are_white else 1 - white_score
            score += ours_score
            print(f"game {game + 1}: {white.name} - {black.name} ({opening}): "
                  f"{white_score:g}-{1 - white_score:g}, {reason}", flush=True)
    finally:
        theirs.close()
    print(f"{ours.name} vs {theirs.name}, {args.games} games at {args.tc}: "
          f"{score:g}/{args.games} ({100 * score / args.games:.0f}%), "
          f"Elo difference {elo(score, args.games)}")


def _cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user and system), from ``/proc`` (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stockfish_nps(path: str, fen: str, seconds: float) -> tuple[int, float]:
    """Stockfish's nodes on ``fen`` in ``seconds`` (one thread, 16 MB hash) and the CPU
    seconds its search took."""
    proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None

    def say(line: str, until: str) -> list[str]:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        lines = []
        for answer in proc.stdout:
            lines.append(answer.strip())
            if answer.startswith(until):
                return lines
        raise SystemExit(f"{path} ended before {until!r}")

    say("uci", "uciok")
    say("setoption name Threads value 1\nsetoption name Hash value 16\nisready", "readyok")
    say(f"position fen {fen}\nisready", "readyok")
    before = _cpu_seconds(proc.pid)
    lines = say(f"go movetime {int(seconds * 1000)}", "bestmove")
    cpu = _cpu_seconds(proc.pid) - before
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait(10)
    nodes = 0
    for line in lines:
        words = line.split()
        if "nodes" in words:
            nodes = int(words[words.index("nodes") + 1])
    return nodes, cpu


def nps(args: argparse.Namespace) -> None:
    """Nodes per CPU second of the built-in engine and of Stockfish on the same positions,
    searched in turn for the same time each, and the ratio. CPU time, not wall time: on a
    shared machine the wall time is mostly time spent waiting for a core."""
    path = args.stockfish or shutil.which("stockfish") or shutil.which(
        "stockfish", path="/usr/games")
    ours_nodes = theirs_nodes = 0
    ours_s = theirs_s = 0.0
    print(f"{'position':<66} {'ours n/s':>9} {'stockfish n/s':>14} {'ratio':>7}")
    for _ in range(args.rounds):
        for fen in POSITIONS:
            searcher = Searcher()
            started = time.process_time()
            result = searcher.search(parse_fen(fen), Limits(
                soft_ms=2_000_000, hard_ms=int(args.seconds * 1000)))
            elapsed = time.process_time() - started
            ours_nodes += result.nodes
            ours_s += elapsed
            ours = result.nodes / elapsed
            line = f"{fen:<66} {ours:>9,.0f}"
            if path is not None:
                nodes, cpu = stockfish_nps(path, fen, args.seconds)
                theirs_nodes += nodes
                theirs_s += cpu
                speed = nodes / cpu if cpu else 0.0
                line += f" {speed:>14,.0f} {ours / speed if speed else 0:>7.3f}"
            print(line, flush=True)
    ours_total = ours_nodes / ours_s
    print(f"built-in engine: {ours_nodes:,} nodes in {ours_s:.1f} CPU s, {ours_total:,.0f} "
          f"nodes/s ({'compiled' if not searcher_module_is_source() else 'pure Python'})")
    if path is None:
        print("stockfish not found (Debian: apt-get install stockfish): no comparison")
        return
    theirs_total = theirs_nodes / theirs_s if theirs_s else 0.0
    print(f"stockfish ({path}, 1 thread): {theirs_nodes:,} nodes in {theirs_s:.1f} CPU s, "
          f"{theirs_total:,.0f} nodes/s")
    print(f"ratio: {ours_total / theirs_total:.3f}x")


def searcher_module_is_source() -> bool:
    """Whether the engine's search runs from its Python source (not a compiled module)."""
    from chessarbiter.engines import search

    return str(search.__file__).endswith(".py")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    speed = sub.add_parser("nps", help="nodes per second beside Stockfish's")
    speed.add_argument("--seconds", type=float, default=3.0, help="per position (default 3)")
    speed.add_argument("--rounds", type=int, default=1, help="times over the positions")
    speed.add_argument("--stockfish", help="path of the stockfish binary")
    speed.set_defaults(func=nps)
    games = sub.add_parser("match", help="a small match against an opponent")
    games.add_argument("--opponent", default="random",
                       help="random, sf-elo:N (N >= 1350) or sf-skill:N (0-20)")
    games.add_argument("--games", type=int, default=10)
    games.add_argument("--level", type=int, default=10)
    games.add_argument("--tc", default="10+0.1", help="minutes+seconds (default 10+0.1)")
    games.add_argument("--stockfish", help="path of the stockfish binary")
    games.set_defaults(func=match)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
