"""The answers to a request that failed: an :class:`ApiError` as lichess answers it
(``{"error": "..."}``), a database that fails as 503, a client gone before its request was
read as 400 (to no one; not logged as a failure), anything else as 500 (logged with its
traceback); the app's exception handlers, also the fast path's."""

from __future__ import annotations

import logging
import sqlite3

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

from chessarbiter.server.errors import ApiError
from chessarbiter.store.base import StoreError

log = logging.getLogger(__name__)


async def api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return JSONResponse({"error": exc.message}, status_code=exc.status, headers=exc.headers)


async def database_error(request: Request, exc: Exception) -> Response:
    """A database that fails (a full disk, a lost connection): 503 saying so."""
    log.error("%s %s: the database failed: %s", request.method, request.url.path, exc)
    cause = (str(exc) if isinstance(exc, sqlite3.Error)
             else str(exc).partition(": ")[2] if isinstance(exc, StoreError)
             else type(exc).__name__)  # the store's text without the file's path
    return JSONResponse({"error": f"the server's database failed ({cause}); nothing was "
                                  "changed, try again later"}, status_code=503)


async def client_gone(request: Request, exc: Exception) -> Response:
    """The client went away while its request was being read: nothing was done, and the
    answer reaches no one."""
    log.info("%s %s: the client went away before its request was read", request.method,
             request.url.path)
    return JSONResponse({"error": "the request was not received whole"}, status_code=400)


async def server_error(request: Request, exc: Exception) -> Response:
    """The last handler (and the fast path's): a failure of SQLite, the store or the
    PostgreSQL driver as :func:`database_error`; anything else a 500 naming the error's
    kind (logged with its traceback)."""
    if isinstance(exc, sqlite3.Error | StoreError) or \
            type(exc).__module__.partition(".")[0] == "psycopg":
        return await database_error(request, exc)
    if isinstance(exc, ClientDisconnect):
        return await client_gone(request, exc)
    log.exception("%s %s failed", request.method, request.url.path, exc_info=exc)
    return JSONResponse({"error": f"internal error: {type(exc).__name__}"}, status_code=500)
