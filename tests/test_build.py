"""The compiled build (setup.py): the modules it compiles are loaded compiled and built from
today's sources, or none is compiled (the pure-Python install); a compiled module older than
its source would test and run yesterday's code."""

import hashlib
import importlib
import json
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

import chessarbiter
from tests.corpus import corpus_path

SRC = Path(chessarbiter.__file__).parent
MANIFEST = SRC / "compiled.txt"
COMPILED: tuple[str, ...] = runpy.run_path(
    str(Path(__file__).parents[1] / "setup.py"), run_name="setup"
)["COMPILED"]


def _compiled_modules() -> dict[str, bool]:
    """Each module setup.py compiles (its source path under the package) and whether it was
    loaded from a compiled extension."""
    out = {}
    for name in COMPILED:
        module = importlib.import_module("chessarbiter." + name[:-3].replace("/", "."))
        out[name] = not str(module.__file__).endswith(".py")
    return out


def test_the_build_is_all_compiled_and_fresh_or_all_pure() -> None:
    loaded = _compiled_modules()
    if not any(loaded.values()):
        assert not MANIFEST.exists(), "pure-Python modules loaded, but a compiled build is recorded"
        return
    assert all(loaded.values()), f"not compiled: {[n for n, c in loaded.items() if not c]}"
    built: dict[str, str] = {}
    for line in MANIFEST.read_text().splitlines():
        digest, name = line.split(" ", 1)
        built[name] = digest
    assert sorted(built) == sorted(COMPILED), "the build compiled other modules than setup.py lists"
    stale = [
        name
        for name, digest in built.items()
        if hashlib.sha1((SRC / name).read_bytes()).hexdigest() != digest
    ]
    assert not stale, f"compiled from older sources: {stale}; run: bash scripts/venv.sh"


def test_the_validating_entry_points_stay_interpreted() -> None:
    """Bad input must raise the documented errors, not mypyc's TypeError."""
    from chessarbiter.core import fen
    from chessarbiter.laws.deadpos import api

    assert str(fen.__file__).endswith(".py") and str(api.__file__).endswith(".py")


PROBE = r"""
import json, random, sys
from importlib.machinery import FileFinder, SourceFileLoader

package, source_only = sys.argv[1], sys.argv[2] == "source"
if source_only:  # the package's modules from their .py files, never from a compiled extension
    def hook(path):
        if path.startswith(package):
            return FileFinder(path, (SourceFileLoader, [".py"]))
        raise ImportError
    sys.path_hooks.insert(0, hook)
    sys.path_importer_cache.clear()

from chessarbiter.core.fen import parse_fen
from chessarbiter.core.perft import perft
from chessarbiter.core.position import Position
from chessarbiter.core.squares import Side
from chessarbiter.laws.deadpos import can_checkmate, proof

out = {"compiled": not proof.__file__.endswith(".py")}
kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
out["perft"] = [perft(Position(), 3), perft(parse_fen(kiwipete), 2, bulk=False)]
verdicts = []
for line in sys.argv[3:]:
    pos = parse_fen(line, lenient=True)
    for side in Side:
        v = can_checkmate(pos, side, budget=2_000)
        verdicts.append([v.outcome.name, v.reason, v.nodes, [int(m) for m in v.line]])
out["verdicts"] = verdicts
rng = random.Random(11)
reasons = []
for line in sys.argv[3:]:
    pos = parse_fen(line, lenient=True)
    for _ in range(40):
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(rng.choice(moves))
        reasons.append(proof.proved_dead(pos))
out["proofs"] = reasons
print(json.dumps(out))
"""


def test_the_compiled_build_answers_as_its_source() -> None:
    """The compiled modules and their sources, each in a process of its own, give the same
    perft counts, full-analysis verdicts (outcome, reason, nodes, line) on corpus positions
    at a small budget (every stage runs), and per-move proofs along random walks from them."""
    if not any(_compiled_modules().values()):
        pytest.skip("the pure-Python build: nothing compiled to compare")
    path = corpus_path("unwinnability", "chasolver-positions.txt")
    lines = [
        line[3:].strip()
        for line in path.read_text().splitlines()
        if line[:1] in "W-" and not line.startswith("#")
    ][::60]
    answers = {}
    for build in ("compiled", "source"):
        done = subprocess.run(
            [sys.executable, "-c", PROBE, str(SRC), build, *lines],
            capture_output=True, text=True, timeout=300, check=True,
        )
        answers[build] = json.loads(done.stdout)
    assert answers["compiled"].pop("compiled") and not answers["source"].pop("compiled")
    assert answers["compiled"] == answers["source"]
    assert answers["compiled"]["perft"] == [8_902, 2_039]
    assert any(reason is not None for reason in answers["compiled"]["proofs"])
