"""What the server knows of its accounts and browser sessions (:class:`Members`): read from
its database at the start, written there as they are made, and read from it again, so that
an account made while the server runs (by ``chessarbiter serve --add-account`` beside a
running server, or through another process of a cluster) works at once, and a token or
session changed or removed in the database stops working within :data:`CHECK_S`.

Every request's token and session cookie are checked before it is served
(:class:`CheckAccounts`): one not known here is read from the database first (and, found
nowhere, is not read again for :data:`CHECK_S`: a flood of made-up tokens costs one read
each); one known here is read again in the background once :data:`CHECK_S` has passed, so
that a known player's request never waits for the database (nor is a move's time charged
for it)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable, Coroutine, MutableMapping
from typing import Any, Final, Protocol, TypeVar

from chessarbiter.server.accounts import (
    SESSION_COOKIE,
    TOKEN_PREFIX,
    Account,
    Accounts,
    Role,
    Sessions,
    delete_session,
    hash_secret,
    insert_account,
    insert_session,
    select_account,
    select_session,
    wall_ms,
)

log = logging.getLogger(__name__)

CHECK_S: Final = 60.0
"""How long what was read of a token or session is trusted before it is read again."""
MAX_CHECKED: Final = 100_000
"""The most tokens and sessions remembered as read (known or not) before the memory starts
afresh."""

T = TypeVar("T")
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


class Runs(Protocol):
    """A database thread (the game writer, or the reader)."""

    async def run(self, work: Callable[[Any, sqlite3.Connection], T]) -> T:
        """``work(store, conn)`` in the thread."""


class Members:
    """The server's accounts and browser sessions: known in memory (:attr:`accounts`,
    :attr:`sessions`), written to its database through ``db``, read from it through
    ``reader`` (``db`` when not given)."""

    def __init__(self, db: Runs, reader: Runs | None = None) -> None:
        self.db = db
        self.reader = reader or db
        self.accounts = Accounts()
        self.sessions = Sessions(wall_ms)
        """The browsers signed in (``POST /api/session``)."""
        self.clock: Callable[[], float] = time.monotonic
        """The seconds by which tokens and sessions are read again (replaceable by tests)."""
        self._checked: dict[str, float] = {}
        """When each token's or session's hash was last read from the database."""
        self._reading: set[asyncio.Task[None]] = set()

    def load(self, conn: sqlite3.Connection) -> None:
        """Read the accounts and the open sessions from the database."""
        self.accounts.load(conn)
        self.sessions.load(conn)

    async def named(self, name: str) -> Account | None:
        """The account named ``name``, from the database if it is not known here."""
        known = self.accounts.by_name(name)
        if known is not None:
            return known
        found = await self.reader.run(
            lambda store, conn: select_account(conn, "id", name.lower()))
        if found is None:
            return None
        self.accounts.remember(*found)
        self._read(found[1])
        return found[0]

    async def add(self, name: str, role: Role = Role.PLAYER) -> tuple[Account, str]:
        """A new named account and its API token (shown once; kept hashed);
        :class:`~chessarbiter.server.accounts.AccountError` if the name is invalid or
        taken."""
        account, token, digest = await self.db.run(
            lambda store, conn: insert_account(conn, name, role))
        self.accounts.remember(account, digest)
        self._read(digest)
        return account, token

    async def open_session(self, account: Account) -> str:
        """A new browser session for ``account`` (stored): its secret, for the cookie."""
        created = wall_ms()
        secret, digest = await self.db.run(
            lambda store, conn: insert_session(conn, account.id, created))
        self.sessions.remember(digest, account.id, created)
        self._read(digest)
        return secret

    async def close_session(self, secret: str) -> None:
        """End the browser session ``secret``."""
        digest = hash_secret(secret)
        await self.db.run(lambda store, conn: delete_session(conn, digest))
        self.sessions.forget(digest)

    async def check_token(self, token: str) -> None:
        """Make what is known of the API token ``token`` current (see the module)."""
        digest = hash_secret(token)
        if self._due(digest):
            await self._refresh(digest, self.accounts.knows(digest), self._read_token)

    async def check_session(self, secret: str) -> None:
        """Make what is known of the browser session ``secret`` current (see the module)."""
        digest = hash_secret(secret)
        if self._due(digest):
            await self._refresh(digest, self.sessions.knows(digest), self._read_session)

    async def settled(self) -> None:
        """Once the reads started in the background are done."""
        while self._reading:
            await asyncio.gather(*self._reading)

    def _due(self, digest: str) -> bool:
        return self.clock() - self._checked.get(digest, -CHECK_S) >= CHECK_S

    def _read(self, digest: str) -> None:
        if len(self._checked) >= MAX_CHECKED:  # a flood of made-up tokens: start afresh
            self._checked.clear()
        self._checked[digest] = self.clock()

    async def _refresh(self, digest: str, known: bool,
                       read: Callable[[str], Coroutine[Any, Any, None]]) -> None:
        """Read ``digest`` now if it is not ``known``, else in the background (marked as
        read at once, so that the requests meanwhile start no other read)."""
        if not known:
            await read(digest)
            return
        self._read(digest)
        task = asyncio.get_running_loop().create_task(read(digest))
        self._reading.add(task)
        task.add_done_callback(self._reading.discard)

    async def _read_token(self, digest: str) -> None:
        try:
            found = await self.reader.run(
                lambda store, conn: select_account(conn, "token_hash", digest))
        except Exception as exc:  # the database away: what is known stands meanwhile
            log.error("accounts: cannot read an account: %s", exc)
            self._checked.pop(digest, None)
            return
        self._read(digest)  # a token found nowhere too: not read again for a while
        if found is None:
            self.accounts.forget(digest)
        else:
            self.accounts.remember(*found)

    async def _read_session(self, digest: str) -> None:
        try:
            found = await self.reader.run(lambda store, conn: select_session(conn, digest))
            if found is not None:
                await self.named(found[0])
        except Exception as exc:  # the database away: what is known stands meanwhile
            log.error("accounts: cannot read a session: %s", exc)
            self._checked.pop(digest, None)
            return
        self._read(digest)
        if found is None:
            self.sessions.forget(digest)
        else:
            self.sessions.remember(digest, *found)


def header(scope: Scope, name: bytes) -> bytes | None:
    """The request's header ``name`` (in lower case), if it has one."""
    for key, value in scope["headers"]:
        if key == name:
            found: bytes = value
            return found
    return None


def bearer_token(scope: Scope) -> str | None:
    """The request's account token (``Authorization: Bearer cha_...``), if it has one."""
    value = header(scope, b"authorization")
    if value is None:
        return None
    scheme, _, token = value.decode("latin-1").partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token.startswith(TOKEN_PREFIX) else None


def session_secret(scope: Scope) -> str | None:
    """The request's browser session secret (the cookie :data:`SESSION_COOKIE`), if any."""
    for key, value in scope["headers"]:
        if key == b"cookie":
            for part in value.decode("latin-1").split(";"):
                name, _, secret = part.strip().partition("=")
                if name == SESSION_COOKIE and secret:
                    return str(secret)
    return None


class CheckAccounts:
    """The server's entry: each HTTP request's token and session made current
    (:meth:`Members.check_token`, :meth:`Members.check_session`) before ``app`` serves it."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]],
                 members: Members) -> None:
        self.app = app
        self.members = members

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            token = bearer_token(scope)
            if token is not None:
                await self.members.check_token(token)
            secret = session_secret(scope)
            if secret is not None:
                await self.members.check_session(secret)
        await self.app(scope, receive, send)
