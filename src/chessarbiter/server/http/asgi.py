"""Endpoints written in plain ASGI, for the hot routes (a move, a game stream): no
``Request``/``Response`` objects, no task group per stream, the answer's bytes built once.
They are routed as any endpoint (:class:`Raw`), and :mod:`chessarbiter.server.http.fastpath`
calls them without the router and the middlewares."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import parse_qsl

from starlette.types import Receive, Scope, Send

from chessarbiter.server.errors import ApiError

if TYPE_CHECKING:
    from chessarbiter.server.http.services import Services

Handler = Callable[["Services", Scope, Receive, Send], Awaitable[None]]
"""An endpoint's work, given the app's services and the request's ASGI triple."""

JSON_TYPE: Final = (b"content-type", b"application/json")
NDJSON_TYPE: Final = (b"content-type", b"application/x-ndjson")
BODY_TYPES: Final = ("application/json", "application/x-www-form-urlencoded")
"""The bodies the routes read (any other is refused unread)."""


class Raw:
    """A route's endpoint in plain ASGI (Starlette routes a class instance as an ASGI app):
    the services are the app's, and an :class:`ApiError` raised before the answer started is
    answered as the app's handler does (``{"error": message}``)."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.__name__ = getattr(handler, "__name__", "endpoint")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.handler(scope["app"].state.services, scope, receive, send)
        except ApiError as exc:
            await send_json(send, {"error": exc.message}, exc.status, exc.headers)


def encode_json(data: Any) -> bytes:
    """A JSON body as Starlette's ``JSONResponse`` renders it."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False, indent=None,
                      separators=(",", ":")).encode()


async def send_json(send: Send, data: Any, status: int = 200,
                    headers: dict[str, str] | None = None) -> None:
    await send_body(send, encode_json(data), status, headers)


async def send_body(send: Send, body: bytes, status: int = 200,
                    headers: dict[str, str] | None = None) -> None:
    """A whole JSON answer (``body`` already encoded), with extra ``headers``."""
    extra = [(k.lower().encode("latin-1"), v.encode("latin-1"))
             for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-length", b"%d" % len(body)), JSON_TYPE, *extra]})
    await send({"type": "http.response.body", "body": body})


def header(scope: Scope, name: bytes) -> str | None:
    """The first value of the header ``name`` (lower case), ``None`` without one."""
    for key, value in scope["headers"]:
        if key == name:
            return str(value.decode("latin-1"))
    return None


def bearer(scope: Scope) -> str | None:
    """The request's Bearer token, as :func:`chessarbiter.server.http.auth.bearer` reads it."""
    scheme, _, value = (header(scope, b"authorization") or "").partition(" ")
    value = value.strip()
    return value if scheme.lower() == "bearer" and value else None


def query(scope: Scope) -> dict[str, str]:
    """The query string's parameters (the last of a repeated one wins, as Starlette's)."""
    text = scope.get("query_string", b"")
    return dict(parse_qsl(text.decode("latin-1"), keep_blank_values=True)) if text else {}


async def until_disconnected(receive: Receive) -> None:
    """Return once the client has gone away (the request's body read and dropped)."""
    while (await receive())["type"] != "http.disconnect":
        pass
