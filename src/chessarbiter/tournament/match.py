"""Engine matches under the Laws: N games with colours alternating, openings from a file,
any time control and rule profile, games in parallel, and adjudication by the Laws (the
arbiter ends dead positions, fivefold repetition and the 75-move rule by itself) or, where
asked, by the engines' scores as match runners do.
"""

from __future__ import annotations

import concurrent.futures
import datetime
import os
import signal
import threading
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import IO, TypeVar

from chessarbiter.arbiter.events import ResultDeclared
from chessarbiter.arbiter.game import Game
from chessarbiter.arbiter.log import from_jsonl, to_jsonl
from chessarbiter.arbiter.scoresheet import to_pgn
from chessarbiter.clock.controls import TimeControl
from chessarbiter.clock.records import Side
from chessarbiter.laws.endings import Result
from chessarbiter.laws.profiles import RuleProfile
from chessarbiter.session.live import LiveGame
from chessarbiter.session.play import Play
from chessarbiter.session.players import EnginePlayer, player_from_spec, start_player
from chessarbiter.store import EventStore
from chessarbiter.tournament.elo import Tally
from chessarbiter.tournament.openings import START, Opening

R = TypeVar("R")


@dataclass(frozen=True)
class Adjudication:
    """Score adjudication, off unless set: resign when the loser's engine sees itself
    ``resign_cp`` down and the winner's sees itself that much up for ``resign_moves`` moves
    each; draw from move ``draw_after`` when both see at most ``draw_cp`` for ``draw_moves``
    moves each; a draw at ``max_plies`` (for profiles without the 75-move rule)."""

    resign_cp: int | None = None
    resign_moves: int = 3
    draw_cp: int | None = None
    draw_moves: int = 8
    draw_after: int = 40
    max_plies: int = 1200


@dataclass(frozen=True)
class MatchConfig:
    """A match between two players (specs as for ``play``: ``engine[:LEVEL]``, ``uci:CMD``)."""

    first: str
    second: str
    games: int
    control: TimeControl | None
    profile: RuleProfile
    openings: tuple[Opening, ...] = START
    chess960: bool = False
    adjudication: Adjudication = field(default_factory=Adjudication)
    seed: int | None = None
    event: str = "chessarbiter match"


@dataclass(frozen=True)
class GameReport:
    """One finished game: its number, whether the first player had White, the result
    and the PGN scoresheet."""

    index: int
    first_white: bool
    result: Result
    reason: str
    plies: int
    pgn: str
    log: str = ""
    """The game's log as JSON lines (what a store records)."""

    def first_points(self) -> float:
        """The first player's points (Art. 11)."""
        return float(self.result.score(Side.WHITE if self.first_white else Side.BLACK))


def _players(config: MatchConfig, index: int) -> tuple[EnginePlayer, EnginePlayer, bool]:
    first_white = index % 2 == 0
    specs = (config.first, config.second) if first_white else (config.second, config.first)
    seed = None if config.seed is None else config.seed * 1000 + index
    players = []
    for spec in specs:
        player = player_from_spec(spec, seed=seed, chess960=config.chess960)
        if player is None:
            raise ValueError("a match is between engines: 'human' cannot play")
        players.append(player)
    return players[0], players[1], first_white


class EngineStartError(ValueError):
    """A player of the match cannot be started (or fails the UCI handshake)."""


def check_engines(config: MatchConfig) -> dict[str, str]:
    """Start each player once, through the UCI handshake, before any game: the names they
    give (by spec), or :class:`EngineStartError` naming the first that cannot start."""
    names: dict[str, str] = {}
    for spec in dict.fromkeys((config.first, config.second)):
        player = player_from_spec(spec, chess960=config.chess960)
        if player is None:
            raise EngineStartError("a match is between engines: 'human' cannot play")
        try:
            failure = start_player(player)
            if failure is not None:
                raise EngineStartError(f"{spec}: {failure.detail}")
            names[spec] = player.name
        finally:
            player.close()
    return names


def play_game(config: MatchConfig, index: int) -> GameReport:
    """Play game ``index`` of the match (the first player has White in even games; each
    opening is played once with each colour). The players are named as they name
    themselves (an external engine by its UCI ``id name``); one that cannot start
    forfeits the game."""
    white, black, first_white = _players(config, index)
    for player in (white, black):
        start_player(player)  # a failure shows again, as a forfeit, when the player is to move
    opening = config.openings[(index // 2) % len(config.openings)]
    date = datetime.date.today().strftime("%Y.%m.%d")
    tags = {"Event": config.event, "Site": "chessarbiter", "Date": date,
            "Round": str(index + 1), "White": white.name, "Black": black.name,
            "Opening": opening.name}
    game = Game(config.profile, config.control, fen=opening.fen, chess960=config.chess960,
                tags=tags)
    play = Play(LiveGame(game), {Side.WHITE: white, Side.BLACK: black})
    judge = _Judge(config.adjudication)
    try:
        play.start()
        while not play.over:
            mover = game.to_move
            play.engine_move()
            if not play.over:
                judge.look(play, mover, white if mover is Side.WHITE else black)
    finally:
        play.close()
    outcome = game.outcome
    assert outcome is not None
    return GameReport(index, first_white, outcome.result, str(outcome), len(game.records),
                      to_pgn(game), to_jsonl(game))


class _Judge:
    """Score adjudication as :class:`Adjudication` describes."""

    def __init__(self, rules: Adjudication) -> None:
        self.rules = rules
        self.scores: dict[Side, list[int | None]] = {Side.WHITE: [], Side.BLACK: []}

    def look(self, play: Play, mover: Side, engine: EnginePlayer) -> None:
        rules = self.rules
        self.scores[mover].append(engine.score_cp)
        game = play.live.game
        decision = None
        if len(game.records) >= rules.max_plies:
            decision = (Result.DRAW, f"adjudicated: {rules.max_plies} plies played")
        elif rules.resign_cp is not None:
            for side in (Side.WHITE, Side.BLACK):
                own = self._last(side, rules.resign_moves)
                other = self._last(side.opponent, rules.resign_moves)
                if own and other and all(s <= -rules.resign_cp for s in own) and all(
                    s >= rules.resign_cp for s in other
                ):
                    decision = (Result.win_for(side.opponent),
                                f"adjudicated: {side.name.lower()} is lost by both engines' "
                                "evaluation")
        if decision is None and rules.draw_cp is not None and (
            game.position().fullmove_number >= rules.draw_after
        ):
            both = self._last(Side.WHITE, rules.draw_moves) + self._last(Side.BLACK,
                                                                           rules.draw_moves)
            if len(both) == 2 * rules.draw_moves and all(abs(s) <= rules.draw_cp for s in both):
                decision = (Result.DRAW, "adjudicated: drawn by both engines' evaluation")
        if decision is not None:
            play.live.apply(ResultDeclared(play.live.time(), decision[0], decision[1]))

    def _last(self, side: Side, n: int) -> list[int]:
        recent = self.scores[side][-n:]
        return [s for s in recent if s is not None] if len(recent) == n else []


def run_match(
    config: MatchConfig,
    *,
    concurrency: int = 1,
    pgn: IO[str] | None = None,
    progress: Callable[[Tally, GameReport], None] | None = None,
    store: EventStore | None = None,
) -> Tally:
    """Play the match, ``concurrency`` games at a time (separate processes), writing each
    finished game's PGN to ``pgn`` and its events to ``store``; returns the first player's
    tally."""
    tally = Tally()
    reports = _reports(config, concurrency)
    try:
        for report in reports:
            points = report.first_points()
            tally = Tally(tally.wins + (points == 1.0), tally.losses + (points == 0.0 and
                          report.result is not Result.DRAW), tally.draws + (points == 0.5))
            keep(report, pgn, store)
            if progress is not None:
                progress(tally, report)
    finally:  # stopped early (Ctrl-C, SIGTERM, a failure): the games under way are stopped
        reports.close()
    return tally


def keep(report: GameReport, pgn: IO[str] | None, store: EventStore | None) -> None:
    """Keep a finished game: its events in ``store`` first, then its PGN, with SIGINT and
    SIGTERM held until both are written, so the PGN never holds a game the store lacks and
    an interrupt never splits them."""
    with _signals_held():
        if store is not None:
            store.create(from_jsonl(report.log))
        if pgn is not None:
            pgn.write(report.pgn + "\n")
            pgn.flush()


@contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM wait until the block is done, then act as they would have. Their
    handlers are swapped for ones that only note them: a signal mask would not do, as the
    process has other threads (the worker pool's), which take the signal while the main
    thread is masked, and Python runs the handler in the main thread all the same."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    held = (signal.SIGINT, signal.SIGTERM)
    before = {signum: signal.signal(signum, lambda signum, frame: caught.append(signum))
              for signum in held}
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
        if caught:
            signal.raise_signal(caught[0])  # now, to the handler it was meant for


STOP_WAIT_S = 5.0
"""How long a stopped worker has to close its engines before it is killed."""


def _reports(config: MatchConfig, concurrency: int) -> Generator[GameReport, None, None]:
    if concurrency <= 1:
        for index in range(config.games):
            yield play_game(config, index)
        return
    yield from in_workers(play_game, [(config, index) for index in range(config.games)],
                          concurrency)


def in_workers(function: Callable[..., R], jobs: Sequence[tuple[object, ...]],
               concurrency: int) -> Generator[R, None, None]:
    """``function(*job)`` for each job in ``concurrency`` worker processes, each result as it
    comes. Stopped early (Ctrl-C, SIGTERM, a failure, the generator closed), it ends every
    worker, each closing its engines first, instead of waiting for their games."""
    pool = concurrent.futures.ProcessPoolExecutor(max_workers=concurrency,
                                                  initializer=_worker_signals)
    try:
        futures = [pool.submit(_in_worker, function, *job) for job in jobs]
        for future in concurrent.futures.as_completed(futures):
            yield future.result()
    except BaseException:  # including the GeneratorExit of a stopped match
        _stop_workers(pool)
        raise
    pool.shutdown()


def _stop_workers(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """End every worker (each closes its engines first) instead of waiting for their games."""
    workers = list(pool._processes.values())  # the executor has no public list of them
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join(STOP_WAIT_S)
        if worker.is_alive():
            worker.kill()
            worker.join()


class _Stopped(BaseException):
    """A worker was told to stop (SIGTERM) in the middle of a game."""


def _worker_signals() -> None:
    """A worker leaves Ctrl-C (sent to the terminal's whole process group, its engines
    included) to the parent, which stops the workers; an idle worker ends at SIGTERM."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _raise_stopped(signum: int, frame: object) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # once: the engines are being closed
    raise _Stopped


def _in_worker(function: Callable[..., R], *args: object) -> R:
    """``function(*args)`` in a worker: at SIGTERM the game's engines are closed (the
    ``finally`` of :func:`play_game`), then the worker ends."""
    signal.signal(signal.SIGTERM, _raise_stopped)
    try:
        return function(*args)
    except _Stopped:
        os._exit(128 + signal.SIGTERM)
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
