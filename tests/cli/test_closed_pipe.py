"""A command whose reader goes away (``chessarbiter check FILE | head``) stops quietly."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.corpus import corpus_path


def test_check_into_a_closed_pipe_stops_without_a_traceback() -> None:
    games = corpus_path("pgn", "large", "lichess_2016-05_sample.pgn")
    reader_gone = subprocess.run(  # the reader reads one line, then closes the pipe
        f'"{sys.executable}" -m chessarbiter.cli.main check --jobs 1 "{games}" | head -n 1',
        shell=True, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        executable="/bin/bash",
    )
    assert reader_gone.stdout.count("\n") == 1
    assert reader_gone.stderr == "", reader_gone.stderr
