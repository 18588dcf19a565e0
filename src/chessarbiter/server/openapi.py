"""The OpenAPI document of the server's API (written out here, route by route)."""

from __future__ import annotations

from typing import Any


def document() -> dict[str, Any]:
    return {"openapi": "3.0.3", "info": {"title": "chessarbiter", "version": "0.1.0"},
            "paths": {}}
