"""The OpenAPI 3 document of the server's API (``GET /api/openapi.json``), made from the
route table (:mod:`.routes`). Streaming routes (NDJSON that stays open) carry
``x-stream: true``."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

ID: Final = {"type": "string", "pattern": "^[A-Za-z0-9]{1,32}$"}
UCI: Final = {"type": "string", "pattern": "^[a-h][1-8][a-h][1-8][qrbnQRBN]?$"}
ERROR: Final = {"$ref": "#/components/schemas/Error"}
OBJECT: Final = {"type": "object"}
OK: Final = {"$ref": "#/components/schemas/Ok"}
COLOR: Final = {"type": "string", "enum": ["white", "black", "random"]}
_CONVERTOR: Final = re.compile(r"\{(\w+):\w+\}")

GAME_FIELDS: Final[dict[str, Any]] = {
    "rated": {"type": "boolean"},
    "clock.limit": {"type": "integer", "minimum": 0, "maximum": 10800,
                    "description": "seconds"},
    "clock.increment": {"type": "integer", "minimum": 0, "maximum": 180,
                        "description": "seconds"},
    "timeControl": {"type": "string", "description": "extension: any written control "
                    "(5+3, 40/90+30, 30+30, G/60;d5, untimed)"},
    "profile": {"type": "string", "description": "extension: rule profile (default online)"},
    "color": COLOR,
    "variant": {"type": "string", "enum": ["standard", "chess960", "fromPosition"]},
    "fen": {"type": "string"},
}
SEEK_FIELDS: Final[dict[str, Any]] = {
    **{k: v for k, v in GAME_FIELDS.items() if not k.startswith("clock.")},
    "time": {"type": "integer", "minimum": 0, "maximum": 180, "description": "minutes"},
    "increment": {"type": "integer", "minimum": 0, "maximum": 180, "description": "seconds"},
}


@dataclass(frozen=True)
class Op:
    """One route and method: an entry of the route table."""

    method: str
    path: str
    summary: str
    ok: dict[str, Any] = field(default_factory=lambda: OBJECT)
    auth: str = "token"
    """``token`` (an account), ``player`` (a token or game secret), ``optional``, ``none``."""
    body: dict[str, Any] | None = None
    query: dict[str, Any] = field(default_factory=dict)
    stream: bool = False
    media: str = "application/json"
    path_params: dict[str, Any] = field(default_factory=dict)
    status: str = "200"
    """The success status (lichess answers some creations 201)."""
    handler: Any = None
    """The endpoint: a Starlette endpoint, or plain ASGI (:class:`~.asgi.Raw`) for a hot
    route."""
    owned: bool = False
    """About one game (``{gameId}``): in a cluster, served by the game's owner."""
    documented: bool = True

    @property
    def public_path(self) -> str:
        """The path as the document writes it (a parameter's type, ``{round:int}``, is the
        router's: the document gives it in the parameter's schema)."""
        return _CONVERTOR.sub(r"{\1}", self.path)


def _operation(op: Op) -> dict[str, Any]:
    parameters = [{"name": k, "in": "path", "required": True, "schema": v}
                  for k, v in op.path_params.items()]
    parameters += [{"name": k, "in": "query", "required": False, "schema": v}
                   for k, v in op.query.items()]
    errors = {"400": "Bad request: the error names what is wrong; nothing changed",
              "401": "No token or no such token", "403": "Not allowed for this token",
              "404": "No such game, challenge or account",
              "413": "The body is too large (docs/server.md, Limits)",
              "429": "Too many creations or streams: retry after Retry-After seconds",
              "503": "Not stored (the database failed): retry"}
    responses: dict[str, Any] = {
        op.status: {"description": "OK", "content": {op.media: {"schema": op.ok}}},
        **{code: {"description": text, "content": {"application/json": {"schema": ERROR}}}
           for code, text in errors.items()},
    }
    data: dict[str, Any] = {"summary": op.summary, "operationId": _operation_id(op),
                            "parameters": parameters, "responses": responses}
    if op.body is not None:
        schema = {"type": "object", "properties": op.body}
        data["requestBody"] = {"required": False, "content": {
            "application/x-www-form-urlencoded": {"schema": schema},
            "application/json": {"schema": schema}}}
    if op.auth == "token":
        data["security"] = [{"bearer": []}, {"session": []}]
    elif op.auth == "player":
        data["security"] = [{"bearer": []}, {"gameCookie": []}, {"session": []}]
    elif op.auth == "optional":
        data["security"] = [{"bearer": []}, {}]
    else:
        data["security"] = [{}]
    if op.stream:
        data["x-stream"] = True
    return data


def _operation_id(op: Op) -> str:
    words = [w.strip("{}") for w in op.public_path.split("/") if w and w != "api"]
    return op.method + "".join(w[:1].upper() + w[1:] for w in words).replace(".", "_")


def document(ops: Sequence[Op]) -> dict[str, Any]:
    """The OpenAPI document of ``ops``."""
    paths: dict[str, dict[str, Any]] = {}
    for op in ops:
        paths.setdefault(op.public_path, {})[op.method] = _operation(op)
    return {
        "openapi": "3.0.3",
        "info": {"title": "chessarbiter server", "version": "1",
                 "description": "The lichess Board API as chessarbiter serves it, with its "
                                "extensions and the arbiter's routes (docs/server.md)."},
        "paths": paths,
        "components": {
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer",
                           "description": "an account's API token, or a game secret"},
                "gameCookie": {"type": "apiKey", "in": "cookie",
                               "name": "chessarbiter-GAMEID",
                               "description": "the game secret, set by the browser pages"},
                "session": {"type": "apiKey", "in": "cookie", "name": "chessarbiter-session",
                            "description": "a browser session (POST /api/session); a "
                                           "request changing something must come from the "
                                           "server's pages (Origin)"},
            },
            "schemas": {
                "Error": {"type": "object", "required": ["error"],
                          "properties": {"error": {"type": "string"}}},
                "Ok": {"type": "object", "required": ["ok"],
                       "properties": {"ok": {"type": "boolean"},
                                      "notes": {"type": "array", "items": OBJECT}}},
            },
        },
    }


async def serve(request: Request) -> Response:
    """``GET /api/openapi.json``: the app's document (made with the app)."""
    return JSONResponse(request.app.state.openapi)
