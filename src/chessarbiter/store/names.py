"""How a store is named: a PostgreSQL connection URI, or a path; and the name for people."""

from __future__ import annotations

from urllib.parse import urlsplit

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
"""How a PostgreSQL connection URI begins."""


def is_postgres(text: str) -> bool:
    """Whether ``text`` is a PostgreSQL connection URI."""
    return text.startswith(POSTGRES_SCHEMES)


def described(text: str) -> str:
    """``text`` for people: a connection URI without its password or query."""
    if not is_postgres(text):
        return text
    parts = urlsplit(text)
    user = f"{parts.username}@" if parts.username else ""
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{user}{host}{port}{parts.path}"
