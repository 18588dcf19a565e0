"""The PostgreSQL and Redis servers the scale-out tests use: ``CHESSARBITER_TEST_PG`` and
``CHESSARBITER_TEST_REDIS`` (exported by scripts/services.sh, which starts them); a test that
needs one it cannot reach is skipped, saying why."""

from __future__ import annotations

import os
import re
import secrets
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

PG_VARIABLE = "CHESSARBITER_TEST_PG"
REDIS_VARIABLE = "CHESSARBITER_TEST_REDIS"


def postgres_dsn() -> str:
    """The test database's URI; skips the test when there is none or it does not answer."""
    dsn = os.environ.get(PG_VARIABLE)
    if not dsn:
        pytest.skip(f"no PostgreSQL: {PG_VARIABLE} is not set (scripts/services.sh sets it)")
    psycopg = pytest.importorskip("psycopg", reason="psycopg is not installed")
    try:
        psycopg.connect(dsn, connect_timeout=5).close()
    except psycopg.Error as exc:
        pytest.skip(f"no PostgreSQL: {PG_VARIABLE} does not answer ({exc})")
    return dsn


SCHEMA_NAME = re.compile(r"t([0-9a-f]{16})_\w*")
"""A test schema: ``t``, the key of the test process that made it, ``_`` and its name."""

_run: tuple[int, Any] | None = None
"""This process's key and the PostgreSQL session holding the key's advisory lock while the
process lives: its schemas are its own (another run side by side has another key), and a
key whose lock nobody holds is a finished or crashed run's."""


def _run_key(dsn: str) -> int:
    """This process's key, claimed on first use (the schemas of runs gone are dropped)."""
    global _run
    if _run is None:
        import psycopg

        key = secrets.randbits(63) | 1
        session = psycopg.connect(dsn, autocommit=True)
        session.execute("SELECT pg_advisory_lock(%s)", (key,))
        _run = key, session
        _sweep(session, key)
    return _run[0]


def _sweep(session: Any, own: int) -> None:
    """Drop the test schemas whose run holds its key no more (its session ended)."""
    names = [row[0] for row in session.execute("SELECT nspname FROM pg_namespace")]
    runs: dict[int, list[str]] = {}
    for name in names:
        if (match := SCHEMA_NAME.fullmatch(name)) is not None:
            runs.setdefault(int(match[1], 16), []).append(name)
    for key, schemas in runs.items():
        if key == own or not session.execute("SELECT pg_try_advisory_lock(%s)",
                                             (key,)).fetchone()[0]:
            continue  # a run in progress
        try:
            for schema in schemas:
                session.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        finally:
            session.execute("SELECT pg_advisory_unlock(%s)", (key,))


def fresh_schema(name: str) -> str:
    """A URI of the test database whose tables live in the emptied schema ``name`` of this
    test process (a store of its own for one test; dropped at the end of the run)."""
    dsn = postgres_dsn()
    import psycopg

    key = _run_key(dsn)
    schema = f"t{key:016x}_" + re.sub(r"\W", "_", name.lower())[:45]
    with psycopg.connect(dsn, autocommit=True) as db:
        db.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        db.execute(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in dsn else "?"
    return f"{dsn}{separator}options=-csearch_path%3D{schema}"


def drop_schemas() -> None:
    """Drop this process's test schemas and release its key (at the end of a run)."""
    global _run
    if _run is None:
        return
    key, session = _run
    _run = None
    try:
        session.execute("SELECT pg_advisory_unlock(%s)", (key,))
        _sweep(session, 0)
    finally:
        session.close()


def redis_url() -> str:
    """The test Redis's URL; skips the test when there is none or it does not answer."""
    url = os.environ.get(REDIS_VARIABLE)
    if not url:
        pytest.skip(f"no Redis: {REDIS_VARIABLE} is not set (scripts/services.sh sets it)")
    redis = pytest.importorskip("redis", reason="redis (the Python client) is not installed")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=5).ping()
    except redis.RedisError as exc:
        pytest.skip(f"no Redis: {REDIS_VARIABLE} does not answer ({exc})")
    return url


CLUSTERS = ("cluster_two", "cluster_three", "cluster_lobby", "cluster_tournament",
            "cluster_accounts", "cluster_seeks", "cluster_told", "load_relayed",
            "cluster_desk", "cluster_restart", "cluster_stall", "cluster_busy",
            "cluster_limits", "cluster_limits_two")
"""The clusters the tests run, each on a Redis database of its own (1, 2, ...). A process
finds the others by the leases in its database (the arbiter's list of games is gathered
from each holder): with one database for all, test files running side by side (pytest -n)
saw each other's processes, and a list asked with one cluster's arbiter token was refused
by another cluster's process (401, no such token)."""


def fresh_bus(name: str) -> str:
    """The test Redis's URL on the emptied database of the cluster ``name``
    (:data:`CLUSTERS`; a new cluster test adds its name there)."""
    url = urlsplit(redis_url())
    assert name in CLUSTERS, f"{name}: add it to tests.services.CLUSTERS"
    fresh = urlunsplit(url._replace(path=f"/{CLUSTERS.index(name) + 1}"))
    import redis

    client = redis.Redis.from_url(fresh, socket_connect_timeout=5)
    try:
        client.flushdb()
    finally:
        client.close()
    return fresh
