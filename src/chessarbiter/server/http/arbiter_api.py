"""The arbiter's routes (accounts with the arbiter role): the live games, and the arbiter's
decisions on a game — each one an event of the game's log, ruled on like any other."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from chessarbiter.arbiter.events import (
    ArbiterRuled,
    BothLost,
    ClocksSet,
    ClocksStarted,
    ClocksStopped,
    Event,
    Forfeited,
    ResultDeclared,
    Ruling,
    SuddenDeathRuled,
    TimeAdded,
    Warned,
)
from chessarbiter.clock.records import Side
from chessarbiter.laws.endings import Result
from chessarbiter.server.errors import ApiError
from chessarbiter.server.games import presence, shapes
from chessarbiter.server.games.dormant import Sleeper
from chessarbiter.server.games.table import HubGame, awaits_round_start
from chessarbiter.server.http import auth
from chessarbiter.server.http.board_api import fields
from chessarbiter.server.http.services import Services, services_of
from chessarbiter.server.lobby.requests import bool_field, choice_field, int_field, text_field

MAX_ADJUST_MS = 24 * 60 * 60 * 1000
RESULTS = tuple(r.value for r in Result if r is not Result.BOTH_LOSE)


def summary(entry: HubGame, services: Services) -> dict[str, Any]:
    """One live game for the arbiter's list (with each player's ``presence`` at the board,
    for the default time of Art. 6.7, and whether it ``awaitsRound``: a tournament game
    whose round its director has not started)."""
    game = entry.game
    state = game.state()
    return {
        "id": entry.id,
        "white": shapes.player(entry.meta.white),
        "black": shapes.player(entry.meta.black),
        "profile": game.setup.profile.name,
        "timeControl": shapes.time_control(game.setup.control),
        "moves": len(entry.moves),
        "toMove": shapes.side_name(game.to_move),
        "clocks": entry.live.clocks(),
        "clockRunning": state.clock_running,
        "status": shapes.status(game.outcome, entry.meta.aborted),
        "termination": shapes.termination(game.outcome),
        "pendingRuling": game.pending_ruling,
        "suddenDeathClaim": None if state.sudden_death_claim is None
        else shapes.side_name(state.sudden_death_claim),
        "pendingOffer": None if game.pending_offer is None
        else shapes.side_name(game.pending_offer),
        "warnings": list(state.warnings),
        "notes": [text for _, text in state.notes[-5:]],
        "presence": presence.sides(services.presence, entry),
        "awaitsRound": entry.meta.source == "tournament" and awaits_round_start(entry),
    }


def sleeping(game_id: str, sleeper: Sleeper, now: int) -> dict[str, Any]:
    """One dormant game for the arbiter's list, from its line of deadlines (not loaded):
    its players' accounts and in how many ms it is due (``None``: never)."""
    white, black = sleeper.accounts
    return {"id": game_id, "white": white, "black": black,
            "dueInMs": None if sleeper.due is None else max(sleeper.due - now, 0)}


async def list_games(request: Request) -> Response:
    """Every game in memory (``?all=true``: also the finished ones), once the dormant games
    due by now are loaded (among them every one the arbiter must act on: a ruling awaited,
    clocks stopped by a restart, :func:`~.dormant.due_after`), and the other dormant games
    from their lines of deadlines (``dormant``), none of them loaded."""
    services = services_of(request)
    auth.require_arbiter(request, services)
    every = bool_field(request.query_params, "all")
    await services.dormant.wake_due()
    now = services.config.now_ms()
    return JSONResponse({
        "games": [summary(e, services) for e in services.loader.games.values()
                  if every or not e.over],
        "dormant": [sleeping(game_id, sleeper, now)
                    for game_id, sleeper in services.dormant.games.items()]})


def _side(data: Mapping[str, Any]) -> Side:
    color = choice_field(data, "color", ("white", "black"), "")
    if not color:
        raise ApiError(400, "color: required (white or black)")
    return Side.WHITE if color == "white" else Side.BLACK


def _reason(data: Mapping[str, Any], required: bool = True) -> str:
    reason = (text_field(data, "reason") or "").strip()
    if required and not reason:
        raise ApiError(400, "reason: required")
    return reason[:500]


def _add_time(data: Mapping[str, Any]) -> Callable[[int], Event]:
    side = _side(data)
    seconds = int_field(data, "seconds", -MAX_ADJUST_MS // 1000, MAX_ADJUST_MS // 1000)
    if seconds is None:
        raise ApiError(400, "seconds: required (negative to take time away)")
    reason = _reason(data, required=False)
    return lambda at: TimeAdded(at, side, seconds * 1000, reason)


def _set_clocks(data: Mapping[str, Any]) -> Callable[[int], Event]:
    white = int_field(data, "wtime", 0, MAX_ADJUST_MS)
    black = int_field(data, "btime", 0, MAX_ADJUST_MS)
    if white is None or black is None:
        raise ApiError(400, "wtime and btime: required (ms)")
    reason = _reason(data, required=False)
    return lambda at: ClocksSet(at, white, black, reason)


def _result(data: Mapping[str, Any]) -> Callable[[int], Event]:
    result = choice_field(data, "result", (*RESULTS, "0-0"), "")
    if not result:
        raise ApiError(400, f"result: required, one of {[*RESULTS, '0-0']}")
    reason = _reason(data)
    if result == "0-0":
        return lambda at: BothLost(at, reason)
    return lambda at: ResultDeclared(at, Result(result), reason)


def _forfeit(data: Mapping[str, Any]) -> Callable[[int], Event]:
    side = _side(data)
    reason = _reason(data)
    return lambda at: Forfeited(at, side, reason)


def _warn(data: Mapping[str, Any]) -> Callable[[int], Event]:
    side = _side(data)
    reason = _reason(data)
    return lambda at: Warned(at, side, reason)


def _rule(data: Mapping[str, Any]) -> Callable[[int], Event]:
    can_mate = choice_field(data, "canMate", ("true", "false"), "")
    if not can_mate:
        raise ApiError(400, "canMate: required (true: the loss stands; false: a draw)")
    reason = _reason(data)
    return lambda at: ArbiterRuled(at, can_mate == "true", reason)


def _sudden_death(data: Mapping[str, Any]) -> Callable[[int], Event]:
    ruling = choice_field(data, "ruling", tuple(r.value for r in Ruling), "")
    if not ruling:
        raise ApiError(400, f"ruling: required, one of {[r.value for r in Ruling]}")
    bonus = int_field(data, "bonusMs", 0, MAX_ADJUST_MS)
    return lambda at: SuddenDeathRuled(at, Ruling(ruling), bonus)


DECISIONS: dict[str, Callable[[Mapping[str, Any]], Callable[[int], Event]]] = {
    "add-time": _add_time,
    "set-clocks": _set_clocks,
    "result": _result,
    "forfeit": _forfeit,
    "warn": _warn,
    "rule": _rule,
    "sudden-death": _sudden_death,
    "stop-clocks": lambda data: lambda at: ClocksStopped(at),
    "start-clocks": lambda data: lambda at: ClocksStarted(at),
}
"""The arbiter's decisions by path name: each reads its fields and makes the event."""


async def decide(request: Request) -> Response:
    services = services_of(request)
    auth.require_arbiter(request, services)
    name = request.path_params["decision"]
    maker = DECISIONS.get(name)
    if maker is None:
        raise ApiError(404, f"no arbiter's decision {name[:30]!r}: expected one of "
                            f"{sorted(DECISIONS)}")
    entry = await services.hub.get(request.path_params["gameId"])
    make = maker(await fields(request))
    decisions = await services.hub.act(entry, None, make)
    return JSONResponse({"ok": True, "notes": shapes.notes(decisions)})
