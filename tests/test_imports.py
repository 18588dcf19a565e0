"""Every module of the package imports in a plain install (``pip install .``, no extras): the
optional dependencies of the ``[scale]`` extra (psycopg, redis, httpx) are imported only by the
backends that need them, themselves imported only when a ``postgresql://`` database or a
``redis://`` bus is asked for.

The plain install is made in a child interpreter by making those packages unimportable
(``sys.modules[name] = None``, what Python does for a module it must not find), so the test
runs in the test environment too; ``tests/acceptance`` installs the wheel without extras for
real."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

SCALE = ("psycopg", "redis", "httpx")
"""The ``[scale]`` extra's packages."""

BACKENDS = {
    "chessarbiter.store.postgres": "psycopg: the PostgreSQL game store (--store/--db "
                                   "postgresql://)",
    "chessarbiter.store.pg_tournaments": "psycopg: tournaments in the PostgreSQL store",
    "chessarbiter.server.games.pgdb": "psycopg: the server's tables on PostgreSQL",
    "chessarbiter.server.streams.bus": "redis: the cluster's bus (serve --bus redis://)",
    "chessarbiter.server.cluster.lease": "redis: the cluster's game leases",
    "chessarbiter.server.cluster.limits": "redis: the limits a cluster's processes share",
    "chessarbiter.server.lobby.cluster_lobby": "redis: the cluster's shared lobby",
    "chessarbiter.server.cluster.cluster": "httpx, redis and psycopg: one process of a cluster",
}
"""The modules that are the optional backends by nature, each with the extra's package it
needs and what for; every other module must import without the extra."""

CHILD = """
import importlib, json, pkgutil, sys
for name in {scale!r}:
    sys.modules[name] = None
import chessarbiter
found = {{}}
for info in pkgutil.walk_packages(chessarbiter.__path__, "chessarbiter."):
    try:
        importlib.import_module(info.name)
    except ModuleNotFoundError as exc:
        found[info.name] = (exc.name or "").partition(".")[0]
    except Exception as exc:
        found[info.name] = repr(exc)
    else:
        found[info.name] = None
print(json.dumps({{"modules": found, "loaded": sorted(set({scale!r}) & set(
    name for name, module in sys.modules.items() if module is not None))}}))
"""


@pytest.fixture(scope="module")
def plain() -> dict[str, Any]:
    """Each module's import without the extra: ``None`` (imported), the missing package's
    name or the error; and which of the extra's packages got loaded all the same."""
    out = subprocess.run([sys.executable, "-c", CHILD.format(scale=SCALE)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    report: dict[str, Any] = json.loads(out.stdout)
    return report


def test_every_module_imports_without_the_scale_extra(plain: dict[str, Any]) -> None:
    modules = plain["modules"]
    assert len(modules) > 100, "the walk found too few modules"
    failed = {name: error for name, error in modules.items()
              if error is not None and name not in BACKENDS}
    assert not failed, f"modules that do not import in a plain install: {failed}"
    assert plain["loaded"] == []


def test_the_backends_listed_are_the_ones_that_need_the_extra(plain: dict[str, Any]) -> None:
    """A backend that no longer needs its extra is taken off the list (it is then tested as
    every other module); one that fails for another reason is a bug."""
    modules = plain["modules"]
    for name in BACKENDS:
        assert name in modules, f"{name} is listed but is no module of the package"
        assert modules[name] in SCALE, f"{name}: {modules[name]}"
