"""lichess-bot, unmodified, as its users run it: a copy of its folder, its own virtual
environment, a config file that sets only ``url:``, the token and the engine (Debian's
stockfish), started as a process with ``-u`` (upgrade the account to a BOT)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Final
from venv import EnvBuilder

import pytest

SOURCE = Path(__file__).resolve().parents[2].parent / "shared" / "clients" / "lichess-bot"
STOCKFISH = Path("/usr/games/stockfish")
IMPORTED = ("chess", "PyYAML", "requests", "backoff", "rich")
"""The distributions lichess-bot imports, installed when its copy has no requirements.txt."""
VERSIONING = ("lichess_bot_version: 0.0.0\nminimum_python_version: '3.9'\n"
              "deprecated_python_version: '3.8'\ndeprecation_date: 2023-05-01\n")
"""Its version file (read at start), written when its copy has none: the program reads
only these four keys."""


@dataclass
class BotInstall:
    """lichess-bot's folder (a copy) and its virtual environment's Python."""

    folder: Path
    python: Path


def install(root: Path) -> BotInstall:
    """Copy lichess-bot under ``root`` and build its virtual environment; ``pytest.skip``
    (saying why) when its source, stockfish or its packages cannot be had."""
    if not (SOURCE / "lichess-bot.py").exists():
        pytest.skip(f"lichess-bot's source is not at {SOURCE}")
    if not STOCKFISH.exists():
        pytest.skip("Debian's stockfish is not installed (/usr/games/stockfish)")
    folder = root / "lichess-bot"
    shutil.copytree(SOURCE, folder)
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    versioning = folder / "lib" / "versioning.yml"
    if not versioning.exists():
        versioning.write_text(VERSIONING)
    venv = root / "venv"
    EnvBuilder(with_pip=False).create(venv)  # filled by the test run's pip (no ensurepip)
    python = venv / "bin" / "python"
    requirements = folder / "requirements.txt"
    wanted = ["-r", str(requirements)] if requirements.exists() else list(IMPORTED)
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                           *wanted], capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        pytest.skip("lichess-bot's packages could not be installed from PyPI: "
                    + done.stderr.strip().splitlines()[-1][:200])
    return BotInstall(folder, python)


CORRESPONDENCE: Final = {
    "#   - correspondence": "    - correspondence",
    "  move_time: 60 ": "  move_time: 1 ",
}
"""The lines of the default config a user changes to play correspondence in a test: the
time control accepted (``challenge: time_controls``), a second a move (``correspondence:``
``move_time``, a minute by default)."""

SMALL_MACHINE: Final = {
    "    Threads: 4 ": "    Threads: 1 ",
    "    Hash: 512 ": "    Hash: 16 ",
}
"""The engine's lines a user of a 2-core machine changes (the default asks for 4 threads and
512 MB: its start alone took 8 s on a loaded machine, and its 4 threads slowed every other
test while it played)."""


def config(default: str, url: str, token: str, settings: Mapping[str, str] | None = None
           ) -> str:
    """lichess-bot's default config with only the server's URL, the token, the engine and
    the lines of :data:`CORRESPONDENCE`, :data:`SMALL_MACHINE` and ``settings`` (each: the
    line's text as written there, its replacement) changed (greetings as by default)."""
    changed = default
    for line, replacement in {**CORRESPONDENCE, **SMALL_MACHINE, **(settings or {})}.items():
        assert changed.count(line) == 1, line
        changed = changed.replace(line, replacement)
    changed = changed.replace('token: "xxxxxxxxxxxxxxxxxxxxxx"', f'token: "{token}"', 1)
    changed = changed.replace('url: "https://lichess.org/"', f'url: "{url}/"', 1)
    changed = changed.replace('dir: "./engines/"', f'dir: "{STOCKFISH.parent}/"', 1)
    changed = changed.replace('name: "engine_name"', f'name: "{STOCKFISH.name}"', 1)
    assert changed.count(token) == 1 and url in changed and STOCKFISH.name in changed
    return changed


@dataclass
class RunningBot:
    process: subprocess.Popen[bytes]
    log: Path

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def debug_text(self) -> str:
        """Its own debug log (every request, written by default beside its config)."""
        auto = self.log.parent / "lichess_bot_auto_logs" / "lichess-bot.log"
        return auto.read_text(errors="replace") if auto.exists() else ""


@contextmanager
def running(bot: BotInstall, home: Path, url: str, token: str,
            changes: dict[str, str] | None = None) -> Iterator[RunningBot]:
    """lichess-bot running against ``url`` as the account of ``token`` (upgraded to a BOT
    by ``-u``), its working folder ``home``, its config changed by ``changes``
    (:func:`config`); stopped by SIGINT (as Ctrl-C), then killed."""
    home.mkdir(parents=True, exist_ok=True)
    settings = home / "config.yml"
    settings.write_text(config((bot.folder / "config.yml.default").read_text(), url, token,
                               changes))
    log = home / "lichess-bot.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    process = subprocess.Popen(
        [str(bot.python), str(bot.folder / "lichess-bot.py"), "-u", "--config", str(settings),
         "-l", str(log)], cwd=home, env=env, stdout=subprocess.DEVNULL,
        stderr=(home / "stderr.txt").open("wb"), start_new_session=True)
    try:
        yield RunningBot(process, log)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(15)
        with contextlib.suppress(ProcessLookupError):  # what it left running (its engine)
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(5)
