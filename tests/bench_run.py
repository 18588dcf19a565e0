"""A script of ``bench/`` run as its users run it: a process, this checkout's sources first."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_bench(script: str, *args: str, timeout: float = 120) -> str:
    """``bench/SCRIPT ARGS`` run to its end, nothing on its standard input: its standard
    output (an ``AssertionError`` with the end of its errors if it fails)."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args],
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")}, capture_output=True, text=True,
        timeout=timeout, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"bench/{script} exited {done.returncode}: {done.stderr[-2000:]}"
    return done.stdout
