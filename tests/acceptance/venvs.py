"""The package as a user installs it: the wheel ``pip wheel .`` builds from the checkout
(compiling the hot modules), installed with pip into fresh virtual environments, dependencies
fetched from the package index as a user's install fetches them. The wheel is the one
``scripts/venv.sh`` built when it holds today's sources (:func:`built_wheel`), else one built
here from a copy of the checkout."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUILD_FILES = ("pyproject.toml", "setup.py", "README.md", "LICENSE")
LEFT_BEHIND = shutil.ignore_patterns("__pycache__", "*.so", "*.egg-info", "compiled.txt", "build")
"""What a build or an editable install leaves in the sources: not part of a fresh clone."""
CLEARED = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP", "PYTHONSAFEPATH")
"""Variables of the test run that would make an installed program import other sources."""
BUILT = ROOT / ".venv" / "dist"
"""Where ``scripts/venv.sh`` keeps the wheel it built."""
BUILD_S = 900
INSTALL_S = 600


def copy_sources(to: Path) -> Path:
    """The files a build reads, copied from the checkout to ``to``."""
    to.mkdir(parents=True)
    for name in BUILD_FILES:
        shutil.copy2(ROOT / name, to / name)
    shutil.copytree(ROOT / "src", to / "src", ignore=LEFT_BEHIND)
    return to


def built_wheel() -> Path | None:
    """The wheel ``scripts/venv.sh`` built, if it holds today's sources: every file it packs
    equal to the checkout's and every source file of the checkout packed (the build files
    unchanged since, too: the install's stamp covers them); None otherwise."""
    wheels = list(BUILT.glob("chessarbiter-*.whl"))
    stamps = list((ROOT / ".venv").glob(".installed-0-*"))
    if len(wheels) != 1 or len(stamps) != 1 or not _newer(stamps[0], ROOT / "pyproject.toml",
                                                           ROOT / "setup.py"):
        return None
    src = ROOT / "src"
    with zipfile.ZipFile(wheels[0]) as packed:
        files = {name: packed.read(name) for name in packed.namelist()
                 if name.startswith("chessarbiter/") and not name.endswith(".so")}
    here = {path.relative_to(src).as_posix() for path in (src / "chessarbiter").rglob("*")
            if path.is_file() and not _left_behind(path)}
    return wheels[0] if here == set(files) and all(
        (src / name).read_bytes() == data for name, data in files.items()) else None


def _left_behind(path: Path) -> bool:
    return path.suffix == ".so" or path.name == "compiled.txt" or any(
        part == "__pycache__" or part.endswith(".egg-info") for part in path.parts)


def _newer(stamp: Path, *files: Path) -> bool:
    return all(stamp.stat().st_mtime >= file.stat().st_mtime for file in files)


def start_wheel(sources: Path, out: Path) -> subprocess.Popen[str]:
    """``pip wheel . --no-deps`` of ``sources`` into ``out``, started."""
    return subprocess.Popen([sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "-q",
                             "-w", str(out)], cwd=sources, env=user_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def finished(process: subprocess.Popen[str], what: str, timeout_s: float) -> str:
    """The output of ``process`` once it has ended; ``AssertionError`` if it failed."""
    try:
        output, _ = process.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        process.kill()
        output, _ = process.communicate()
        raise AssertionError(f"{what} took more than {timeout_s} s:\n{output[-3000:]}") from None
    assert process.returncode == 0, f"{what} failed ({process.returncode}):\n{output[-3000:]}"
    return output


def user_env(extra_path: Path | None = None) -> dict[str, str]:
    """The environment of the test run without what points Python at other sources, with
    ``extra_path`` first on ``PATH``."""
    env = {name: value for name, value in os.environ.items() if name not in CLEARED}
    if extra_path is not None:
        env["PATH"] = f"{extra_path}{os.pathsep}{env.get('PATH', '')}"
    return env


@dataclass(frozen=True)
class Venv:
    """A virtual environment with the package installed."""

    path: Path

    @property
    def bin(self) -> Path:
        return self.path / "bin"

    @property
    def python(self) -> Path:
        return self.bin / "python"

    @property
    def command(self) -> Path:
        """The ``chessarbiter`` console script."""
        return self.bin / "chessarbiter"

    def env(self) -> dict[str, str]:
        """The environment a user of this install has (its ``bin`` first on ``PATH``)."""
        return user_env(self.bin)

    def run(self, *args: str, cwd: Path, timeout_s: float = 60,
            stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        """``chessarbiter ARGS`` run to its end in ``cwd``."""
        return subprocess.run([str(self.command), *args], cwd=cwd, env=self.env(),
                              input=stdin, capture_output=True, text=True, timeout=timeout_s)


def create(path: Path) -> Venv:
    """A fresh virtual environment (the test run's pip installs into it: ``--python``)."""
    venv.EnvBuilder(with_pip=False).create(path)
    return Venv(path)


def start_install(target: Venv, requirement: str) -> subprocess.Popen[str]:
    """``pip install REQUIREMENT`` into ``target``, started."""
    return subprocess.Popen([sys.executable, "-m", "pip", "--python", str(target.python),
                             "install", "-q", requirement], env=user_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
