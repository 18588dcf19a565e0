"""Self-play between two UCI engines at a fixed number of nodes (or depth, or clock) per move.

``.venv/bin/python bench/selfplay.py --a "CMD" --b "CMD" [--nodes N | --depth
D | --tc 20s+0.2s] [--openings 50] [--plies 8] [--start 0]`` plays engine A against engine
B from the positions after ``--plies`` half-moves of the first distinct games of a PGN file
(default: the corpus' lichess 2017 sample), each opening with both colours, one game at a
time, and prints A's wins, losses and draws, its score and Elo difference with the 95%
margin; ``--pgn FILE`` appends every game (White and Black named A and B, each move with
its ``%emt`` and, on a clock, the mover's ``%clk`` after it) for ``bench/time_profile.py``.
Fixed nodes or depth measure a change of the search or the evaluation whatever the
machine's load; a clock (``--tc``) measures time management, and counts losses on time.

Games end at checkmate, stalemate, threefold repetition, the 50-move rule, insufficient
material, an engine failure or a flag; they are adjudicated when both engines' last three
scores give one side ``--resign`` centipawns or more (a win), when both report at most 10
for eight moves each after move 40 (a draw), or at 300 half-moves (a draw). A minimal loop
for measuring engines: the arbiter judges real games.

To compare a change with the unchanged engine, run each from its own checkout, e.g.
``--a "env PYTHONPATH=src python -m chessarbiter.cli.main uci"`` and ``--b "env
PYTHONPATH=../base/src python -m chessarbiter.cli.main uci"``.
"""

from __future__ import annotations

import argparse
import shlex
import time
from pathlib import Path

from chessarbiter.clock import parse_human
from chessarbiter.core.position import Position
from chessarbiter.engines.evaluation import insufficient_material
from chessarbiter.engines.uci_client import ClockTimes, EngineFailure, UciEngine
from chessarbiter.engines.uci_protocol import read_score
from chessarbiter.notation.game import RecordedGame, RecordedMove
from chessarbiter.notation.pgn_reader import read_pgn_file
from chessarbiter.notation.pgn_writer import write_pgn
from chessarbiter.tournament.elo import Tally

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "pgn"
DEFAULT_PGN = CORPUS / "large" / "lichess_2017-05_sample_clk.pgn"
MAX_PLIES = 300


def openings(path: Path, count: int, plies: int) -> list[Position]:
    """The positions after ``plies`` half-moves of the first ``count`` games reaching
    distinct ones."""
    seen: set[int] = set()
    out: list[Position] = []
    for game in read_pgn_file(path):
        if len(game.moves) < plies + 10 or game.error is not None:
            continue
        pos = game.start_position()
        for record in game.moves[:plies]:
            pos.push(record.move)
        if pos.key() not in seen and pos.legal_moves():
            seen.add(pos.key())
            out.append(pos)
            if len(out) == count:
                break
    return out


def play(engines: tuple[UciEngine, UciEngine], start: Position, args: argparse.Namespace,
         clock: tuple[int, int] | None, record: list[RecordedMove]) -> tuple[float, str]:
    """The score of ``engines[0]`` (white) and why the game ended; each move played is
    appended to ``record`` with its time."""
    pos = start.copy()
    counts: dict[int, int] = {}
    scores: list[list[int]] = [[], []]
    times = [clock[0], clock[0]] if clock else [0, 0]
    for engine in engines:
        engine.new_game()
    while True:
        key = pos.key()
        counts[key] = counts.get(key, 0) + 1
        if not pos.legal_moves():
            return (0.5, "stalemate") if not pos.is_check() else (float(pos.turn), "checkmate")
        if counts[key] >= 3:
            return 0.5, "repetition"
        if pos.halfmove_clock >= 100 or insufficient_material(pos):
            return 0.5, "50 moves or material"
        if len(pos.move_stack) - len(start.move_stack) >= MAX_PLIES:
            return 0.5, "move cap"
        side = pos.turn
        engine = engines[side]
        if clock:
            answer = engine.play(pos, ClockTimes(times[0], times[1], clock[1], clock[1]))
        else:
            answer = engine.play(pos, nodes=args.nodes, depth=args.depth)
        if isinstance(answer, EngineFailure):
            return float(side), f"failure of {'white' if side == 0 else 'black'}: {answer.kind}"
        spent = int(answer.elapsed_s * 1000)
        if clock:
            times[side] -= spent
            if times[side] < 0:
                return float(side), "time forfeit"
            times[side] += clock[1]
        record.append(RecordedMove(answer.move, emt_ms=spent,
                                   clock_ms=times[side] if clock else None))
        white_view = read_score(answer.info)
        if white_view is not None:
            scores[side].append(white_view if side == 0 else -white_view)
        pos.push(answer.move)
        last = [s[-3:] for s in scores]
        if all(len(s) == 3 for s in last):
            flat = last[0] + last[1]
            if all(s >= args.resign for s in flat):
                return 1.0, "adjudicated"
            if all(s <= -args.resign for s in flat):
                return 0.0, "adjudicated"
        if len(pos.move_stack) >= 80 and all(
            len(s) >= 8 and all(abs(x) <= 10 for x in s[-8:]) for s in scores
        ):
            return 0.5, "adjudicated draw"


def save(path: Path, start: Position, record: list[RecordedMove], a_white: bool,
         white_score: float, why: str) -> None:
    """Append a game to the PGN file at ``path``."""
    game = RecordedGame(
        tags={"Event": "selfplay", "White": "A" if a_white else "B",
              "Black": "B" if a_white else "A", "Termination": why},
        moves=[RecordedMove(m) for m in start.move_stack] + record,
        result={1.0: "1-0", 0.0: "0-1"}.get(white_score, "1/2-1/2"))
    with path.open("a", encoding="utf-8") as out:
        out.write(write_pgn(game))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", required=True, help="engine A's command")
    parser.add_argument("--b", required=True, help="engine B's command")
    parser.add_argument("--nodes", type=int)
    parser.add_argument("--depth", type=int)
    parser.add_argument("--tc", help="a clock instead: e.g. 20s+0.2s")
    parser.add_argument("--openings", type=int, default=50)
    parser.add_argument("--start", type=int, default=0, help="skip this many openings")
    parser.add_argument("--plies", type=int, default=8)
    parser.add_argument("--book", type=Path, default=DEFAULT_PGN)
    parser.add_argument("--resign", type=int, default=700)
    parser.add_argument("--pgn", type=Path, help="append every game to this file")
    args = parser.parse_args()
    clock = None
    if args.tc:
        period = parse_human(args.tc).periods[0]
        clock = (period.time_ms, period.bonus_ms)
    elif args.nodes is None and args.depth is None:
        raise SystemExit("give --nodes, --depth or --tc")
    positions = openings(args.book, args.start + args.openings, args.plies)[args.start:]
    started = [UciEngine.start(shlex.split(c)) for c in (args.a, args.b)]
    a, b = started
    if not isinstance(a, UciEngine) or not isinstance(b, UciEngine):
        raise SystemExit(f"cannot start the engines: {started}")
    tally, flags, began = Tally(), 0, time.monotonic()
    try:
        for number, start in enumerate(positions):
            for a_white in (True, False):
                record: list[RecordedMove] = []
                white_score, why = play((a, b) if a_white else (b, a), start, args, clock,
                                        record)
                if args.pgn is not None:
                    save(args.pgn, start, record, a_white, white_score, why)
                mine = white_score if a_white else 1 - white_score
                flags += why == "time forfeit"
                tally = Tally(tally.wins + (mine == 1), tally.losses + (mine == 0),
                              tally.draws + (mine == 0.5))
                print(f"opening {args.start + number + 1} A {'white' if a_white else 'black'}: "
                      f"{mine:g} ({why}); {tally.line()}, {time.monotonic() - began:.0f} s",
                      flush=True)
    finally:
        a.close()
        b.close()
    print(f"A vs B: {tally.line()}, {tally.games} games, {flags} lost on time")


if __name__ == "__main__":
    main()
