"""The compiled build (setup.py): the modules it compiles are loaded compiled and built from
today's sources, or none is compiled (the pure-Python install); a compiled module older than
its source would test and run yesterday's code."""

import hashlib
import importlib
import runpy
from pathlib import Path

import chessarbiter

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
