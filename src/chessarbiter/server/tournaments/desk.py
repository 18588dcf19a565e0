"""The tournament desk of the server: tournaments kept in the games' SQLite file (the
tournament log of :mod:`chessarbiter.tournament.log` and two tables of the server's own),
their rounds' games created on the server, and the games' results entered in the log when
they end.

Every tournament operation runs in the desk's own thread with its own connection
(:class:`~chessarbiter.server.games.db.Worker`: never the event loop, never the writer that
commits the games' moves), on the tournament's state caught up with its log (the desk keeps
the state and reads the events written since), so a tournament changed meanwhile by the
``chessarbiter tournament`` command is seen as it is (and a change made meanwhile refuses
an event computed on the log as it was: the log's events are numbered).
A round is paired in another process (:func:`pairing_pool`): a Dutch pairing of 1,000
players is seconds of CPU, which would hold the event loop (and the interpreter's lock)
for every game. Renderings have a process of their own (:func:`rendering_pool`), so that
reading a tournament does not wait for a pairing. A player whose name is an account's
name is that account: they may join by themselves and play their games on the server; a
board whose two players are accounts gets a game, created when the round is paired.

Reading a tournament (:meth:`Desk.render`: its JSON, its pages) is computed once per state of
the tournament, for every reader: the state, kept and caught up with the events written
since (by anyone), is rendered in the rendering process, and the rendering kept by the
tournament's version (its log's events, its games, the accounts known) for whoever reads
that version next. A reader of a version kept costs three indexed queries in the desk's
thread: the event loop never computes nor waits for standings. Where every change made by
the server passes through the desk (the logs kept in the SQLite file, :mod:`.keeping`), a
version read less than :data:`VERSION_TRUSTED_MS` ago, with no change through the desk
since, is taken as it is, without the queries (a change by the ``chessarbiter tournament``
command is seen at the latest that much later); kept in PostgreSQL, where another process
of a cluster may change it, it is read each time."""

from __future__ import annotations

import asyncio
import logging
import pickle
import sqlite3
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import BrokenExecutor, Executor
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from chessarbiter.arbiter.game import Game
from chessarbiter.clock.controls import TimeControl
from chessarbiter.clock.errors import TimeControlError
from chessarbiter.clock.parse import parse_control
from chessarbiter.laws.endings import Result, Termination
from chessarbiter.laws.profiles import RuleProfile, profile_for
from chessarbiter.server import background
from chessarbiter.server.accounts import Account
from chessarbiter.server.config import ServerConfig
from chessarbiter.server.errors import ApiError, OwnedElsewhere
from chessarbiter.server.games.db import Worker
from chessarbiter.server.games.hub import Hub
from chessarbiter.server.games.meta import Seat, new_id
from chessarbiter.server.games.table import HubGame
from chessarbiter.server.lobby.requests import within_limits
from chessarbiter.server.members import Members
from chessarbiter.server.tournaments.cache import Kept
from chessarbiter.server.tournaments.keeping import Keeping
from chessarbiter.server.tournaments.view import Shown, rendered
from chessarbiter.store.base import StoreError
from chessarbiter.store.sqlite import SqliteStore
from chessarbiter.store.tournaments import TournamentLogs
from chessarbiter.tournament.director import pair_next
from chessarbiter.tournament.events import (
    Event,
    Registered,
    ResultEntered,
    Settings,
    TournamentError,
    Withdrawn,
)
from chessarbiter.tournament.log import Tournament, TournamentState, check_settings

T = TypeVar("T")

SCHEMA: Final = (
    """CREATE TABLE IF NOT EXISTS server_tournaments (
        id BIGINT PRIMARY KEY,  -- tournaments.id (the tournament's log; 64 bits)
        organiser TEXT NOT NULL,  -- the account that created it (its id)
        control TEXT NOT NULL,  -- the games' time control as written ('-': none)
        profile TEXT NOT NULL  -- the games' rule profile
    )""",
    """CREATE TABLE IF NOT EXISTS server_tournament_games (
        tournament_id BIGINT NOT NULL,
        round INTEGER NOT NULL,
        white INTEGER NOT NULL,  -- White's registration number: the board in the log
        game_id TEXT NOT NULL UNIQUE,  -- server_games.id
        PRIMARY KEY (tournament_id, round, white)
    )""",
)
MAX_ID: Final = 2**63 - 1
"""The largest tournament id (SQLite's integers)."""
KEPT_STATES: Final = 8
"""Tournaments whose state the desk keeps to catch up with (the least recently read go)."""
KEPT_RENDERINGS: Final = 32
"""Renderings kept (a tournament's JSON, each of its pages; the least recently read go)."""
VERSION_TRUSTED_MS: Final = 500
"""How long a tournament's version read stays trusted while nothing changed through the
desk (where every change passes through it: see the module's docstring)."""
LOOKED_UP: Final = 100_000
"""Players' names whose account was looked for, at most (then all are looked for again)."""


@dataclass(frozen=True)
class Board:
    """A board of a paired round on the server: its game id (``None``: no game)."""

    round: int
    white: int
    black: int
    white_name: str
    black_name: str
    game_id: str | None


@dataclass(frozen=True)
class Loaded:
    """A tournament read from the database: its log replayed, the server's settings and
    the games of its rounds by (round, White's number)."""

    tournament: Tournament
    organiser: str
    control_text: str
    control: TimeControl | None
    profile: RuleProfile
    games: dict[tuple[int, int], str]


def read_control(text: str) -> TimeControl | None:
    """A tournament's time control as written (``-`` or ``untimed``: none)."""
    if text.strip() in ("-", "untimed", ""):
        return None
    try:
        return parse_control(text)
    except TimeControlError as exc:
        raise ApiError(400, f"timeControl: {exc}") from None


def game_result(entry: HubGame) -> str | None:
    """The result a finished game enters in the tournament (``None``: aborted, no result):
    a forfeit before both players moved is an unplayed game (``+-``/``-+``, C.07 Art. 16),
    both players losing is ``--``."""
    outcome = entry.game.outcome
    if entry.meta.aborted or outcome is None:
        return None
    if outcome.result is Result.BOTH_LOSE:
        return "--"
    if outcome.termination is Termination.FORFEIT and len(entry.moves) < 2:
        return "+-" if outcome.result is Result.WHITE_WINS else "-+"
    played: str = outcome.result.value
    return played


def pairing_pool() -> Executor:
    """The process that pairs rounds for every desk of this process (:mod:`..background`)."""
    return background.pool("pairing")


def rendering_pool() -> Executor:
    """The process that renders tournaments for every desk of this process: its own, so
    that a reader does not wait for a pairing of seconds."""
    return background.pool("rendering")


class Desk:
    """The server's tournaments (see the module's docstring); :meth:`attach` makes the
    hub's ending games report their results. ``pairing`` (the executor) and ``pair_round``
    (the function) pair a round: :func:`pairing_pool` and :func:`pair_next` unless a test
    injects others. ``hub``: the game room, where the rounds' games are played;
    ``members``: the accounts; ``keeping``: where the tournaments' logs are
    (:mod:`.keeping`)."""

    def __init__(self, hub: Hub, config: ServerConfig, members: Members,
                 keeping: Keeping) -> None:
        self.hub = hub
        self.config = config
        self.members = members
        self.keeping = keeping
        self.worker = Worker(config.db, "chessarbiter-tournaments")
        self.worker.closing.append(keeping.close)
        self.pairing: Executor | None = None
        self.pair_round: Callable[[TournamentState], list[Event]] = pair_next
        self.rendering: Executor | None = None
        """Where renderings are computed (``None``: :func:`rendering_pool`)."""
        self.renderings: Kept[Any] = Kept(KEPT_RENDERINGS)
        self._kept: OrderedDict[int, Tournament] = OrderedDict()
        """The tournaments kept, by id (used in the desk's thread alone: :meth:`current`)."""
        self._looked_up: set[str] = set()
        """The players' names (lower case) whose account was looked for."""
        self._ready = False
        self.entering: set[asyncio.Task[None]] = set()
        """Results of ended games being entered."""
        self.changes = 0
        """Work done in the desk's thread that may have changed a tournament, so far."""
        self._versions: dict[int, tuple[tuple[int, int], int, int]] = {}
        """Each tournament's version last read, with :attr:`changes` before the reading and
        when it began (ms)."""

    def attach(self) -> None:
        self.hub.finish_hooks.append(self._game_ended)
        self.hub.stop_hooks.append(self.worker.close)

    # -- the desk's thread ---------------------------------------------------------------

    async def run(self, work: Callable[[TournamentLogs, sqlite3.Connection], T], *,
                  reads_only: bool = False) -> T:
        """``work`` in the desk's thread with the tournament store open (ApiError 503 when
        the database fails; a ``TournamentError`` becomes a 400); counted in
        :attr:`changes` once done, unless it ``reads_only``."""

        def call(store: SqliteStore, conn: sqlite3.Connection) -> T:
            if not self._ready:
                for statement in SCHEMA:
                    conn.execute(statement)
                self._ready = True
            return work(self.keeping.logs(store, conn), conn)

        def kept_sound(store: SqliteStore, conn: sqlite3.Connection) -> T:
            try:
                return call(store, conn)
            except (StoreError, sqlite3.Error):  # an event applied, perhaps not written
                self._kept.clear()
                raise

        try:
            return await self.worker.run(kept_sound)
        except TournamentError as exc:
            raise ApiError(400, str(exc)) from None
        except (StoreError, sqlite3.Error) as exc:
            raise ApiError(503, f"the tournament could not be read or stored ({exc})") \
                from None
        finally:
            if not reads_only:
                self.changes += 1

    @staticmethod
    def load(store: TournamentLogs, conn: sqlite3.Connection, tournament_id: int) -> Loaded:
        """The tournament replayed afresh from its log, its own to whoever reads it (in the
        desk's thread); 404 if the server has none of this id."""
        return loaded(conn, tournament_id, Tournament.load(store, tournament_id))

    def current(self, store: TournamentLogs, conn: sqlite3.Connection, tournament_id: int
                ) -> Loaded:
        """The tournament as :meth:`load` reads it, but from the one the desk keeps, caught
        up with the events written since (read alone): for work in the desk's thread, which
        alone reads and changes it (an event applied to it is written, or the state is read
        again: :meth:`Tournament.apply`; a database failure drops every one kept)."""
        row = server_row(conn, tournament_id)  # 404 before reading the log
        kept = self._kept.pop(tournament_id, None)
        if kept is None or kept.events > store.event_count(tournament_id):
            kept = Tournament.load(store, tournament_id)
        kept.store = store  # in a cluster, this run's connection
        kept.catch_up()
        self._kept[tournament_id] = kept  # kept only when caught up
        while len(self._kept) > KEPT_STATES:
            self._kept.popitem(last=False)
        return loaded(conn, tournament_id, kept, row)

    # -- operations ------------------------------------------------------------------------

    async def create(self, organiser: Account, settings: Settings, control_text: str,
                     profile_name: str) -> int:
        """A new tournament organised by ``organiser``; its id."""
        control = within_limits(read_control(control_text), control_text)
        try:
            profile = profile_for(control, profile_name)
        except ValueError as exc:
            raise ApiError(400, f"profile: {exc}") from None
        try:
            check_settings(settings)
        except ValueError as exc:  # TournamentError, TiebreakError
            raise ApiError(400, str(exc)) from None

        def work(store: TournamentLogs, conn: sqlite3.Connection) -> int:
            tournament = Tournament.create(store, settings)
            conn.execute("INSERT INTO server_tournaments VALUES (?, ?, ?, ?)",
                         (tournament.tournament_id, organiser.id,
                          "-" if control is None else control_text.strip(), profile.name))
            return tournament.tournament_id

        return await self.run(work)

    async def listing(self) -> list[dict[str, Any]]:
        """The server's tournaments, oldest first: id, name, events in the log."""

        def work(store: TournamentLogs, conn: sqlite3.Connection) -> list[dict[str, Any]]:
            ours = {row[0] for row in conn.execute("SELECT id FROM server_tournaments")}
            return [{"id": t.tournament_id, "name": t.name, "events": t.events}
                    for t in store.tournaments() if t.tournament_id in ours]

        return await self.run(work)

    async def render(self, tournament_id: int, kind: Hashable,
                     render: Callable[[Shown], T]) -> T:
        """The tournament as ``render`` (the rendering ``kind``: a module's function or a
        partial one, as the rendering process calls it) shows it: kept while the
        tournament's version is the same (see the module's docstring)."""
        version = await self._current_version(tournament_id)
        found: T = await self.renderings.get(
            (tournament_id, kind), (*version, len(self.members.accounts)),
            lambda: self._rendered(tournament_id, render))
        return found

    async def _current_version(self, tournament_id: int) -> tuple[int, int]:
        """The tournament's version: read in the desk's thread, or on one process the one
        read last if it is still trusted (see the module's docstring)."""
        now, changes = self.config.now_ms(), self.changes
        last = self._versions.get(tournament_id)
        if (last is not None and last[1] == changes and now - last[2] < VERSION_TRUSTED_MS
                and self.keeping.only_here):
            return last[0]
        version = await self.run(lambda store, conn: self._version(store, conn,
                                                                   tournament_id),
                                 reads_only=True)
        if len(self._versions) >= KEPT_RENDERINGS:
            self._versions.clear()
        self._versions[tournament_id] = (version, changes, now)
        return version

    def _version(self, store: TournamentLogs, conn: sqlite3.Connection, tournament_id: int
                 ) -> tuple[int, int]:
        """The tournament's events and games, counted from their indexes (404 if the
        server has none of this id): they change with every change of the tournament."""
        server_row(conn, tournament_id)
        games = conn.execute("SELECT count(*) FROM server_tournament_games WHERE "
                             "tournament_id = ?", (tournament_id,)).fetchone()[0]
        return store.event_count(tournament_id), int(games)

    async def _rendered(self, tournament_id: int, render: Callable[[Shown], T]) -> T:
        shown, names = await self.run(lambda store, conn: self._shown(store, conn,
                                                                      tournament_id),
                                      reads_only=True)
        await self._look_up(names)
        accounts = {name: account.id for name in names
                    if (account := self.members.accounts.by_name(name)) is not None}
        loop = asyncio.get_running_loop()
        try:
            result: T = await loop.run_in_executor(self.rendering or rendering_pool(),
                                                   rendered, render, shown, accounts)
        except BrokenExecutor as exc:
            background.forget("rendering")  # a new process at the next rendering
            raise ApiError(503, f"the rendering process failed ({exc}); try again") \
                from None
        return result

    def _shown(self, store: TournamentLogs, conn: sqlite3.Connection, tournament_id: int
               ) -> tuple[bytes, list[str]]:
        """The tournament's :class:`Shown` (without accounts) pickled here, in the desk's
        thread (the state kept changes with the next event), and its players' names."""
        now = self.current(store, conn, tournament_id)
        state = now.tournament.state
        shown = Shown(tournament_id, state, now.organiser, now.control_text, now.control,
                      now.profile, now.games, {})
        return pickle.dumps(shown), [player.name for player in state.players.values()]

    async def _look_up(self, names: list[str], *, again: bool = False) -> None:
        """The accounts of the players named ``names`` known to this process (in a
        cluster another process may have made them): each name looked for once, or
        (``again``) each not known here."""
        if len(self._looked_up) > LOOKED_UP:
            self._looked_up.clear()
        for name in names:
            key = name.lower()
            if again or key not in self._looked_up:
                self._looked_up.add(key)
                await self.members.named(name)

    def may_direct(self, loaded: Loaded, account: Account) -> bool:
        """Whether ``account`` directs the tournament: its organiser or an arbiter."""
        return account.is_arbiter or account.id == loaded.organiser

    async def register(self, tournament_id: int, entry: Registered,
                       director: Account | None = None) -> None:
        """Register a player: by a director (``director``), or an account joining (its
        name); 403 when ``director`` does not direct the tournament."""

        def work(store: TournamentLogs, conn: sqlite3.Connection) -> None:
            loaded = self.current(store, conn, tournament_id)
            if director is not None and not self.may_direct(loaded, director):
                raise ApiError(403, f"{director.name} does not direct tournament "
                                    f"{tournament_id}")
            loaded.tournament.apply(entry)

        return await self.run(work)

    async def withdraw(self, account: Account, tournament_id: int, player: str | None
                       ) -> str:
        """Withdraw ``player`` (a name or start number; ``None``: the account itself) from
        the next round on: a director may withdraw anyone, a player themselves. The
        withdrawn player's name."""

        def work(store: TournamentLogs, conn: sqlite3.Connection) -> str:
            loaded = self.current(store, conn, tournament_id)
            state = loaded.tournament.state
            number = state.find(account.name if player is None else player)
            if not (self.may_direct(loaded, account)
                    or state.players[number].name.casefold() == account.name.casefold()):
                raise ApiError(403, f"{account.name} may withdraw only themselves from "
                                    f"tournament {tournament_id}")
            loaded.tournament.apply(Withdrawn(number, state.paired + 1))
            return state.players[number].name

        return await self.run(work)

    async def enter_result(self, director: Account, tournament_id: int, round_no: int,
                           board: int, result: str) -> Board:
        """The result of board ``board`` of round ``round_no``, entered or corrected by a
        director."""

        def work(store: TournamentLogs, conn: sqlite3.Connection) -> Board:
            loaded = self.current(store, conn, tournament_id)
            if not self.may_direct(loaded, director):
                raise ApiError(403, f"{director.name} does not direct tournament "
                                    f"{tournament_id}")
            state = loaded.tournament.state
            if not 1 <= round_no <= state.paired:
                raise ApiError(400, f"round {round_no}: not paired (rounds 1-{state.paired})")
            boards = state.rounds[round_no - 1].boards
            if not 1 <= board <= len(boards):
                raise ApiError(400, f"board {board}: round {round_no} has boards "
                                    f"1-{len(boards)}")
            white, black = boards[board - 1]
            loaded.tournament.apply(ResultEntered(round_no, white, result))
            players = state.players
            return Board(round_no, white, black, players[white].name, players[black].name,
                         loaded.games.get((round_no, white)))

        return await self.run(work)

    async def pair(self, director: Account, tournament_id: int) -> list[Board]:
        """Pair the next round and create its games on the server (the boards whose two
        players are accounts and have no result yet); the round's boards. First the last
        round catches up (:meth:`_catch_up`)."""
        names = await self.run(lambda store, conn: [
            player.name for player in
            self.current(store, conn, tournament_id).tournament.state.players.values()])
        await self._look_up(names, again=True)  # made since by a player: a game for them
        await self._catch_up(director, tournament_id)

        def read(store: TournamentLogs, conn: sqlite3.Connection) -> Loaded:
            loaded = self.load(store, conn, tournament_id)  # its own: the pairing reads it
            if not self.may_direct(loaded, director):
                raise ApiError(403, f"{director.name} does not direct tournament "
                                    f"{tournament_id}")
            return loaded

        loaded = await self.run(read)
        pairing = await self._paired(loaded.tournament.state)

        def work(store: TournamentLogs, conn: sqlite3.Connection) -> tuple[
                Loaded, list[Board]]:
            tournament = loaded.tournament  # a change since it was read refuses the events
            for event in pairing:
                tournament.apply(event)
            state = tournament.state
            round_no = state.paired
            game_round = state.rounds[-1]
            boards = []
            for white, black in game_round.boards:
                names = state.players[white].name, state.players[black].name
                game_id = None
                if white not in game_round.results and all(
                        self.members.accounts.by_name(n) is not None for n in names):
                    game_id = new_id()
                    conn.execute("INSERT INTO server_tournament_games VALUES (?, ?, ?, ?)",
                                 (tournament_id, round_no, white, game_id))
                boards.append(Board(round_no, white, black, *names, game_id))
            return loaded, boards

        loaded, boards = await self.run(work)
        name = loaded.tournament.state.settings.name
        for number, board in enumerate(boards, 1):
            if board.game_id is not None:
                await self._create_game(loaded, name, number, board)
        return boards

    async def _paired(self, state: TournamentState) -> list[Event]:
        """The events pairing the next round, computed in :attr:`pairing` (400 when it
        cannot be paired; 503 when the pairing process failed)."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.pairing or pairing_pool(),
                                              self.pair_round, state)
        except TournamentError as exc:
            raise ApiError(400, str(exc)) from None
        except BrokenExecutor as exc:
            background.forget("pairing")  # a new process at the next pairing
            raise ApiError(503, f"the pairing process failed ({exc}); try again") from None

    async def _catch_up(self, director: Account, tournament_id: int) -> None:
        """The last round's games the server has not started (it failed or stopped when
        the round was paired) start now, and the results of its ended games not entered
        yet (the server stopped first) are entered."""

        def work(store: TournamentLogs, conn: sqlite3.Connection) -> tuple[
                Loaded, list[tuple[int, Board, bool]]]:
            loaded = self.current(store, conn, tournament_id)
            if not self.may_direct(loaded, director):
                raise ApiError(403, f"{director.name} does not direct tournament "
                                    f"{tournament_id}")
            state = loaded.tournament.state
            late = []
            for number, (white, black) in enumerate(
                    state.rounds[-1].boards if state.rounds else (), 1):
                game_id = loaded.games.get((state.paired, white))
                if game_id is None or white in state.rounds[-1].results:
                    continue
                started = conn.execute("SELECT 1 FROM server_games WHERE id = ?",
                                       (game_id,)).fetchone() is not None
                board = Board(state.paired, white, black, state.players[white].name,
                              state.players[black].name, game_id)
                late.append((number, board, started))
            return loaded, late

        loaded, late = await self.run(work)
        for number, board, started in late:
            assert board.game_id is not None
            if not started:
                await self._create_game(loaded, loaded.tournament.state.settings.name,
                                        number, board)
                continue
            try:  # taken here in one step unless another process holds it
                entry = await self.hub.get(board.game_id)
            except OwnedElsewhere:
                continue  # another process of the cluster plays it and enters its result
            result = game_result(entry)
            if result is not None:
                await self._enter(board.game_id, result)

    async def _create_game(self, loaded: Loaded, name: str, number: int, board: Board
                           ) -> None:
        seats = []
        for player in (board.white_name, board.black_name):
            account = self.members.accounts.by_name(player)
            assert account is not None
            seats.append(Seat(account.name, account=account.id))
        tags = {"Event": name, "Round": f"{board.round}.{number}",
                "White": seats[0].name, "Black": seats[1].name}
        game = Game(loaded.profile, loaded.control, tags=tags)
        await self.hub.create_game(game, seats[0], seats[1], source="tournament",
                                   creator=loaded.organiser, game_id=board.game_id,
                                   start_clocks=False)  # the director starts the round

    # -- results flowing in ----------------------------------------------------------------

    def _game_ended(self, entry: HubGame) -> None:
        result = game_result(entry)
        if result is None or entry.meta.source != "tournament":
            return
        task = self.hub.loop.create_task(self._enter(entry.id, result))
        self.entering.add(task)
        task.add_done_callback(self.entering.discard)
        task.add_done_callback(_log_failure)

    async def settled(self) -> None:
        """Wait until the results of the games ended so far are entered."""
        while self.entering:
            await asyncio.gather(*self.entering, return_exceptions=True)

    async def _enter(self, game_id: str, result: str) -> None:
        def work(store: TournamentLogs, conn: sqlite3.Connection) -> None:
            row = conn.execute("SELECT tournament_id, round, white FROM "
                               "server_tournament_games WHERE game_id = ?",
                               (game_id,)).fetchone()
            if row is None:
                return
            tournament_id, round_no, white = row
            tournament = self.current(store, conn, tournament_id).tournament
            if white in tournament.state.rounds[round_no - 1].results:
                return  # a director's entry stands (a later correction replaces it)
            tournament.apply(ResultEntered(round_no, white, result))

        await self.run(work)


def loaded(conn: sqlite3.Connection, tournament_id: int, tournament: Tournament,
           row: tuple[str, str, str] | None = None) -> Loaded:
    """``tournament`` with the server's settings (its ``row``, read when not given) and its
    rounds' games."""
    organiser, control_text, profile = row or server_row(conn, tournament_id)
    control = read_control(control_text)
    return Loaded(tournament, organiser, control_text, control,
                  profile_for(control, profile), round_games(conn, tournament_id))


def server_row(conn: sqlite3.Connection, tournament_id: int) -> tuple[str, str, str]:
    """The tournament's organiser, time control and profile (404 if the server has none of
    this id)."""
    row = None if not 1 <= tournament_id <= MAX_ID else conn.execute(
        "SELECT organiser, control, profile FROM server_tournaments WHERE id = ?",
        (tournament_id,)).fetchone()
    if row is None:
        raise ApiError(404, f"no tournament {tournament_id}")
    return row[0], row[1], row[2]


def round_games(conn: sqlite3.Connection, tournament_id: int) -> dict[tuple[int, int], str]:
    """The games of the tournament's rounds by (round, White's number)."""
    return {(r, w): g for r, w, g in conn.execute(
        "SELECT round, white, game_id FROM server_tournament_games WHERE "
        "tournament_id = ?", (tournament_id,))}


DESKS: weakref.WeakKeyDictionary[Hub, Desk] = weakref.WeakKeyDictionary()
"""Each app's desk, by its hub."""


def _log_failure(task: Any) -> None:
    if not task.cancelled() and task.exception() is not None:
        logging.getLogger(__name__).error("a tournament game's result was not entered: %s",
                                          task.exception())
