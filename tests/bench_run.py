"""A script of ``bench/`` run as its users run it: a process, this checkout's sources first."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_bench(script: str, *args: str, timeout: float = 120) -> str:
    """``bench/SCRIPT ARGS`` run to its end (``CalledProcessError`` if it fails): its
    standard output."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args],
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")}, capture_output=True, text=True,
        timeout=timeout, check=True)
    return done.stdout
