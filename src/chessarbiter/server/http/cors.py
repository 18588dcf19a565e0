"""CORS for the API as lichess serves it: any site's page may call the API routes with an
account's token (``Authorization: Bearer``), never with the browser's cookies (no
``Access-Control-Allow-Credentials``: a browser sends no cookie cross-site with ``*``);
an ``OPTIONS`` preflight is answered 204 before routing. The browser sign-in
(``/api/session``, cookies) and the pages are left same-site."""

from __future__ import annotations

from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

API_PREFIXES: Final = ("/api/", "/game/export/")
SAME_SITE_ONLY: Final = ("/api/session",)
ALLOW_ORIGIN: Final = (b"access-control-allow-origin", b"*")
PREFLIGHT: Final = (
    ALLOW_ORIGIN,
    (b"access-control-allow-methods", b"GET, POST, DELETE, OPTIONS"),
    (b"access-control-allow-headers", b"Authorization, Content-Type, Accept"),
    (b"access-control-max-age", b"1728000"),
)


def is_api(path: str) -> bool:
    return path.startswith(API_PREFIXES) and not path.startswith(SAME_SITE_ONLY)


class Cors:
    """``Access-Control-Allow-Origin: *`` on the API's answers; preflights answered."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not is_api(scope["path"]):
            await self.app(scope, receive, send)
            return
        if scope["method"] == "OPTIONS":
            await send({"type": "http.response.start", "status": 204,
                        "headers": list(PREFLIGHT)})
            await send({"type": "http.response.body", "body": b""})
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), ALLOW_ORIGIN]
            await send(message)

        await self.app(scope, receive, sending)
