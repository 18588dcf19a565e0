"""``chessarbiter serve``: the game server (lichess Board API, browser pages, the arbiter's
routes) on one process with a SQLite file; ``--add-account NAME`` creates a named account and
prints its API token instead of serving."""

from __future__ import annotations

import argparse
import importlib
import socket
import sys
from pathlib import Path
from typing import Any, Final

from chessarbiter.cli.errors import CommandError

MAX_PORT = 65_535
BACKLOG = 2048
"""Connections waiting to be accepted (uvicorn's default)."""
SCALE_MODULES: Final = ("psycopg", "redis", "httpx")
"""The optional dependencies of the ``[scale]`` extra (PostgreSQL, the cluster's bus and its
forwarded requests)."""
SWITCH_S: Final = 0.001
"""How long a thread of the server (an engine's search, a ruling's analysis, the database
writer, the tournaments' thread) may hold the interpreter while the event loop waits for it:
CPython's default, 5 ms, made every turn of the loop wait about 5 ms while an engine thought
(1.2 ms with this)."""
STOP_S = 3
"""On Ctrl-C / SIGTERM, open game streams are cut after this many seconds (else the server
would wait for every spectator to leave); every acknowledged event is already stored."""


def register(subparsers: Any) -> None:
    """Add the ``serve`` subcommand."""
    parser = subparsers.add_parser("serve", help="serve games online (lichess Board API)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on "
                                                            "(default 127.0.0.1)")
    parser.add_argument("--port", default=8080, type=int, help="port (default 8080)")
    parser.add_argument("--db", default="games.sqlite",
                        help="the SQLite file of games and accounts (default games.sqlite), "
                             "or a postgresql:// URI (shared by a cluster)")
    parser.add_argument("--bus", metavar="URL",
                        help="redis://...: serve the games together with the other processes "
                             "on this bus and --db (needs a postgresql:// --db)")
    parser.add_argument("--advertise", metavar="HOST:PORT",
                        help="with --bus: where the other processes reach this one "
                             "(default --host:--port)")
    parser.add_argument("--add-account", metavar="NAME",
                        help="create a named account, print its API token and exit")
    parser.add_argument("--arbiter", action="store_true",
                        help="with --add-account: the account has the arbiter's role")
    parser.add_argument("--engine", action="append", default=[], metavar="NAME=SPEC",
                        help="an engine players may challenge: NAME=uci:COMMAND[;OPTION=VALUE"
                             "...] (repeatable)")
    parser.add_argument("--open-registration", action="store_true",
                        help="anyone may create a named account (POST /api/register)")
    parser.add_argument("--behind-proxy", action="store_true",
                        help="served behind a reverse proxy terminating TLS: trust its "
                             "X-Forwarded-Proto and X-Forwarded-For")
    parser.set_defaults(func=run)


def engines(specs: list[str]) -> dict[str, str]:
    """``--engine NAME=SPEC`` arguments, checked."""
    from chessarbiter.session.players import player_from_spec

    found: dict[str, str] = {}
    for spec in specs:
        name, equals, value = spec.partition("=")
        if not equals or not name.strip() or not value.strip():
            raise CommandError(f"--engine {spec!r}: expected NAME=SPEC")
        try:
            if player_from_spec(value.strip()) is None:
                raise ValueError("a human is not an engine")
        except ValueError as exc:
            raise CommandError(f"--engine {spec!r}: {exc}") from None
        found[name.strip()] = value.strip()
    return found


def backend(option: str, module: str) -> None:
    """Import ``module``, a backend needing the ``[scale]`` extra, or say in one line which
    package is missing and how to install it."""
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        missing = (exc.name or "").partition(".")[0]
        if missing not in SCALE_MODULES:
            raise
        raise CommandError(f"{option}: needs {missing}, of the optional extra [scale]: "
                           "pip install 'chessarbiter[scale]'") from None


def run(args: argparse.Namespace) -> int:
    from chessarbiter.server.accounts import AccountError, Role, insert_account
    from chessarbiter.server.config import ServerConfig
    from chessarbiter.server.games.db import Database
    from chessarbiter.store.base import StoreError
    from chessarbiter.store.names import is_postgres

    if not 0 <= args.port <= MAX_PORT:
        raise CommandError(f"--port {args.port}: expected 0-{MAX_PORT}")
    if args.arbiter and args.add_account is None:
        raise CommandError("--arbiter: only with --add-account NAME")
    if is_postgres(args.db):
        backend("--db", "chessarbiter.server.games.pgdb")
    if args.bus is not None:
        backend("--bus", "chessarbiter.server.cluster.cluster")
    if args.add_account is not None:
        role = Role.ARBITER if args.arbiter else Role.PLAYER
        db = Database(args.db)
        try:
            db.start()
            account, token, _ = db.call(
                lambda store, conn: insert_account(conn, args.add_account, role))
        except (AccountError, StoreError) as exc:
            raise CommandError(f"--add-account: {exc}") from None
        finally:
            db.close()
        print(f"{account.name} ({role.value}): {token}")
        return 0
    if args.bus is not None and not is_postgres(args.db):
        raise CommandError("--bus: a cluster needs a shared database: --db postgresql://...")
    if args.advertise is not None and args.bus is None:
        raise CommandError("--advertise: only with --bus")
    where = args.db if is_postgres(args.db) else Path(args.db)
    config = ServerConfig(host=args.host, port=args.port, db=where, bus=args.bus,
                          advertise=args.advertise,
                          engines=engines(args.engine),
                          open_registration=args.open_registration,
                          behind_proxy=args.behind_proxy)
    return serve(config)


def serve(config: Any) -> int:
    """Serve until interrupted: ``serving on URL`` once the server listens and has started;
    an address it cannot listen on is a bad argument, said in one line."""
    import uvicorn

    from chessarbiter.server.app import create_app
    from chessarbiter.server.games.db import Database
    from chessarbiter.store.base import StoreError

    try:  # a database that cannot be opened is a bad argument, said in one line
        probe = Database(config.db)
        probe.start()
        probe.close()
    except StoreError as exc:
        raise CommandError(f"--db: {exc}") from None
    sockets = listen(config.host, config.port, BACKLOG)
    sys.setswitchinterval(SWITCH_S)
    try:
        app = create_app(config)  # with the fast path, and forwarding in a cluster
        # uvloop and httptools (uvicorn[standard]) are taken when installed; no access log: a
        # line per move would cost more than the move
        settings = uvicorn.Config(app, host=config.host, port=config.port, access_log=False,
                                  log_level="warning", timeout_graceful_shutdown=STOP_S,
                                  backlog=BACKLOG)
        port = sockets[0].getsockname()[1]
        host = f"[{config.host}]" if ":" in config.host else config.host
        started_line = f"chessarbiter serving on http://{host}:{port}/"

        class Server(uvicorn.Server):
            """Uvicorn's server, which says where it serves once it has started."""

            async def startup(self, sockets: list[socket.socket] | None = None) -> None:
                await super().startup(sockets)
                print(started_line, flush=True)

        Server(settings).run(sockets)
    finally:
        for sock in sockets:
            sock.close()
    return 0


def listen(host: str, port: int, backlog: int) -> list[socket.socket]:
    """Listening sockets on every address ``host`` names (as asyncio's ``create_server``
    would open them); ``CommandError`` naming the address and the reason if one cannot be
    opened."""
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        reason = (exc.strerror or str(exc)).lower()
        raise CommandError(f"--host: cannot listen on {where}: {reason}") from None
    sockets: list[socket.socket] = []
    try:
        for family, kind, proto, address in dict.fromkeys(
            (family, kind, proto, address) for family, kind, proto, _, address in found
        ):
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
            sock.listen(backlog)
    except OSError as exc:
        for sock in sockets:
            sock.close()
        reason = (exc.strerror or str(exc)).lower()
        raise CommandError(f"--host/--port: cannot listen on {where}: {reason}") from None
    return sockets
