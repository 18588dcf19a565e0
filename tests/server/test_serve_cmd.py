"""``chessarbiter serve``: accounts from the command line, bad arguments in one line (exit 2),
and a real server process that prints its URL and answers."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Final

import pytest

from chessarbiter.cli.main import main
from chessarbiter.cli.serve_cmd import SWITCH_S
from chessarbiter.server.accounts import Accounts, hash_secret
from chessarbiter.server.games.db import Database


def test_add_account_prints_a_token_kept_hashed(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite"
    assert main(["serve", "--db", str(db), "--add-account", "Judge", "--arbiter"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("Judge (arbiter): cha_")
    token = line.rpartition(" ")[2]
    database = Database(db)
    database.start()
    try:
        stored = database.call(lambda store, conn: conn.execute(
            "SELECT token_hash FROM server_accounts").fetchall())
        accounts = Accounts()
        database.call(lambda store, conn: accounts.load(conn))
    finally:
        database.close()
    assert stored == [(hash_secret(token),)]  # the token itself is nowhere
    found = accounts.by_token(token)
    assert found is not None and found.is_arbiter and found.id == "judge"


@pytest.mark.parametrize(("argv", "named"), [
    (["--port", "70000"], "--port"),
    (["--arbiter"], "--arbiter"),
    (["--add-account", "x"], "account name"),
    (["--add-account", "bad name!"], "account name"),
    (["--engine", "fish"], "--engine"),
    (["--engine", "fish=nonsense"], "--engine"),
])
def test_bad_arguments_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                argv: list[str], named: str) -> None:
    assert main(["serve", "--db", str(tmp_path / "g.sqlite"), *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and named in err


def test_a_taken_name_and_a_bad_database(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite"
    assert main(["serve", "--db", str(db), "--add-account", "alice"]) == 0
    assert main(["serve", "--db", str(db), "--add-account", "ALICE"]) == 2
    assert "taken" in capsys.readouterr().err
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database" * 100)
    assert main(["serve", "--db", str(junk)]) == 2
    assert capsys.readouterr().err.startswith("chessarbiter serve: error: --db:")


def _serve(tmp_path: Path, *argv: str) -> tuple[subprocess.Popen[str], int]:
    """``chessarbiter serve`` as a process on a free port and ``tmp_path/games.sqlite``,
    once it prints its URL; and the port."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "chessarbiter.cli.main", "serve", "--port", str(port),
         "--db", str(tmp_path / "games.sqlite"), *argv],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    assert process.stdout is not None
    line = process.stdout.readline()
    assert line.strip() == f"chessarbiter serving on http://127.0.0.1:{port}/", (
        process.stderr.read() if process.stderr else "")
    return process, port


def _get(port: int, path: str, headers: dict[str, str] | None = None) -> Any:
    """The JSON answer of the server on ``port`` to ``GET path``, once it listens (a real
    process starting, not a game clock)."""
    for _ in range(400):
        try:
            request = urllib.request.Request(f"http://127.0.0.1:{port}{path}",
                                             headers=headers or {})
            with urllib.request.urlopen(request, timeout=5) as answer:
                return json.load(answer)
        except urllib.error.HTTPError:
            raise
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"no answer to {path}")


ENV: Final = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}


def test_the_server_process_prints_its_url_and_answers(tmp_path: Path) -> None:
    process, port = _serve(tmp_path)
    try:
        document = _get(port, "/api/openapi.json")
        assert "/api/board/game/{gameId}/move/{move}" in document["paths"]
    finally:
        process.terminate()
        process.wait(20)


def test_an_account_added_while_the_server_runs_works_at_once(tmp_path: Path) -> None:
    process, port = _serve(tmp_path)
    try:
        _get(port, "/api/openapi.json")  # listening
        added = subprocess.run(
            [sys.executable, "-m", "chessarbiter.cli.main", "serve", "--db",
             str(tmp_path / "games.sqlite"), "--add-account", "Latecomer"],
            capture_output=True, text=True, env=ENV, timeout=60, check=True)
        token = added.stdout.strip().rpartition(" ")[2]
        assert token.startswith("cha_")
        account = _get(port, "/api/account", {"Authorization": f"Bearer {token}"})
        assert account["username"] == "Latecomer"
    finally:
        process.terminate()
        process.wait(20)


def test_the_server_hands_the_interpreter_to_its_event_loop_within_a_millisecond(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A thread computing (an engine, a ruling) holds the interpreter at most ``SWITCH_S``
    at a time while the event loop waits: ``serve`` sets it before it runs the server."""
    import uvicorn

    seen: list[float] = []
    monkeypatch.setattr(uvicorn.Server, "run",
                        lambda self, sockets=None: seen.append(sys.getswitchinterval()))
    before = sys.getswitchinterval()
    try:
        assert main(["serve", "--db", str(tmp_path / "g.sqlite"), "--port", "0"]) == 0
    finally:
        sys.setswitchinterval(before)
    assert seen == [SWITCH_S] and before > SWITCH_S
