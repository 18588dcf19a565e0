"""What each install holds: the wheel's package (compiled when a compiler was there), the
extra's packages only with ``[scale]``, and on a plain install a PostgreSQL database or a
Redis bus refused in one line that names the extra."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.acceptance.processes import Running
from tests.acceptance.test_commands import answering, free_port, get
from tests.acceptance.venvs import Venv
from tests.services import fresh_schema, redis_url
from tests.test_imports import BACKENDS, CHILD, SCALE

EXTRA = "pip install 'chessarbiter[scale]'"


def _python(target: Venv, code: str, cwd: Path) -> str:
    out = subprocess.run([str(target.python), "-c", code], cwd=cwd, env=target.env(),
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_the_wheel_is_installed_not_the_sources(plain: Venv, cwd: Path) -> None:
    where = _python(plain, "import chessarbiter; print(chessarbiter.__file__)", cwd)
    assert where.startswith(str(plain.path)), where
    counting = _python(plain, "import importlib; "
                       "print(importlib.import_module('chessarbiter.core.perft').__file__)", cwd)
    assert counting.startswith(str(plain.path)), counting
    if os.environ.get("CHESSARBITER_PURE") != "1":  # the hot modules compiled (setup.py)
        assert counting.endswith(".so"), counting


def test_a_plain_install_has_no_extra(plain: Venv, scale: Venv, cwd: Path) -> None:
    probe = ("import importlib.util as u; "
             f"print(*(u.find_spec(m) is not None for m in {SCALE!r}))")
    assert _python(plain, probe, cwd) == " ".join(["False"] * len(SCALE))
    assert _python(scale, probe, cwd) == " ".join(["True"] * len(SCALE))


@pytest.mark.parametrize("name", ["plain", "scale"])
def test_every_module_imports(installs: dict[str, Venv], cwd: Path, name: str) -> None:
    """Each module of the installed package imports with the install's own dependencies
    only; without the extra, the backends listed in ``tests/test_imports.py`` miss the
    extra's packages and nothing else."""
    report = json.loads(_python(installs[name], CHILD.format(scale=()), cwd))
    modules = report["modules"]
    assert len(modules) > 100
    failed = {module: error for module, error in modules.items() if error is not None}
    if name == "scale":
        assert failed == {}
    else:
        assert {module for module in failed if failed[module] not in SCALE} == set(), failed
        assert set(failed) == set(BACKENDS)


@pytest.mark.parametrize(("args", "option"), [
    (["serve", "--db", "postgresql://localhost/games"], "--db"),
    (["serve", "--db", "postgresql://localhost/games", "--add-account", "ann"], "--db"),
    (["serve", "--db", "postgresql://localhost/games", "--bus", "redis://localhost"], "--db"),
    (["serve", "--bus", "redis://localhost"], "--bus"),
    (["match", "--pgn", "m.pgn", "--store", "postgresql://localhost/games"], "--store"),
])
def test_the_scale_options_name_the_extra_on_a_plain_install(
        plain: Venv, cwd: Path, args: list[str], option: str) -> None:
    out = plain.run(*args, cwd=cwd)
    assert out.returncode == 2, out.stderr
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr, out.stderr
    assert option in out.stderr and EXTRA in out.stderr, out.stderr
    assert any(package in out.stderr for package in SCALE), out.stderr
    assert not list(cwd.iterdir()), "nothing is created"


def test_a_scale_install_reaches_for_the_database(scale: Venv, cwd: Path) -> None:
    """With the extra, a PostgreSQL URI is tried: a database that does not answer is one
    line and exit code 2, not a missing package."""
    out = scale.run("serve", "--db", "postgresql://nobody@127.0.0.1:1/none?connect_timeout=5",
                    "--port", "0", cwd=cwd)
    assert out.returncode == 2, out.stderr
    assert out.stderr.count("\n") == 1 and "--db" in out.stderr, out.stderr
    assert "scale" not in out.stderr, out.stderr


def test_a_scale_install_serves_a_cluster_process(scale: Venv, cwd: Path) -> None:
    """With the extra, the server keeps its accounts and games in PostgreSQL and joins a
    cluster over Redis (the test services of ``scripts/services.sh``)."""
    dsn = fresh_schema("acceptance_scale")
    bus = redis_url()
    added = scale.run("serve", "--add-account", "ann", "--db", dsn, cwd=cwd)
    assert added.returncode == 0, added.stderr
    token = added.stdout.split(": ", 1)[1].strip()
    port = free_port()
    server = Running([str(scale.command), "serve", "--db", dsn, "--bus", bus, "--port",
                      str(port)], cwd, scale.env())
    try:
        answering(server, f"http://127.0.0.1:{port}/")
        status, account = get(f"http://127.0.0.1:{port}/api/account", token)
        assert status == 200 and json.loads(account)["username"] == "ann"
    finally:
        server.close()
    assert not list(cwd.iterdir()), "no SQLite file: the games are in PostgreSQL"
