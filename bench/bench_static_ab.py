"""Benchmark: the static mobility analysis and the pawn-structure exploration of this code
against those of another checkout, in one process (``laws/deadpos/static.py``, ``phases.py``).

Run: ``PYTHONPATH=src .venv/bin/python bench/bench_static_ab.py --other OTHER/src [--repeats R]``
where OTHER is a checkout of the code to compare with (``git worktree add OTHER main``); its
package is loaded under the name ``chessarbiter_other``, each code with its own core.

Replays the lichess games of ``../shared/corpus/pgn/large`` through the per-move proof and
records every ``statically_unwinnable`` and ``phases_unwinnable`` call it makes, in order;
five king-and-pawn endings are added, both sides. Then times both codes, alternating on
every call: *cold* (each distinct call alone, every memo of ``static``, ``reach`` and
``phases`` emptied before it, the least of R timings) and *in order* (the proof's calls
replayed in the order made, the memos kept as the proof keeps them, emptied before each of
R replays; each call the least of its R timings). Every answer must be the same.
"""

from __future__ import annotations

import argparse
import importlib.abc
import importlib.machinery
import importlib.util
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from chessarbiter.core.position import Position
from chessarbiter.laws.deadpos import phases, proof, reach, static
from chessarbiter.notation.pgn_reader import read_pgn_file

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "pgn" / "large"
ALIAS = "chessarbiter_other"
ENDINGS = (
    "8/2k5/pp4p1/1PK4p/7P/P5P1/8/8 w - - 0 44",
    "8/8/1p6/pk5p/P6P/1K6/8/8 b - - 0 51",
    "8/2k5/1p4p1/pP5p/1K5P/P5P1/8/8 w - - 0 45",
    "2Q1R3/8/8/8/3k4/6p1/6P1/5K2 b - - 4 46",
    "8/8/3Np1p1/pk1pPbPp/3K3P/1P6/P7/8 b - - 8 44",
)
PHASE_CAP = 32
"""The per-move proof's cap (``proof.QUICK_PHASES``), for the added endings."""

Call = tuple[str, str, int, int]
"""``("s" or "p", FEN, winner, cap)``."""


class _Other(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Loads ``chessarbiter_other.*`` from another checkout's sources, its own imports of
    ``chessarbiter`` renamed."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def find_spec(
        self, name: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if name.split(".")[0] != ALIAS:
            return None
        base = self.root.joinpath("chessarbiter", *name.split(".")[1:])
        if base.is_dir():
            return importlib.util.spec_from_file_location(
                name, base / "__init__.py", loader=self, submodule_search_locations=[str(base)]
            )
        if base.with_suffix(".py").exists():
            file = base.with_suffix(".py")
            return importlib.util.spec_from_file_location(name, file, loader=self)
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        origin = str(module.__spec__.origin if module.__spec__ else module.__file__)
        source = Path(origin).read_text(encoding="utf-8")
        source = re.sub(r"\bchessarbiter\b(?=\.| import)", ALIAS, source)
        exec(compile(source, origin, "exec"), module.__dict__)


def collect() -> list[Call]:
    """The calls the per-move proof makes on the lichess games, in order, and the endings."""
    calls: list[Call] = []
    names = vars(proof)
    asked_static: Callable[[Position, int], bool] = names["statically_unwinnable"]
    asked_phases: Callable[..., tuple[bool, int]] = names["phases_unwinnable"]

    def static_call(pos: Position, winner: int) -> bool:
        calls.append(("s", pos.fen(), winner, 0))
        return asked_static(pos, winner)

    def phases_call(pos: Position, winner: int, cap: int, *rest: Any) -> tuple[bool, int]:
        calls.append(("p", pos.fen(), winner, cap))
        return asked_phases(pos, winner, cap, *rest)

    names["statically_unwinnable"], names["phases_unwinnable"] = static_call, phases_call
    try:
        for path in sorted(CORPUS.glob("lichess_*.pgn")):
            for game in read_pgn_file(path):
                pos = Position(game.start_fen, chess960=game.chess960)
                for record in game.moves:
                    pos.push(record.move)
                    proof.proved_dead(pos)
    finally:
        names["statically_unwinnable"], names["phases_unwinnable"] = asked_static, asked_phases
    for fen in ENDINGS:
        for winner in (0, 1):
            calls += [("s", fen, winner, 0), ("p", fen, winner, PHASE_CAP)]
    return calls


def _forget(modules: Sequence[ModuleType]) -> None:
    """Empty the memos (module-level dicts named ``_...``) of these modules."""
    for module in modules:
        for name, value in vars(module).items():
            if name.startswith("_") and not name.startswith("__") and isinstance(value, dict):
                value.clear()


class Code:
    """One code's two functions, position type and memos."""

    def __init__(self, package: str) -> None:
        load = importlib.import_module
        self.position: type[Any] = load(f"{package}.core.position").Position
        names = ("static", "reach", "phases")
        self.memos = [load(f"{package}.laws.deadpos.{name}") for name in names]
        self.static: Callable[..., Any] = self.memos[0].statically_unwinnable
        self.phases: Callable[..., Any] = self.memos[2].phases_unwinnable

    def call(self, pos: Any, kind: str, winner: int, cap: int) -> Any:
        if kind == "s":
            return self.static(pos, winner)
        return self.phases(pos, winner, cap)


def cold(codes: tuple[Code, Code], calls: list[Call], repeats: int) -> dict[str, list[float]]:
    """Seconds per kind, each code, each distinct call alone with its memos emptied."""
    totals = {"s": [0.0, 0.0], "p": [0.0, 0.0]}
    for kind, fen, winner, cap in dict.fromkeys(calls):
        best = [float("inf"), float("inf")]
        answers = []
        for _ in range(repeats):
            for i, code in enumerate(codes):
                pos = code.position(fen)
                _forget(code.memos)
                start = time.perf_counter()
                answers.append(code.call(pos, kind, winner, cap))
                best[i] = min(best[i], time.perf_counter() - start)
        if len(set(answers)) != 1:
            sys.exit(f"different answers: {kind} {fen} {winner} {cap}: {answers}")
        for i in (0, 1):
            totals[kind][i] += best[i]
    return totals


def in_order(codes: tuple[Code, Code], calls: list[Call], repeats: int) -> dict[str, list[float]]:
    """Seconds per kind, each code, the calls replayed in order with the memos kept."""
    positions = {fen: (codes[0].position(fen), codes[1].position(fen)) for _, fen, _, _ in calls}
    best = [[float("inf"), float("inf")] for _ in calls]
    for _ in range(repeats):
        for code in codes:
            _forget(code.memos)
        for n, (kind, fen, winner, cap) in enumerate(calls):
            answers = []
            for i, code in enumerate(codes):
                start = time.perf_counter()
                answers.append(code.call(positions[fen][i], kind, winner, cap))
                best[n][i] = min(best[n][i], time.perf_counter() - start)
            if answers[0] != answers[1]:
                sys.exit(f"different answers: {kind} {fen} {winner} {cap}: {answers}")
    totals = {"s": [0.0, 0.0], "p": [0.0, 0.0]}
    for (kind, _, _, _), pair in zip(calls, best, strict=True):
        for i in (0, 1):
            totals[kind][i] += pair[i]
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", type=Path, required=True, help="the other checkout's src")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    sys.meta_path.insert(0, _Other(args.other.resolve()))
    codes = (Code(ALIAS), Code("chessarbiter"))
    assert codes[1].memos[0] is static and codes[1].memos[1] is reach
    assert codes[1].memos[2] is phases
    calls = collect()
    counts = {kind: sum(1 for call in calls if call[0] == kind) for kind in "sp"}
    distinct = {kind: sum(1 for call in dict.fromkeys(calls) if call[0] == kind) for kind in "sp"}
    for title, totals, number in (
        ("cold", cold(codes, calls, args.repeats), distinct),
        ("in order", in_order(codes, calls, args.repeats), counts),
    ):
        for kind, name in (("s", "statically_unwinnable"), ("p", "phases_unwinnable")):
            other, this = (seconds / number[kind] * 1e6 for seconds in totals[kind])
            print(
                f"{title:8} {name:21} {number[kind]:5} calls: other {other:7.1f} us,"
                f" this {this:7.1f} us, other / this {other / this:.2f}"
            )
    print("every answer the same")


if __name__ == "__main__":
    main()
