"""Build hook: the hot modules (the core, the dead-position analysis, the engine's search
and evaluation) are compiled with mypyc from the same source; set ``CHESSARBITER_PURE=1``
for a pure-Python install.

Everything else (metadata, dependencies) is in ``pyproject.toml``. The public entry points
that validate their arguments (FEN parsing, ``can_checkmate``, the arbiter, the engine's
levels and time budgets) stay interpreted, so bad input raises the documented errors
whichever way the package was installed.
"""

import hashlib
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

SRC = Path(__file__).parent / "src" / "chessarbiter"
MANIFEST = SRC / "compiled.txt"
"""What the compiled modules were built from: ``sha1 path`` per line (the tests check that
no compiled module is older than its source)."""
COMPILED = (
    *(f"core/{name}.py" for name in ("squares", "attacks", "moves", "movegen", "position")),
    *(f"core/{name}.py" for name in ("board", "zobrist", "perft", "validation")),
    *(
        f"laws/deadpos/{path.name}"
        for path in sorted(SRC.glob("laws/deadpos/*.py"))
        if path.name not in ("__init__.py", "api.py", "verdict.py")
    ),
    *(f"engines/{name}.py" for name in (
        "weights", "tables", "tt", "evaluation", "ordering", "search")),
)
"""The modules compiled, relative to ``src/chessarbiter``."""


def _extensions() -> list[object]:
    MANIFEST.unlink(missing_ok=True)
    if os.environ.get("CHESSARBITER_PURE") == "1":
        return []
    from mypyc.build import mypycify

    paths = [f"src/chessarbiter/{module}" for module in COMPILED]
    # one C file per module (multi_file), so the compiler's work splits over the cores
    extensions = list(mypycify(paths, group_name="chessarbiter", multi_file=True))
    MANIFEST.write_text(
        "".join(
            f"{hashlib.sha1((SRC / module).read_bytes()).hexdigest()} {module}\n"
            for module in COMPILED
        )
    )
    return extensions


class ParallelBuildExt(build_ext):
    """``build_ext`` compiling an extension's C files side by side, one per core (setuptools
    compiles them one after another; ``--parallel`` only spreads whole extensions, and the
    compiled modules are one extension)."""

    def build_extension(self, ext: Any) -> None:
        one_by_one = self.compiler.compile

        def side_by_side(sources: list[str], **options: Any) -> list[str]:
            with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                done = pool.map(lambda source: one_by_one([source], **options), sources)
                return [obj for objects in done for obj in objects]

        self.compiler.compile = side_by_side
        try:
            super().build_extension(ext)
        finally:
            self.compiler.compile = one_by_one


if __name__ == "__main__":  # as setuptools runs it; the tests read COMPILED
    setup(ext_modules=_extensions(), cmdclass={"build_ext": ParallelBuildExt})
