"""The tournament routes as the OpenAPI document lists them (``server.openapi`` makes its
``Op`` of each; kept apart from the routes so that the document imports no route code)."""

from __future__ import annotations

from typing import Any, Final

from chessarbiter.tournament.events import RESULTS, System
from chessarbiter.tournament.log import MAX_RATING, TITLES

SYSTEMS: Final = tuple(s.value for s in System)
MAX_ROUNDS: Final = 99
OK: Final = {"$ref": "#/components/schemas/Ok"}


def _op(method: str, path: str, summary: str, ok: dict[str, Any] | None = None,
        **rest: Any) -> dict[str, Any]:
    return {"method": method, "path": path, "summary": summary,
            **({} if ok is None else {"ok": ok}), **rest}


def operations() -> list[dict[str, Any]]:
    """The routes, as the fields of ``chessarbiter.server.http.openapi.Op``."""
    tid = {"tournamentId": {"type": "integer", "minimum": 1}}
    player = {"rating": {"type": "integer", "minimum": 0, "maximum": MAX_RATING},
              "title": {"type": "string", "enum": list(TITLES)}}
    return [
        _op("get", "/api/tournament", "Extension: the tournaments", auth="none"),
        _op("post", "/api/tournament/new", "Extension: create a tournament (its organiser: "
           "the token's account)", body={
               "name": {"type": "string"}, "system": {"type": "string", "enum": list(SYSTEMS)},
               "rounds": {"type": "integer", "minimum": 1, "maximum": MAX_ROUNDS},
               "timeControl": {"type": "string"}, "profile": {"type": "string"},
               "tiebreaks": {"type": "string", "description": "e.g. BH-C1,BH,SB"},
               "initialColor": {"type": "string", "enum": ["white", "black"]},
               "rules": {"type": "string", "enum": ["2025", "2017"]}}),
        _op("get", "/api/tournament/{tournamentId}", "Extension: a tournament's players, "
           "pairings, results, standings and crosstable", auth="none", path_params=tid),
        _op("post", "/api/tournament/{tournamentId}/join", "Extension: join a tournament "
           "(under the account's name)", OK, body={"rating": player["rating"]},
           path_params=tid),
        _op("post", "/api/tournament/{tournamentId}/player", "Extension: the organiser or an "
           "arbiter registers a player", OK, body={"name": {"type": "string"}, **player},
           path_params=tid),
        _op("post", "/api/tournament/{tournamentId}/withdraw", "Extension: withdraw from "
           "the next round on (a player themselves, or any player by the organiser or an "
           "arbiter)", OK, body={"player": {"type": "string", "description": "a name or "
                                            "start number"}}, path_params=tid),
        _op("post", "/api/tournament/{tournamentId}/pair", "Extension: the organiser or an "
           "arbiter pairs the next round; its games start", path_params=tid),
        _op("post", "/api/tournament/{tournamentId}/round/{round}/start", "Extension: the "
           "organiser or an arbiter starts a round: the clocks of its games start",
           path_params={**tid, "round": {"type": "integer", "minimum": 1}}),
        _op("post", "/api/tournament/{tournamentId}/result", "Extension: the organiser or an "
           "arbiter enters a board's result (a live game ends with it)", OK, body={
               "round": {"type": "integer", "minimum": 1}, "board": {"type": "integer",
                                                                     "minimum": 1},
               "result": {"type": "string", "enum": list(RESULTS)}}, path_params=tid),
    ]
