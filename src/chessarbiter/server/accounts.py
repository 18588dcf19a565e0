"""Who may act: named accounts with API tokens (kept as hashes) and the arbiter role, the
browser sessions opened with those tokens, and the per-game secrets of anonymous players
(all kept as hashes), and how each is stored in the server's database (what the server
knows of them: :class:`chessarbiter.server.members.Members`)."""

from __future__ import annotations

import hashlib
import re
import secrets
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Final

NAME: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{1,29}")
"""An account name: 2 to 30 letters, digits, ``_`` or ``-``, starting with a letter or
digit (as lichess user names)."""
TOKEN_PREFIX: Final = "cha_"
"""Every account's API token starts so (a game secret does not)."""
COLUMNS: Final = "id, name, token_hash, role, created_ms"
SESSION_PREFIX: Final = "chs_"
"""Every browser session's secret starts so."""
COOKIE_PREFIX: Final = "chessarbiter-"
"""The cookie ``chessarbiter-GAMEID`` holds a game's secret for the browser."""
SESSION_COOKIE: Final = "chessarbiter-session"
"""The browser session's cookie (HttpOnly): an account signed in (``POST /api/session``)."""
SESSION_DAYS: Final = 30
"""A browser session lasts this many days (then its cookie is no one's)."""
DAY_MS: Final = 24 * 60 * 60 * 1000


def wall_ms() -> int:
    return time.time_ns() // 1_000_000


class Role(Enum):
    """What an account may do beyond playing its own games."""

    PLAYER = "player"
    ARBITER = "arbiter"
    """Rules on every game: adds time, declares results, rules on pending claims."""
    BOT = "bot"
    """A player whose moves come from a program (lichess' BOT title, for the Bot API)."""


@dataclass(frozen=True, slots=True)
class Account:
    """A named account; ``id`` is the name in lower case (names are unique regardless of
    case)."""

    id: str
    name: str
    role: Role
    created_ms: int = 0

    @property
    def is_arbiter(self) -> bool:
        return self.role is Role.ARBITER

    @property
    def is_bot(self) -> bool:
        return self.role is Role.BOT


class AccountError(ValueError):
    """A name that cannot be an account, or is taken; the message says which."""


def new_secret(prefix: str = "") -> str:
    """A random token (192 bits), URL-safe."""
    return prefix + secrets.token_urlsafe(24)


def hash_secret(secret: str) -> str:
    """The stored form of a token or game secret (SHA-256, hex: tokens are random, so no
    salt or stretching is needed)."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def check_name(name: str) -> str:
    """``name`` if it is a valid account name; :class:`AccountError` saying why not."""
    if not NAME.fullmatch(name):
        raise AccountError(f"account name {name[:40]!r}: expected 2-30 letters, digits, '_' "
                           "or '-', starting with a letter or digit")
    return name


class Accounts:
    """Every account, in memory, found by token hash or by name."""

    def __init__(self) -> None:
        self._by_hash: dict[str, Account] = {}
        self._by_id: dict[str, Account] = {}

    def load(self, conn: sqlite3.Connection) -> None:
        """Read every account from the database."""
        for account_id, name, token_hash, role, created in conn.execute(
                f"SELECT {COLUMNS} FROM server_accounts"):
            self.remember(Account(account_id, name, Role(role), created), token_hash)

    def remember(self, account: Account, token_hash: str) -> None:
        self._by_hash[token_hash] = account
        self._by_id[account.id] = account

    def replace(self, account: Account) -> None:
        """The account ``account.id`` is now ``account`` (e.g. upgraded to a BOT)."""
        self._by_id[account.id] = account
        for digest, known in list(self._by_hash.items()):
            if known.id == account.id:
                self._by_hash[digest] = account

    def forget(self, token_hash: str) -> None:
        """Drop a token no longer in the database (its account stays known by name)."""
        self._by_hash.pop(token_hash, None)

    def by_token(self, token: str) -> Account | None:
        return self._by_hash.get(hash_secret(token))

    def knows(self, token_hash: str) -> bool:
        return token_hash in self._by_hash

    def by_id(self, account_id: str) -> Account | None:
        return self._by_id.get(account_id)

    def by_name(self, name: str) -> Account | None:
        return self._by_id.get(name.lower())

    def __len__(self) -> int:
        return len(self._by_id)


class Sessions:
    """Browser sessions known to this process: a session's secret (stored hashed, in the
    table ``server_sessions``) stands for the account that signed in with its API token,
    for :data:`SESSION_DAYS` days."""

    def __init__(self, now_ms: Callable[[], int]) -> None:
        self.now_ms = now_ms
        """Wall-clock milliseconds (a session's age)."""
        self._accounts: dict[str, tuple[str, int]] = {}
        """The account id and opening time of each session, by the hash of its secret."""

    def load(self, conn: sqlite3.Connection) -> None:
        """Read the sessions not yet expired from the database."""
        oldest = self.now_ms() - SESSION_DAYS * DAY_MS
        for digest, account_id, created in conn.execute(
                "SELECT token_hash, account, created_ms FROM server_sessions "
                "WHERE created_ms > ?", (oldest,)):
            self.remember(digest, account_id, created)

    def remember(self, digest: str, account_id: str, created_ms: int) -> None:
        self._accounts[digest] = (account_id, created_ms)

    def forget(self, digest: str) -> None:
        self._accounts.pop(digest, None)

    def knows(self, digest: str) -> bool:
        return digest in self._accounts

    def account_id(self, secret: str) -> str | None:
        """The account signed in by the session ``secret`` (``None``: none, or expired)."""
        found = self._accounts.get(hash_secret(secret))
        if found is None or found[1] <= self.now_ms() - SESSION_DAYS * DAY_MS:
            return None
        return found[0]


def insert_session(conn: sqlite3.Connection, account_id: str, created_ms: int
                   ) -> tuple[str, str]:
    """A new session for the account ``account_id``: its secret and the secret's hash."""
    secret = new_secret(SESSION_PREFIX)
    digest = hash_secret(secret)
    conn.execute("INSERT INTO server_sessions (token_hash, account, created_ms) "
                 "VALUES (?, ?, ?)", (digest, account_id, created_ms))
    return secret, digest


def delete_session(conn: sqlite3.Connection, digest: str) -> None:
    """End the session whose secret hashes to ``digest``."""
    conn.execute("DELETE FROM server_sessions WHERE token_hash = ?", (digest,))


def select_session(conn: sqlite3.Connection, digest: str) -> tuple[str, int] | None:
    """The account id and opening time of the session whose secret hashes to ``digest``."""
    row = conn.execute("SELECT account, created_ms FROM server_sessions WHERE token_hash = ?",
                       (digest,)).fetchone()
    return None if row is None else (str(row[0]), int(row[1]))


def select_account(conn: sqlite3.Connection, column: str, value: str
                   ) -> tuple[Account, str] | None:
    """The account whose ``column`` (``id`` or ``token_hash``) is ``value`` in the database,
    with its token's hash; ``None`` if there is none."""
    if column not in ("id", "token_hash"):
        raise ValueError(f"column {column!r}: expected id or token_hash")
    row = conn.execute(f"SELECT {COLUMNS} FROM server_accounts WHERE {column} = ?",
                       (value,)).fetchone()
    if row is None:
        return None
    account_id, name, token_hash, role, created = row
    return Account(account_id, name, Role(role), created), token_hash


def insert_account(conn: sqlite3.Connection, name: str, role: Role = Role.PLAYER
                   ) -> tuple[Account, str, str]:
    """Create an account in the database: the account, its new token (shown once) and the
    token's hash; :class:`AccountError` if the name is invalid or taken."""
    check_name(name)
    token = new_secret(TOKEN_PREFIX)
    digest = hash_secret(token)
    account = Account(name.lower(), name, role, wall_ms())
    added = conn.execute(  # SQLite's and PostgreSQL's SQL alike
        "INSERT INTO server_accounts VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
        (account.id, name, digest, role.value, account.created_ms)).rowcount
    if added != 1:
        raise AccountError(f"account name {name!r} is taken")
    return account, token, digest


def upgrade_to_bot(conn: sqlite3.Connection, account: Account) -> Account:
    """Make a player's account a BOT account (lichess' ``/api/bot/account/upgrade``): the
    account as it now is; :class:`AccountError` for an arbiter's account (a BOT plays only)."""
    if account.is_bot:
        return account
    if account.is_arbiter:
        raise AccountError(f"account {account.name!r} is an arbiter's: it cannot be a BOT")
    conn.execute("UPDATE server_accounts SET role = ? WHERE id = ?", (Role.BOT.value, account.id))
    return Account(account.id, account.name, Role.BOT, account.created_ms)
