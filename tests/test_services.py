"""The tests' PostgreSQL schemas (``tests.services.fresh_schema``) belong to one test process:
two runs side by side never share one, and a run that ended without dropping its own (a
crash) leaves nothing the next run trips on: the next run drops them, and only them."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.services import SCHEMA_NAME, fresh_schema, postgres_dsn

ROOT = Path(__file__).resolve().parents[1]

CLAIM = "from tests.services import fresh_schema; print(fresh_schema('side_by_side'))"
"""A run in brief: it makes a schema and ends without dropping it (as a crashed run)."""


def _schemas(dsn: str) -> set[str]:
    import psycopg

    with psycopg.connect(dsn) as db:
        return {row[0] for row in db.execute("SELECT nspname FROM pg_namespace")}


def _run_elsewhere() -> str:
    """A test process of its own: the schema it made (left behind)."""
    done = subprocess.run([sys.executable, "-c", CLAIM], cwd=ROOT, env={**os.environ},
                          capture_output=True, text=True, timeout=60, check=True)
    return done.stdout.strip().rsplit("%3D", 1)[1]


def _lock(dsn: str, key: int) -> Any:
    import psycopg

    session = psycopg.connect(dsn, autocommit=True)
    session.execute("SELECT pg_advisory_lock(%s)", (key,))
    return session


def test_runs_side_by_side_have_schemas_of_their_own_and_leftovers_go() -> None:
    dsn = postgres_dsn()
    mine = fresh_schema("side_by_side").rsplit("%3D", 1)[1]
    live_key = secrets.randbits(63) | 1
    live = f"t{live_key:016x}_in_progress"
    holder = _lock(dsn, live_key)  # a run in progress elsewhere holds its key
    try:
        holder.execute(f"CREATE SCHEMA {live}")
        first = _run_elsewhere()  # made its schema and ended without dropping it
        assert SCHEMA_NAME.fullmatch(first) and first != mine  # the same name, its own
        assert {first, mine, live} <= _schemas(dsn)
        second = _run_elsewhere()  # the next run drops the ended one's, only it
        schemas = _schemas(dsn)
        assert first not in schemas
        assert {second, mine, live} <= schemas
    finally:
        holder.execute(f"DROP SCHEMA IF EXISTS {live} CASCADE")
        holder.close()
