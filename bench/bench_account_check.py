"""The cost the server's entry (``members.CheckAccounts``) adds to each request: a known
account's token made current (hashed, found read within ``CHECK_S``: no database read),
against the same request passed straight on. ``.venv/bin/python bench/bench_account_check.py``
prints CPU microseconds a request for both."""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

from chessarbiter.server.games.db import Database, Worker
from chessarbiter.server.members import CheckAccounts, Members

REQUESTS = 200_000


async def app(scope: Any, receive: Any, send: Any) -> None:
    """The rest of the server: nothing."""


async def receive() -> dict[str, Any]:
    return {"type": "http.request"}


async def send(message: Any) -> None:
    """Nothing is sent."""


async def main() -> None:
    path = Path(tempfile.mkdtemp()) / "games.sqlite"
    db = Database(path)
    db.start()
    members = Members(db, Worker(path, "chessarbiter-db-read"))
    _, token = await members.add("alice")
    scope = {"type": "http", "headers": [
        (b"host", b"127.0.0.1"), (b"authorization", f"Bearer {token}".encode()),
        (b"content-type", b"application/x-www-form-urlencoded")]}
    entry = CheckAccounts(app, members)
    for label, call in (("CheckAccounts", entry.__call__), ("passed straight on", app)):
        began = time.process_time()
        for _ in range(REQUESTS):
            await call(scope, receive, send)
        print(f"{label}: {(time.process_time() - began) / REQUESTS * 1e6:.2f} us a request")
    db.close()


if __name__ == "__main__":
    asyncio.run(main())
