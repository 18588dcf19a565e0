"""``chessarbiter serve`` starting, as a process: it says where it serves only once it
answers there, and an address it cannot listen on (a taken port, an unknown host) is one
line naming the address and the reason, with exit code 2."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

WAIT_S = 60.0


def serve(tmp_path: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "chessarbiter.cli.main", "serve",
            "--db", str(tmp_path / "games.sqlite"), *args]


ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}


def test_it_says_where_it_serves_once_it_answers_there(tmp_path: Path) -> None:
    process = subprocess.Popen(serve(tmp_path, "--port", "0"), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=ENV)
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()  # the port 0 asks for is a free one
        assert line.startswith("chessarbiter serving on http://127.0.0.1:"), line
        url = line.removeprefix("chessarbiter serving on ")
        assert not url.endswith(":0/")
        with urllib.request.urlopen(url, timeout=WAIT_S) as answer:  # at once: no retrying
            assert answer.status == 200
    finally:
        process.terminate()
        process.wait(WAIT_S)


def test_a_taken_port_is_one_line_and_exit_2(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(serve(tmp_path, "--port", str(port)), capture_output=True,
                              text=True, env=ENV, timeout=WAIT_S)
    assert done.returncode == 2
    assert done.stdout == ""  # never "serving on"
    assert done.stderr.splitlines() == [
        f"chessarbiter serve: error: --host/--port: cannot listen on 127.0.0.1:{port}: "
        "address already in use"]


def test_an_unknown_host_is_one_line_and_exit_2(tmp_path: Path) -> None:
    host = "no-such-host.invalid"  # the .invalid domain never resolves (RFC 2606)
    done = subprocess.run(serve(tmp_path, "--host", host, "--port", "8080"),
                          capture_output=True, text=True, env=ENV, timeout=WAIT_S)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"chessarbiter serve: error: --host: cannot listen on {host}:8080: ")
