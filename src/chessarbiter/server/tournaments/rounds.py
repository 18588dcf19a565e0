"""A round's games as its director runs them: the director starts the round (the clocks of
its games start, Art. 6.5), and a result the director enters ends the board's live game
with that result (the arbiter's decision in the game's log), so that the round and the
game agree."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from chessarbiter.arbiter.events import (
    BothLost,
    ClocksStarted,
    Event,
    Forfeited,
    ResultDeclared,
)
from chessarbiter.clock.records import Side
from chessarbiter.laws.endings import Result
from chessarbiter.server.accounts import Account
from chessarbiter.server.errors import ApiError
from chessarbiter.server.games.table import awaits_round_start
from chessarbiter.server.tournaments.desk import Desk
from chessarbiter.store.tournaments import TournamentLogs


async def start_round(desk: Desk, director: Account, tournament_id: int, round_no: int
                      ) -> list[str]:
    """The director starts round ``round_no``: the clocks of its games that wait for it
    start (each start an arbiter's event of the game's log). The games started; 400 when
    none waits, 403 for anyone but a director."""

    def work(store: TournamentLogs, conn: sqlite3.Connection) -> list[str]:
        loaded = desk.current(store, conn, tournament_id)
        if not desk.may_direct(loaded, director):
            raise ApiError(403, f"{director.name} does not direct tournament {tournament_id}")
        paired = loaded.tournament.state.paired
        if not 1 <= round_no <= paired:
            raise ApiError(400, f"round {round_no}: not paired (rounds 1-{paired})")
        return [game for (number, _), game in sorted(loaded.games.items())
                if number == round_no]

    started = []
    for game_id in await desk.run(work):
        entry = await desk.hub.get(game_id)
        if awaits_round_start(entry):
            await desk.hub.act(entry, None, ClocksStarted)
            started.append(game_id)
    if not started:
        raise ApiError(400, f"round {round_no}: no game waits for its clocks (started "
                            "already, finished, or started by the players' first moves "
                            "under the tournament's rules)")
    return started


def decision(result: str) -> Callable[[int], Event]:
    """The arbiter's event that ends a live game with the result a director entered: a
    declared result, a forfeit (``+-``, ``-+``) or both players losing (``--``)."""
    reason = f"the tournament's director entered the result {result}"
    if result == "+-":
        return lambda at: Forfeited(at, Side.BLACK, reason)
    if result == "-+":
        return lambda at: Forfeited(at, Side.WHITE, reason)
    if result == "--":
        return lambda at: BothLost(at, reason)
    return lambda at: ResultDeclared(at, Result(result), reason)


async def end_game(desk: Desk, game_id: str, result: str) -> bool:
    """End the live game ``game_id`` with a result its director entered (the game's finish
    then finds the director's entry, which stands); a finished game is left as played.
    Whether the game was ended."""
    entry = await desk.hub.get(game_id)
    if entry.over:
        return False
    await desk.hub.act(entry, None, decision(result))
    return True
