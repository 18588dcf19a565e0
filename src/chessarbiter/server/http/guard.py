"""ASGI middleware guarding the app: a request's body is refused (413) once it passes
:data:`~chessarbiter.server.limits.MAX_BODY_BYTES`, from its ``Content-Length`` before a
byte is read, or while it is read (a body sent in chunks); every answer carries the
security headers (:data:`SECURITY_HEADERS`)."""

from __future__ import annotations

from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from chessarbiter.server.errors import ApiError
from chessarbiter.server.http.asgi import header, send_json
from chessarbiter.server.limits import MAX_BODY_BYTES

CSP: Final = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
               "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
               "form-action 'self'; frame-ancestors 'none'")
"""The pages' content policy: scripts only from the server's files (the templates hold no
inline script or handler), nothing framing them."""
SECURITY_HEADERS: Final = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
)


class SecurityHeaders:
    """Add :data:`SECURITY_HEADERS` to every answer (those it does not set itself)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {key.lower() for key, _ in headers}
                headers += [(k, v) for k, v in SECURITY_HEADERS if k not in present]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, sending)


class BodyTooLarge(ApiError):
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request's body is larger than {limit} bytes")


class BodyLimit:
    """Refuse bodies larger than ``limit`` bytes (413): by their declared length at once,
    else as soon as the bytes received pass it (the endpoint reading the body gets
    :class:`BodyTooLarge`, answered as any :class:`ApiError`)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = header(scope, b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await send_json(send, {"error": BodyTooLarge(self.limit).message}, 413,
                            {"connection": "close"})
            return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise BodyTooLarge(self.limit)
            return message

        await self.app(scope, limited, send)
