"""Several server processes serving the same games: a PostgreSQL database they share, one
owner per game (a Redis lease, :mod:`~.lease`, with the store fenced by the lease's
token), and the Redis fan-out (:class:`chessarbiter.server.streams.bus.RedisFanout`). The
hub gets this process's part as its :class:`~chessarbiter.server.games.ownership.Ownership`
(:class:`Cluster`), chosen once when the server is assembled.

The owner of a game is the only process that stamps its moves, runs its flag timer and
writes its events. A request about a game reaching another process is forwarded over HTTP
to the owner's advertised address; a game stream opened there is relayed from the bus (its
first line, ``gameFull``, asked of the owner). A game no one holds is taken by the process
that is asked about it, or by the sweep that every process runs each second over the
unfinished games: when an owner dies its leases expire (:data:`~lease.TTL_MS`) and the games
are taken over, rebuilt from their logs and continue (the time the owner was gone is not
charged: each game's time continues from its last event, as after a restart).

The lobby is shared through Redis (:mod:`chessarbiter.server.lobby.cluster_lobby`): challenges
and seeks; the accounts' events go through the fan-out's channels. Accounts live in the
shared database, read from it again as in one process (:mod:`chessarbiter.server.members`):
an account made through another process works here at once."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections.abc import Awaitable, Callable, Collection, MutableMapping
from functools import partial
from typing import Any, Final

import httpx

from chessarbiter.arbiter.game import Game
from chessarbiter.server.accounts import COOKIE_PREFIX
from chessarbiter.server.cluster import RELAY_HEADER
from chessarbiter.server.cluster.host import ClusterHost
from chessarbiter.server.cluster.lease import TTL_MS, Lease, Leases
from chessarbiter.server.cluster.limits import PASSED_ON, RedisCounts
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.errors import ApiError, OwnedElsewhere
from chessarbiter.server.games import repository
from chessarbiter.server.games.db import Database, Worker
from chessarbiter.server.games.loading import Loader
from chessarbiter.server.games.meta import GameMeta
from chessarbiter.server.games.ownership import Fence
from chessarbiter.server.games.spectate import SPECTATORS
from chessarbiter.server.games.table import HubGame
from chessarbiter.server.limits import Limits, client_address
from chessarbiter.server.members import Members, bearer_token, header
from chessarbiter.server.streams.bus import RedisFanout
from chessarbiter.session.live import LiveGame
from chessarbiter.store.postgres import PostgresStore

log = logging.getLogger(__name__)

GameOf = Callable[[str, str], tuple[str, bool] | None]
"""The game a request is about by its method and path, and whether it asks for the game's
stream (the route table's routes about one game,
:meth:`chessarbiter.server.http.routes.Table.game_of`): forwarded to its owner."""
EVERY_GAME: Final = "/api/arbiter/games"
"""The arbiter's list of live games: gathered from every process holding games."""
SWEEP_S: Final = 1.0
"""How often each process looks for unfinished games no one holds."""
SWEEP_DORMANT: Final = 1000
"""How many of its dormant games each sweep asks about, after the first which asks about
them all (another process that loaded one owns it: it is dormant here no more, nor counted
among this process's games, and it is taken over when that owner dies)."""
MGET_CHUNK: Final = 5000
"""Leases asked about in one Redis command."""
OWNER_LOOK_S: Final = 1.0
"""While a request forwarded to a game's owner waits, how often its lease is looked at."""
KEEPALIVE_S: Final = 7.0
"""A relayed stream with nothing to say gets an empty line this often."""
HOP_HEADERS: Final = frozenset({"host", "connection", "keep-alive", "transfer-encoding",
                                "content-length", "upgrade", "te", "trailer"})

FORWARDED_HOP: Final = HOP_HEADERS - {"host"} | {PASSED_ON}
"""The headers not forwarded to a game's owner (the client's ``Host`` is: a request signed
by a cookie must come from the origin it names,
:func:`~chessarbiter.server.http.auth.check_origin`; the process forwarding a stream says
itself that it counts it)."""

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


class Cluster:
    """This process's part of the cluster: the leases it holds on the games of ``hub``
    (the game room, which drops a game another process owns now) (in the Redis at
    ``bus_url``), the games' bus of ``fanout`` (the streams it relays), and ``address``
    (``host:port``) where the others forward requests to it. It is given the services it
    uses: the configuration, the database's writer and reader, the accounts, the loader
    (the games in memory and the dormant ones) and the limits on streams."""

    def __init__(self, hub: ClusterHost, bus_url: str, fanout: RedisFanout, address: str,
                 counts: RedisCounts, *, config: ServerConfig, db: Database, reader: Worker,
                 members: Members, loader: Loader, limits: Limits,
                 ttl_ms: int = TTL_MS) -> None:
        self.hub = hub
        self.config = config
        self.db = db
        self.reader = reader
        self.members = members
        self.loader = loader
        self.limits = limits
        self.address = address
        self.counts = counts
        """The limits' counts shared with the other processes (the hub's limits')."""
        self.leases = Leases(bus_url, address, ttl_ms=ttl_ms, margin_ms=ttl_ms // 6)
        self.bus = fanout.games
        self.held: dict[str, Lease] = {}
        self.taking: dict[str, Lease] = {}
        """Leases taken whose games are being fenced in the store (not yet owned)."""
        self.taken_over: list[str] = []
        """Games this process took over from a dead or lost owner (by the sweep)."""
        self._dormant_at: int | None = None
        """Where the next sweep's look at the dormant games starts (``None``: the first
        sweep, which looks at them all)."""
        self._client: httpx.AsyncClient | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._renewer: threading.Thread | None = None
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        """Guards ``held`` and ``taking`` between the event loop and the renewing thread."""

    # -- life --------------------------------------------------------------------------

    async def start(self) -> None:
        """Open the client forwarding requests and the limits' counts (before the hub
        resumes the games it can take; the hub has started the fan-out)."""
        self._client = httpx.AsyncClient(timeout=httpx.Timeout(10.0, read=None))
        await self.counts.start()

    def run(self) -> None:
        """Start renewing the leases (in a thread of its own, so a busy event loop does not
        let them lapse) and sweeping for games no one holds."""
        self._renewer = threading.Thread(target=self._renewing, args=(asyncio.get_running_loop(),),
                                         daemon=True, name="chessarbiter-leases")
        self._renewer.start()
        self._tasks = [asyncio.create_task(self._sweeping())]

    async def stop(self) -> None:
        """Give the games up (the others take them at once) and disconnect."""
        self._stopping.set()
        if self._renewer is not None:
            await asyncio.to_thread(self._renewer.join)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        held, self.held = list(self.held.values()), {}
        await asyncio.to_thread(_release_all, self.leases, held)
        if self._client is not None:
            await self._client.aclose()
        await self.counts.stop()
        self.leases.close()

    # -- ownership ---------------------------------------------------------------------

    def owns(self, game_id: str) -> bool:
        """Whether this process may act as the game's owner now."""
        lease = self.held.get(game_id)
        return lease is not None and self.leases.valid(lease)

    async def claim(self, game_id: str, store_id: str) -> bool:
        """Take the game's lease and fence the store with its token; whether it is ours."""
        if self.owns(game_id):
            return True
        lease = await asyncio.to_thread(self.leases.take, game_id)
        if lease is None:
            return False
        with self._lock:
            self.taking[game_id] = lease  # renewed while the store is fenced (queued writes)
        token = lease.token
        try:
            await self.db.run(lambda store, conn: _fence(store, store_id, token))
        except ValueError as exc:
            log.error("game %s: cannot be fenced: %s", game_id, exc)
            with self._lock:
                lease = self.taking.pop(game_id, lease)
            await asyncio.to_thread(self.leases.release, lease)
            return False
        with self._lock:
            lease = self.taking.pop(game_id, lease)
            if not self.leases.valid(lease):
                return False
            self.held[game_id] = lease
        return True

    async def reserve(self, game_id: str) -> Fence:
        """Take a new game's lease before its row is written; the store is fenced with its
        token as the row is written."""
        lease = await asyncio.to_thread(self.leases.take, game_id)
        if lease is None:
            raise OwnedElsewhere(game_id, "another process holds this id")
        with self._lock:
            self.held[game_id] = lease
        return partial(_fence, token=lease.token)

    async def give_up(self, game_id: str) -> None:
        with self._lock:
            lease = self.held.pop(game_id, None)
        if lease is not None:
            await asyncio.to_thread(self.leases.release, lease)

    async def admit(self, game_id: str, store_id: str) -> bool:
        """Take the game before loading it: it resumes as taken over (its last owner may
        have been another process); :class:`OwnedElsewhere` (503) if another process holds
        it."""
        if not await self.claim(game_id, store_id):
            raise OwnedElsewhere(game_id)
        return True

    async def owner(self, game_id: str) -> str | None:
        """The address of the process owning the game when it is not this one."""
        if self.owns(game_id):
            return None
        holder = await asyncio.to_thread(self.leases.holder, game_id)
        return None if holder is None or holder.address == self.address else holder.address

    # -- accounts' games elsewhere ----------------------------------------------------

    async def playing_elsewhere(self, account: str, here: Collection[str]
                                ) -> list[dict[str, Any]]:
        """The ``game`` objects (as :meth:`HubGame.game_event`) of the unfinished games
        ``account`` plays that are not among ``here`` (read from the shared store: owned by
        another process)."""
        rows = await self.reader.run(lambda store, conn: repository.playing(conn, account))
        found = []
        for game_id, store_id, meta_text in rows:
            if game_id in here:
                continue
            entry = self.loader.games.get(game_id)
            if entry is None:
                meta = GameMeta.from_json(meta_text)
                game = await self.reader.run(_loader(store_id))
                entry = HubGame(meta, LiveGame(game, self.config.now_ms), 0)
            side = None if entry.over else entry.side_of(account, None)
            if side is not None:
                found.append(entry.game_event(side))
        return found

    def _renewing(self, loop: asyncio.AbstractEventLoop) -> None:
        """Renew every lease held, four times a lease's life; a game whose lease was lost
        is forgotten (on the event loop)."""
        while not self._stopping.wait(self.leases.ttl_ms / 4000):
            with self._lock:
                held = [*self.held.values(), *self.taking.values()]
            try:
                renewed = self.leases.renew_all(held)
            except Exception as exc:  # Redis unreachable: the leases lapse by themselves
                log.error("cluster: cannot renew the leases: %s", exc)
                continue
            lost = []
            with self._lock:
                for lease, new in zip(held, renewed, strict=True):
                    game_id = lease.game_id
                    if self.taking.get(game_id) is lease:
                        if new is not None:
                            self.taking[game_id] = new
                    elif self.held.get(game_id) is lease:
                        if new is None:
                            del self.held[game_id]
                            lost.append(game_id)
                        else:
                            self.held[game_id] = new
            for game_id in lost:
                log.warning("game %s: lease lost; another process owns it", game_id)
                loop.call_soon_threadsafe(self._forget, game_id)

    def _forget(self, game_id: str) -> None:
        entry = self.loader.games.get(game_id)
        if entry is not None and not self.owns(game_id):
            self.hub.forget(entry)

    async def _sweeping(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_S)
            try:
                await self.sweep()
            except Exception as exc:  # the database or Redis away: next time
                log.error("cluster: sweep failed: %s", exc)

    async def sweep(self) -> int:
        """Take and resume the unfinished games no process holds (their owner died) but
        those dormant here since the start (loaded when asked for or due); how many."""
        games, dormant_games = self.loader.games, self.loader.dormant
        rows = await self.loader.unfinished()
        free = [row for row in rows if row[0] not in games and row[0] not in dormant_games]
        dormant = list(dormant_games.games)
        if self._dormant_at is None:
            looked, self._dormant_at = dormant, 0
        else:
            start = self._dormant_at if self._dormant_at < len(dormant) else 0
            looked = dormant[start:start + SWEEP_DORMANT]
            self._dormant_at = start + len(looked)
        if not free and not looked:
            return 0
        holders = await asyncio.to_thread(_held_flags, self.leases,
                                          [*(r[0] for r in free), *looked])
        for game_id, held in zip(looked, holders[len(free):], strict=True):
            if held and not self.owns(game_id) and game_id not in self.taking:  # another
                dormant_games.pop(game_id)  # process loaded it
        count = 0
        for (game_id, store_id), held in zip(free, holders[:len(free)], strict=True):
            if held or game_id in games or self.owns(game_id):
                continue  # another process holds it, or this one is loading it
            if not await self.claim(game_id, store_id):
                continue
            try:
                await self.loader.resume(game_id, store_id)
            except ValueError as exc:
                log.error("game %s cannot be resumed: %s", game_id, exc)
                continue
            self.taken_over.append(game_id)
            count += 1
        return count

    # -- forwarding --------------------------------------------------------------------

    async def forward(self, game_id: str, address: str, scope: Scope, receive: Receive,
                      send: Send) -> None:
        """Send the request to the owner at ``address`` and its answer back. A slow owner
        is waited for as long as it holds the game; one that stops renewing (stalled,
        starved of CPU) is given up once its lease lapses: 503, try again (the game is
        then taken over here or elsewhere)."""
        assert self._client is not None
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers, url = _forwarded(address, scope)
        asked = asyncio.ensure_future(self._client.request(
            scope["method"], url, headers=headers, content=body))
        try:
            while not (await asyncio.wait((asked,), timeout=OWNER_LOOK_S))[0]:
                if await self.owner(game_id) != address:
                    asked.cancel()
                    await _json(send, 503, {"error": f"the game's owner ({address}) "
                                                     "stopped holding it; try again"})
                    return
            answer = asked.result()
        except httpx.HTTPError as exc:
            await _json(send, 503, {"error": f"the game's owner ({address}) does not "
                                             f"answer ({type(exc).__name__}); try again"})
            return
        finally:
            asked.cancel()
        await send({"type": "http.response.start", "status": answer.status_code,
                    "headers": [(k.encode(), v.encode()) for k, v in answer.headers.items()
                                if k.lower() not in HOP_HEADERS]})
        await send({"type": "http.response.body", "body": answer.content})

    async def forward_stream(self, address: str, scope: Scope, receive: Receive,
                             send: Send) -> None:
        """A stream served by the owner at ``address``, passed on as it comes until it
        ends or the client goes away (the owner then sees it close): the owner counts a
        player's stream at the board and sends it what is his alone (``opponentGone``, the
        player room's chat)."""
        assert self._client is not None
        headers, url = _forwarded(address, scope)
        headers.append(self.counts.passed_on())  # counted here (the client's process)
        gone = asyncio.create_task(_disconnected(receive))
        try:
            try:
                answer = await self._client.send(
                    self._client.build_request("GET", url, headers=headers), stream=True)
            except httpx.HTTPError as exc:
                await _json(send, 503, {"error": f"the game's owner ({address}) does not "
                                                 f"answer ({type(exc).__name__})"})
                return
            try:
                await send({"type": "http.response.start", "status": answer.status_code,
                            "headers": [(k.encode(), v.encode())
                                        for k, v in answer.headers.items()
                                        if k.lower() not in HOP_HEADERS]})
                chunks = answer.aiter_raw()
                while True:
                    getter = asyncio.ensure_future(anext(chunks))
                    await asyncio.wait((getter, gone), return_when=asyncio.FIRST_COMPLETED)
                    if gone.done():
                        getter.cancel()
                        return
                    try:
                        chunk = getter.result()
                    except (StopAsyncIteration, httpx.HTTPError):
                        break  # the end, or the owner gone: the client streams again
                    await send({"type": "http.response.body", "body": chunk,
                                "more_body": True})
                await send({"type": "http.response.body", "body": b""})
            finally:
                await answer.aclose()
        finally:
            gone.cancel()

    async def gather(self, scope: Scope, send: Send) -> None:
        """The arbiter's list of games (:data:`EVERY_GAME`) as every process holding games
        answers it (``local=true``: each its own), in one list; the first refusal (a token
        that is no arbiter's) as it is."""
        assert self._client is not None
        addresses = {self.address, *await asyncio.to_thread(_holders, self.leases)}
        headers = [(k.decode(), v.decode()) for k, v in scope["headers"]
                   if k.decode().lower() not in HOP_HEADERS]
        query = scope.get("query_string", b"").decode()
        url = f"{EVERY_GAME}?{query}{'&' if query else ''}local=true"
        answers = await asyncio.gather(*(
            self._client.get(f"http://{address}{url}", headers=headers)
            for address in sorted(addresses)), return_exceptions=True)
        games: list[Any] = []
        for address, answer in zip(sorted(addresses), answers, strict=True):
            if isinstance(answer, BaseException):
                log.warning("cluster: %s does not list its games: %s", address, answer)
                continue
            if answer.status_code != 200:
                await _json(send, answer.status_code, answer.json())
                return
            games += answer.json()["games"]
        await _json(send, 200, {"games": games})

    async def relay(self, game_id: str, address: str, receive: Receive, send: Send) -> None:
        """A game stream served from the bus: ``gameFull`` asked of the owner, then every
        line the owner publishes (older states that crossed the first line left out),
        until the game ends or the client goes away."""
        assert self._client is not None
        queue = await self.bus.subscribe(game_id)
        gone = asyncio.create_task(_disconnected(receive))
        try:
            try:
                answer = await self._client.get(f"http://{address}/api/game/{game_id}",
                                                headers={RELAY_HEADER: self.address})
            except httpx.HTTPError as exc:
                await _json(send, 503, {"error": f"the game's owner ({address}) does not "
                                                 f"answer ({type(exc).__name__})"})
                return
            if answer.status_code != 200:
                await _json(send, answer.status_code, answer.json())
                return
            full = answer.json()
            for key in ("legalMoves", "you"):
                full.pop(key, None)
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-type", b"application/x-ndjson")]})
            first = json.dumps(full, separators=(",", ":")).encode() + b"\n"
            await send({"type": "http.response.body", "body": first, "more_body": True})
            state = full.get("state", {})
            if state.get("status") not in ("created", "started"):
                await send({"type": "http.response.body", "body": b""})
                return
            known = len(state.get("moves", "").split())
            crossing = queue.qsize()
            while True:
                getter = asyncio.create_task(queue.get())
                await asyncio.wait((getter, gone), timeout=KEEPALIVE_S,
                                   return_when=asyncio.FIRST_COMPLETED)
                if gone.done():
                    getter.cancel()
                    return
                if not getter.done():
                    getter.cancel()
                line = getter.result() if getter.done() and not getter.cancelled() else b"\n"
                if line is None:
                    break
                if crossing > 0:
                    crossing -= 1
                    if _moves(line) < known:
                        continue
                await send({"type": "http.response.body", "body": line, "more_body": True})
            await send({"type": "http.response.body", "body": b""})
        finally:
            gone.cancel()
            await self.bus.unsubscribe(game_id, queue)


class Forwarding:
    """ASGI middleware: a request about a game another process owns goes to that process
    (a game stream is relayed from the bus); everything else is served here, a request
    from a process relaying the game (:data:`RELAY_HEADER`) making its lines go on the bus
    from then on."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]],
                 cluster: Cluster, game_of: GameOf) -> None:
        self.app = app
        self.cluster = cluster
        self.game_of = game_of

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        found = self.game_of(scope["method"], scope["path"])
        if found is not None:
            game_id, stream = found
            address = await self.cluster.owner(game_id)
            if address is not None:
                if stream:
                    await self._stream(game_id, address, scope, receive, send)
                    return
                await self.cluster.forward(game_id, address, scope, receive, send)
                return
            if header(scope, RELAY_HEADER.encode()) is not None:  # another process asks
                self.cluster.bus.watch(game_id)  # for a stream's first line: it relays it
        if scope["path"] == EVERY_GAME and scope["method"] == "GET" and \
                b"local=true" not in scope.get("query_string", b""):
            await self.cluster.gather(scope, send)
            return
        await self.app(scope, receive, send)


    async def _stream(self, game_id: str, address: str, scope: Scope,
                      receive: Receive, send: Send) -> None:
        """A stream of a game another process owns, counted among the client's streams
        (429 beyond the limits, as a stream served here): the board stream of someone who
        says who he is (a player, it may be) and the spectators' ``MoveStream`` are served
        by the owner and passed on; an anonymous board stream is relayed from the bus."""
        cluster = self.cluster
        token = bearer_token(scope)  # made current by the entry (CheckAccounts)
        account = None if token is None else cluster.members.accounts.by_token(token)
        try:
            closed = await cluster.limits.open_stream(
                None if account is None else account.id,
                client_address(scope, cluster.config.behind_proxy), scope)
        except ApiError as exc:
            await _json(send, exc.status, {"error": exc.message})
            return
        try:
            with contextlib.suppress(OSError):  # the client went away
                if scope["path"].startswith(SPECTATORS) or _credentials(scope):
                    await self.cluster.forward_stream(address, scope, receive, send)
                else:
                    await self.cluster.relay(game_id, address, receive, send)
        finally:
            closed()


def _forwarded(address: str, scope: Scope) -> tuple[list[tuple[str, str]], str]:
    """The headers and URL of the request for the owner at ``address``."""
    headers = [(k.decode(), v.decode()) for k, v in scope["headers"]  # with the Host:
               if k.decode().lower() not in FORWARDED_HOP]  # the Origin checked against it
    query = scope.get("query_string", b"").decode()
    return headers, f"http://{address}{scope['path']}" + (f"?{query}" if query else "")


def _credentials(scope: Scope) -> bool:
    """Whether the request says who sends it: a token or a game secret (``Authorization``),
    or one of the server's cookies (a game's secret, a browser session)."""
    for key, value in scope["headers"]:
        if key == b"authorization" or (key == b"cookie" and any(
                part.strip().startswith(COOKIE_PREFIX)
                for part in value.decode("latin-1").split(";"))):
            return True
    return False


async def _disconnected(receive: Receive) -> None:
    """Return once the client has gone away."""
    while (await receive())["type"] != "http.disconnect":
        pass


def _moves(line: bytes) -> int:
    """How many moves a ``gameState`` line shows (0 for anything else)."""
    try:
        data = json.loads(line)
    except ValueError:
        return 0
    return len(str(data.get("moves", "")).split()) if isinstance(data, dict) else 0


async def _json(send: Send, status: int, data: Any) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": json.dumps(data).encode()})


def _fence(store: Any, store_id: str, token: int) -> None:
    """Fence the game in the store (a :class:`PostgresStore`: a cluster shares one)."""
    if not isinstance(store, PostgresStore):
        raise ApiError(500, "a cluster keeps its games in PostgreSQL (--db postgresql://...)")
    store.fence(store_id, token)


def _loader(store_id: str) -> Callable[[Any, Any], Game]:
    def load(store: Any, conn: Any) -> Game:
        game: Game = store.load(store_id)
        return game
    return load


def _holders(leases: Leases) -> set[str]:
    """The addresses of the processes holding games."""
    keys = list(leases.redis.scan_iter(match=leases.key("*"), count=1000))
    values = leases.redis.mget(keys) if keys else []
    return {str(v).partition(" ")[2] for v in values if v is not None}


def _release_all(leases: Leases, held: list[Lease]) -> None:
    for lease in held:
        with contextlib.suppress(Exception):
            leases.release(lease)


def _held_flags(leases: Leases, game_ids: list[str]) -> list[bool]:
    keys = [leases.key(game_id) for game_id in game_ids]
    return [value is not None for at in range(0, len(keys), MGET_CHUNK)
            for value in leases.redis.mget(keys[at:at + MGET_CHUNK])]
