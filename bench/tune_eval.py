"""Texel-style tuning of the built-in engine's evaluation on real games' positions.

``.venv/bin/python bench/tune_eval.py PGN... [--per-game 12] [--epochs 150] [--write]
[--label stockfish --sf-nodes 5000 --cache FILE]`` samples quiet positions from the games
of the PGN files: standard chess, from the 10th half-move on, not in check, the move that
led there and the move played from there neither a capture nor a promotion, both sides with
pawns; at most ``--per-game`` a game, spread evenly. The label, White's expected score, is
either the game's result (1, 0.5, 0; only games with a result reached on the board: a
``Termination`` tag other than ``Normal``, a time forfeit or an abandoned game, says little
about the position) or, with ``--label stockfish`` (distillation), the score of a Stockfish
search of ``--sf-nodes`` nodes (one thread, 16 MB of hash; ``--sf-processes`` at once) on
the Elo curve ``1 / (1 + 10^(-cp / 400))``, from every game whatever its end, each position
once. Stockfish's scores are kept in ``--cache`` (``nodes<TAB>FEN<TAB>White's centipawns``
a line), so that a second fit searches only the positions it has not seen. Stockfish is an
oracle of this script only; the engine never runs it.

The script fits the scale ``K`` of ``sigmoid(K * eval)`` to the current weights, then
minimises the mean squared error between ``sigmoid(K * eval)`` and the label with Adam over
the weights of :mod:`chessarbiter.engines.weights` (all, or the groups of ``--only``; an L2
pull towards the starting weights keeps rarely seen squares near where they were). One game
in ten is held out: its loss, before and after, is the measure. ``--write`` rewrites
``weights.py`` with the rounded result.

The evaluation is linear in its weights, so each position becomes a sparse vector of term
counts (tapered by the phase) once; before tuning, the script checks that this vector times
the current weights reproduces :func:`chessarbiter.engines.evaluation.evaluate` on every
sampled position (to the rounding), so the features cannot drift from the engine's code.
"""

from __future__ import annotations

import argparse
import math
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TextIO

from chessarbiter.core import movegen
from chessarbiter.core.moves import CASTLE_FLAG
from chessarbiter.core.position import Position
from chessarbiter.engines import evaluation, weights
from chessarbiter.engines.tables import FULL_PHASE
from chessarbiter.notation.pgn_reader import read_pgn_file

GROUPS = ("MATERIAL", "PST", "MOBILITY", "KING_ATTACK", "PASSED", "DOUBLED", "ISOLATED",
          "BACKWARD", "BISHOP_PAIR", "ROOK_OPEN_FILE", "ROOK_HALF_OPEN_FILE", "SHELTER")
"""The groups of ``weights.py`` in file order; each is a (middlegame, endgame) pair."""
WEIGHTS_PY = Path(evaluation.__file__).with_name("weights.py")
Key = tuple[object, ...]
Features = list[tuple[int, float]]


def flatten() -> tuple[list[Key], list[float]]:
    """Every weight's key ``(group, stage, index...)`` and value, in a fixed order."""
    keys: list[Key] = []
    values: list[float] = []

    def walk(prefix: Key, value: object) -> None:
        if isinstance(value, tuple):
            for i, item in enumerate(value):
                walk((*prefix, i), item)
        else:
            keys.append(prefix)
            values.append(float(value))  # type: ignore[arg-type]

    for group in GROUPS:
        walk((group,), getattr(weights, group))
    return keys, values


# -- features: the evaluation's terms, counted ------------------------------------------------

def _squares(bb: int) -> Iterator[int]:
    while bb:
        low = bb & -bb
        bb ^= low
        yield low.bit_length() - 1


def terms(pos: Position) -> dict[Key, int]:
    """The count of each weight's term (White's minus Black's), counted by the functions of
    :mod:`chessarbiter.engines.evaluation` that :func:`~evaluation.evaluate` weighs (all
    of them, whatever their weights), without the mop-up and the tempo."""
    p = pos.pieces
    out: dict[Key, int] = {}

    def add(group: str, n: int, *index: int) -> None:
        for stage in (0, 1):
            key = (group, stage, *index)
            out[key] = out.get(key, 0) + n

    occupied = pos.occupied_co[0] | pos.occupied_co[1]
    pawn_attacks = (evaluation.pawn_attacks(p[1], 0), evaluation.pawn_attacks(p[9], 1))
    for colour in (0, 1):
        sign = 1 if colour == 0 else -1
        base = colour << 3
        enemy_attacks = pawn_attacks[colour ^ 1]
        for kind in range(1, 7):
            for sq in _squares(p[base | kind]):
                add("MATERIAL", sign, kind)
                add("PST", sign, kind, sq if colour == 0 else sq ^ 56)
        area, zone = evaluation.reach_area(p, colour, enemy_attacks)
        for kind in (2, 3, 4, 5):
            mobility, attacks = evaluation.reach(p, occupied, base | kind, area, zone)
            add("MOBILITY", sign * mobility, kind)
            add("KING_ATTACK", sign * attacks, kind)
        open_files, half_open = evaluation.rook_files(p, colour)
        add("ROOK_OPEN_FILE", sign * open_files)
        add("ROOK_HALF_OPEN_FILE", sign * half_open)
        add("BISHOP_PAIR", sign * evaluation.bishop_pair(p, colour))
        add("SHELTER", sign * evaluation.shelter(p, colour))
        passed, isolated, backward, doubled = evaluation.pawn_structure(p, colour, enemy_attacks)
        for sq in _squares(passed):
            add("PASSED", sign, evaluation.relative_rank(sq, colour))
        add("ISOLATED", sign * isolated.bit_count())
        add("BACKWARD", sign * backward.bit_count())
        add("DOUBLED", sign * doubled)
    return out


def features(pos: Position, index: dict[Key, int]) -> Features:
    """White's evaluation as ``sum(weight[i] * c)``: each term count times its stage's share
    of the phase."""
    phase = evaluation.phase(pos.pieces)
    share = (phase / FULL_PHASE, (FULL_PHASE - phase) / FULL_PHASE)
    return [(index[key], n * share[int(key[1])])  # type: ignore[call-overload]
            for key, n in terms(pos).items() if n]


# -- the sample -------------------------------------------------------------------------------

RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def _quiet(pos: Position, move: int) -> bool:
    """Neither a capture (en passant included) nor a promotion."""
    if move & CASTLE_FLAG:
        return True
    to = (move >> 6) & 63
    return not (pos.board[to] or move >> 12 or (
        to == pos.ep_square and pos.board[move & 63] & 7 == 1))


def sample(paths: Sequence[str], per_game: int,
           any_result: bool = False) -> Iterator[tuple[int, Position, float]]:
    """(game number, position, White's result) of the quiet positions chosen; with
    ``any_result`` (labels from an engine) every game counts, whatever its result and its end,
    and the result is 0.5 where there is none."""
    number = 0
    for path in paths:
        for game in read_pgn_file(path):
            result = RESULTS.get(game.result)
            if game.error is not None or game.chess960 or len(game.moves) < 20:
                continue
            if not any_result and (result is None
                                   or game.tags.get("Termination", "Normal") != "Normal"):
                continue
            pos = Position(game.start_fen)
            candidates: list[Position] = []
            last_quiet = False
            for ply, record in enumerate(game.moves):
                quiet = _quiet(pos, record.move)
                p = pos.pieces
                if (ply >= 10 and last_quiet and quiet and p[1] and p[9]
                        and not movegen.checkers(pos)):
                    candidates.append(pos.copy())
                pos.push(record.move)
                last_quiet = quiet
            step = max(1, len(candidates) // per_game)
            for chosen in candidates[::step][:per_game]:
                yield number, chosen, 0.5 if result is None else result
            number += 1


# -- engine labels ----------------------------------------------------------------------------

ELO_SCALE = math.log(10) / 400
"""Stockfish's centipawns to an expected score with the Elo curve, ``1 / (1 + 10^(-cp /
400))``: 100 cp 0.64, 200 cp 0.76, 400 cp 0.91."""
MATE_CP = 2000
"""A mate found, in centipawns (an expected score of 1 to the rounding)."""


def expected_score(cp: int) -> float:
    """White's expected score from White's centipawns."""
    return _sigmoid(cp * ELO_SCALE)


def read_labels(cache: Path, nodes: int) -> dict[str, int]:
    """White's centipawns by FEN of the cache's lines labelled at ``nodes``; a line is
    ``nodes<TAB>FEN<TAB>centipawns``."""
    labels: dict[str, int] = {}
    if cache.exists():
        for line in cache.read_text(encoding="utf-8").splitlines():
            n, fen, cp = line.split("\t")
            if int(n) == nodes:
                labels[fen] = int(cp)
    return labels


def append_label(out: TextIO, nodes: int, fen: str, cp: int) -> None:
    out.write(f"{nodes}\t{fen}\t{cp}\n")
    out.flush()


class Oracle:
    """One Stockfish process: one thread, 16 MB of hash."""

    def __init__(self, program: str) -> None:
        self.process = subprocess.Popen([program], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)
        self._send("uci")
        self._until("uciok")
        self._send("setoption name Threads value 1")
        self._send("setoption name Hash value 16")
        self._send("isready")
        self._until("readyok")

    def _send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def _until(self, token: str) -> list[str]:
        assert self.process.stdout is not None
        lines = []
        for line in self.process.stdout:
            lines.append(line)
            if line.startswith(token):
                return lines
        raise RuntimeError(f"stockfish ended before {token!r}")

    def score(self, fen: str, nodes: int) -> int:
        """White's score after a search of ``nodes`` nodes, in centipawns (a mate
        ``MATE_CP``)."""
        self._send(f"position fen {fen}")
        self._send(f"go nodes {nodes}")
        cp = 0
        for line in self._until("bestmove"):
            words = line.split()
            if "score" in words:
                kind, value = words[words.index("score") + 1:words.index("score") + 3]
                cp = int(value) if kind == "cp" else MATE_CP if int(value) > 0 else -MATE_CP
        return cp if fen.split()[1] == "w" else -cp

    def close(self) -> None:
        self._send("quit")
        self.process.wait(timeout=10)


def label(fens: Sequence[str], program: str, nodes: int, processes: int,
          cache: Path) -> dict[str, int]:
    """White's centipawns for each FEN: those of the cache, the others searched by
    ``processes`` Stockfish processes and appended to the cache as they come."""
    labels = read_labels(cache, nodes)
    missing = [fen for fen in dict.fromkeys(fens) if fen not in labels]
    todo = iter(missing)
    lock = threading.Lock()
    started = time.monotonic()

    def work(out: TextIO) -> None:
        oracle = Oracle(program)
        try:
            while True:
                with lock:
                    fen = next(todo, None)
                if fen is None:
                    return
                cp = oracle.score(fen, nodes)
                with lock:
                    labels[fen] = cp
                    append_label(out, nodes, fen, cp)
                    done = len(labels)
                    if done % 5000 == 0:
                        print(f"labelled {done} ({time.monotonic() - started:.0f} s)",
                              flush=True)
        finally:
            oracle.close()

    print(f"{len(labels)} labels in the cache, {len(missing)} to search", flush=True)
    if not missing:
        return labels
    cache.parent.mkdir(parents=True, exist_ok=True)
    with cache.open("a", encoding="utf-8") as out:
        threads = [threading.Thread(target=work, args=(out,))
                   for _ in range(min(processes, len(missing)))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    print(f"labelled {len(missing)} in {time.monotonic() - started:.0f} s", flush=True)
    return labels


# -- the fit ----------------------------------------------------------------------------------

def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x > -500 else 0.0


def loss(data: list[tuple[Features, float]], w: Sequence[float], k: float) -> float:
    total = 0.0
    for feats, result in data:
        e = sum(w[i] * c for i, c in feats)
        total += (result - _sigmoid(k * e)) ** 2
    return total / len(data)


def fit_k(data: list[tuple[Features, float]], w: Sequence[float]) -> float:
    """The scale minimising the loss at the current weights (golden-section search)."""
    lo, hi = 0.0001, 0.02
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(30):
        a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        if loss(data, w, a) < loss(data, w, b):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


def tune(data: list[tuple[Features, float]], held: list[tuple[Features, float]],
         start: list[float], k: float, epochs: int, rate: float, pull: float,
         free: list[bool]) -> list[float]:
    """Adam on the mean squared error plus ``pull * sum((w - start)^2)``, moving only the
    weights marked ``free``."""
    w = list(start)
    m = [0.0] * len(w)
    v = [0.0] * len(w)
    for epoch in range(1, epochs + 1):
        grad = [pull * 2 * (w[i] - start[i]) for i in range(len(w))]
        for feats, result in data:
            s = _sigmoid(k * sum(w[i] * c for i, c in feats))
            g = -2 * (result - s) * s * (1 - s) * k / len(data)
            for i, c in feats:
                grad[i] += g * c
        for i, gi in enumerate(grad):
            if not free[i]:
                continue
            m[i] = 0.9 * m[i] + 0.1 * gi
            v[i] = 0.999 * v[i] + 0.001 * gi * gi
            mh = m[i] / (1 - 0.9 ** epoch)
            vh = v[i] / (1 - 0.999 ** epoch)
            w[i] -= rate * mh / (math.sqrt(vh) + 1e-12)
        if epoch % 25 == 0:
            print(f"epoch {epoch}: loss {loss(data, w, k):.6f}, held out {loss(held, w, k):.6f}",
                  flush=True)
    return w


# -- output -----------------------------------------------------------------------------------

def _render(value: object, indent: int) -> str:
    if not isinstance(value, tuple):
        return str(value)
    if not value or not isinstance(value[0], tuple):
        if len(value) == 64:
            rows = [", ".join(f"{x:4d}" for x in value[r * 8:r * 8 + 8]) for r in range(8)]
            pad = " " * (indent + 4)
            return "(\n" + ",\n".join(pad + row for row in rows) + ",\n" + " " * indent + ")"
        return "(" + ", ".join(str(x) for x in value) + ("," if len(value) == 1 else "") + ")"
    pad = " " * (indent + 4)
    inner = ",\n".join(pad + _render(item, indent + 4) for item in value)
    return "(\n" + inner + ",\n" + " " * indent + ")"


def _annotation(value: object) -> str:
    """A group's annotation: a table (indexed by a variable) is a variable-length tuple, which
    mypyc keeps as one tuple object; a (middlegame, endgame) pair of numbers stays a fixed pair,
    which it keeps unboxed. A fixed-length table would be unboxed too and rebuilt as a tuple at
    every variable index (and inflate the compiled code a hundredfold). A table's last item
    stands for its items (the first may be empty: ``PST`` has no table for index 0)."""
    def kind(item: object) -> str:
        return f"tuple[{kind(item[-1])}, ...]" if isinstance(item, tuple) else "int"

    assert isinstance(value, tuple)
    if all(isinstance(item, int) for item in value) and len(value) == 2:
        return "Final"
    return f"Final[{kind(value)}]"


def write_weights(keys: list[Key], values: list[float], header: str) -> None:
    """Rewrite ``weights.py`` with ``values`` rounded, in the shapes of the current file."""
    rounded = {key: round(v) for key, v in zip(keys, values, strict=True)}

    def rebuild(prefix: Key, shape: object) -> object:
        if isinstance(shape, tuple):
            return tuple(rebuild((*prefix, i), item) for i, item in enumerate(shape))
        return rounded[prefix]

    lines = ['"""' + header.strip() + '\n"""', "", "from __future__ import annotations", "",
             "from typing import Final", ""]
    for group in GROUPS:
        value = rebuild((group,), getattr(weights, group))
        lines.append(f"{group}: {_annotation(value)} = {_render(value, 0)}")
    WEIGHTS_PY.write_text("\n".join(lines) + "\n", encoding="utf-8")


HEADER = """The evaluation's weights in centipawns, each a (middlegame, endgame) pair that the
evaluation blends by game phase; written by ``bench/tune_eval.py`` (a fit to {how} on
quiet positions of real games; docs/engines.md, "Evaluation and tuning").

Tables by piece kind (index 1 pawn ... 6 king) are from White's point of view, square 0 a1;
``PASSED`` is by the pawn's rank counted from its own side. Term weights are per unit:
``MOBILITY`` per square a piece reaches that holds no own piece and no enemy pawn attacks,
``KING_ATTACK`` per square of the enemy king's zone it reaches, ``SHELTER`` per own pawn in
front of the king, ``DOUBLED`` per extra pawn on a file; penalties are negative.
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--per-game", type=int, default=12)
    parser.add_argument("--epochs", type=int, default=150)
    parser.add_argument("--rate", type=float, default=1.0, help="Adam's step (centipawns)")
    parser.add_argument("--pull", type=float, default=1e-7,
                        help="L2 pull towards the starting weights (per centipawn squared)")
    parser.add_argument("--only", default=",".join(GROUPS),
                        help="the groups tuned, comma-separated (the others stay)")
    parser.add_argument("--write", action="store_true", help="rewrite weights.py")
    parser.add_argument("--label", choices=("result", "stockfish"), default="result",
                        help="label each position with its game's result or a search's score")
    parser.add_argument("--sf-nodes", type=int, default=5000,
                        help="the nodes of each Stockfish search (--label stockfish)")
    parser.add_argument("--sf-processes", type=int, default=1,
                        help="Stockfish processes searching at once (one thread each)")
    parser.add_argument("--stockfish", default=None, help="the program (default: stockfish)")
    parser.add_argument("--cache", type=Path, default=Path("tune_eval_labels.tsv"),
                        help="the file of Stockfish's labels, read and appended to")
    args = parser.parse_args()
    keys, start = flatten()
    index = {key: i for i, key in enumerate(keys)}
    started = time.monotonic()
    engine = args.label == "stockfish"
    rows: list[tuple[int, str, Features, float]] = []
    seen: set[str] = set()
    games = set()
    for number, pos, result in sample(args.pgn, args.per_game, any_result=engine):
        fen = pos.fen()
        placement = " ".join(fen.split()[:4])
        if engine and placement in seen:
            continue
        feats = features(pos, index)
        white = sum(start[i] * c for i, c in feats)
        expected = evaluation.evaluate(pos) - evaluation.TEMPO
        expected = expected if pos.turn == 0 else -expected
        if evaluation.insufficient_material(pos) or abs(white - expected) > 1:
            if not evaluation.insufficient_material(pos):
                sys.exit(f"features disagree with evaluate() on {pos.fen()}: "
                         f"{white:.1f} != {expected}")
            continue
        seen.add(placement)
        rows.append((number, fen, feats, result))
        games.add(number)
    print(f"{len(rows)} positions from {len(games)} games "
          f"({time.monotonic() - started:.0f} s); {len(keys)} weights", flush=True)
    if engine:
        program = args.stockfish or shutil.which("stockfish") or shutil.which(
            "stockfish", path="/usr/games")
        if program is None:
            sys.exit("--label stockfish: no stockfish program found (--stockfish PATH)")
        labels = label([fen for _, fen, _, _ in rows], program, args.sf_nodes,
                       args.sf_processes, args.cache)
        if missing := sum(fen not in labels for _, fen, _, _ in rows):
            sys.exit(f"--label stockfish: {missing} positions left unlabelled")
        rows = [(n, fen, feats, expected_score(labels[fen])) for n, fen, feats, _ in rows]
    train = [(feats, y) for n, _, feats, y in rows if n % 10 != 9]
    held = [(feats, y) for n, _, feats, y in rows if n % 10 == 9]
    print(f"{len(train)} training and {len(held)} held-out positions", flush=True)
    k = fit_k(train, start)
    before = (loss(train, start, k), loss(held, start, k))
    print(f"K = {k:.5f}; loss before: training {before[0]:.6f}, held out {before[1]:.6f}",
          flush=True)
    groups = args.only.split(",")
    if unknown := set(groups) - set(GROUPS):
        sys.exit(f"--only: unknown groups {sorted(unknown)}; expected some of {GROUPS}")
    free = [key[0] in groups for key in keys]
    tuned = tune(train, held, start, k, args.epochs, args.rate, args.pull, free)
    rounded = [float(round(x)) for x in tuned]
    after = (loss(train, rounded, k), loss(held, rounded, k))
    print(f"loss after (rounded weights): training {after[0]:.6f}, held out {after[1]:.6f}")
    if args.write:
        how = "Stockfish's scores" if engine else "the games' results"
        write_weights(keys, tuned, HEADER.format(how=how))
        print(f"wrote {WEIGHTS_PY}")


if __name__ == "__main__":
    main()
