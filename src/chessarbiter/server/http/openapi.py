"""The OpenAPI 3 document of the server's API (``GET /api/openapi.json``), written route by
route. Streaming routes (NDJSON that stays open) carry ``x-stream: true``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from chessarbiter.server.accounts import NAME
from chessarbiter.server.games.shapes import DECLINE_REASONS
from chessarbiter.server.http.arbiter_api import DECISIONS

ID: Final = {"type": "string", "pattern": "^[A-Za-z0-9]{1,32}$"}
UCI: Final = {"type": "string", "pattern": "^[a-h][1-8][a-h][1-8][qrbnQRBN]?$"}
ERROR: Final = {"$ref": "#/components/schemas/Error"}
OBJECT: Final = {"type": "object"}
OK: Final = {"$ref": "#/components/schemas/Ok"}
COLOR: Final = {"type": "string", "enum": ["white", "black", "random"]}

GAME_FIELDS: Final[dict[str, Any]] = {
    "rated": {"type": "boolean"},
    "clock.limit": {"type": "integer", "minimum": 0, "maximum": 10800,
                    "description": "seconds"},
    "clock.increment": {"type": "integer", "minimum": 0, "maximum": 180,
                        "description": "seconds"},
    "timeControl": {"type": "string", "description": "extension: any written control "
                    "(5+3, 40/90+30, 30+30, G/60;d5, untimed)"},
    "profile": {"type": "string", "description": "extension: rule profile (default online)"},
    "color": COLOR,
    "variant": {"type": "string", "enum": ["standard", "chess960", "fromPosition"]},
    "fen": {"type": "string"},
}
SEEK_FIELDS: Final[dict[str, Any]] = {
    **{k: v for k, v in GAME_FIELDS.items() if not k.startswith("clock.")},
    "time": {"type": "integer", "minimum": 0, "maximum": 180, "description": "minutes"},
    "increment": {"type": "integer", "minimum": 0, "maximum": 180, "description": "seconds"},
}


@dataclass(frozen=True)
class Op:
    """One route and method."""

    method: str
    path: str
    summary: str
    ok: dict[str, Any] = field(default_factory=lambda: OBJECT)
    auth: str = "token"
    """``token`` (an account), ``player`` (a token or game secret), ``optional``, ``none``."""
    body: dict[str, Any] | None = None
    query: dict[str, Any] = field(default_factory=dict)
    stream: bool = False
    media: str = "application/json"
    path_params: dict[str, Any] = field(default_factory=dict)
    status: str = "200"
    """The success status (lichess answers some creations 201)."""


def _board(prefix: str) -> list[Op]:
    game = {"gameId": ID}
    return [
        Op("post", prefix + "/{gameId}/move/{move}", "Play a move (UCI), optionally offering "
           "a draw (or agreeing to the opponent's offer)", OK, "player",
           query={"offeringDraw": {"type": "boolean"}},
           path_params={**game, "move": UCI}),
        Op("post", prefix + "/{gameId}/draw/{accept}", "Offer or accept a draw (yes), decline "
           "it (no)", OK, "player", path_params={**game, "accept": {
               "type": "string", "enum": ["yes", "no", "true", "false"]}}),
        Op("post", prefix + "/{gameId}/takeback/{accept}", "Propose or accept a takeback "
           "(yes), decline or withdraw it (no): under the online profile; refused with the "
           "article under the Laws' (F23 4.7)", OK, "player", path_params={**game, "accept": {
               "type": "string", "enum": ["yes", "no", "true", "false"]}}),
        Op("post", prefix + "/{gameId}/claim-victory", "Claim the game, the opponent gone "
           "for the profile's time (online); refused under the Laws' profiles", OK, "player",
           path_params=game),
        Op("post", prefix + "/{gameId}/claim-draw", "Claim a draw, the opponent gone as for "
           "claim-victory", OK, "player", path_params=game),
        Op("post", prefix + "/{gameId}/berserk", "lichess' arena berserk: always refused "
           "(no arena tournaments here)", OK, "player", path_params=game),
        Op("post", prefix + "/{gameId}/resign", "Resign (Art. 5.1.2)", OK, "player",
           path_params=game),
        Op("post", prefix + "/{gameId}/abort", "Abort before both players have moved", OK,
           "player", path_params=game),
        Op("post", prefix + "/{gameId}/claim/{kind}", "Extension: claim a draw by threefold "
           "repetition or the 50-move rule (on the intended move), a sudden-death draw, or the "
           "opponent's flag", OK, "player", query={"move": UCI},
           path_params={**game, "kind": {"type": "string", "enum": [
               "threefold", "fifty", "fifty-moves", "sudden-death", "flag"]}}),
        Op("get", prefix + "/stream/{gameId}", "The game: gameFull, then gameState and "
           "chatLine lines",
           {"type": "string"}, "none", stream=True, media="application/x-ndjson",
           path_params=game),
        Op("post", prefix + "/{gameId}/chat", "Write in the game's chat: the player room "
           "(players) or the spectator room (any account)", OK, path_params=game,
           body={"room": {"type": "string", "enum": ["player", "spectator"]},
                 "text": {"type": "string", "maxLength": 140}}),
        Op("get", prefix + "/{gameId}/chat", "The game's player room (for its players): one "
           "line, a JSON array", {"type": "string"}, "player", media="application/x-ndjson",
           path_params=game),
    ]


def operations() -> list[Op]:
    """Every route of the API but the tournaments' (:mod:`chessarbiter.server.tournaments.spec`
    lists those)."""
    name = {"type": "string", "pattern": f"^{NAME.pattern}$"}
    challenge = {"challengeId": ID}
    return [
        Op("get", "/api/account", "The token's account"),
        Op("get", "/api/account/playing", "The account's games being played",
           query={"nb": {"type": "integer", "minimum": 1, "maximum": 50}}),
        Op("post", "/api/register", "Create a named account (when registration is open)",
           auth="none", body={"username": name}),
        Op("post", "/api/session", "Sign a browser in with the token (sent once, in the "
           "Authorization header): an HttpOnly session cookie the pages act by"),
        Op("delete", "/api/session", "Sign the browser out (its session cookie cleared)", OK,
           auth="none"),
        Op("post", "/api/token/test", "Each token of the body (comma-separated): its account "
           "and scopes, or null", auth="none", media="application/json"),
        Op("post", "/api/token/admin-challenge", "lichess administrators' tokens for other "
           "accounts: always refused (403)", OK, body={"users": {"type": "string"},
                                                       "description": {"type": "string"}}),
        Op("post", "/api/bot/account/upgrade", "Make the account a BOT account", OK),
        Op("get", "/api/bot/online", "The BOT accounts online (NDJSON)", {"type": "string"},
           auth="none", media="application/x-ndjson"),
        Op("get", "/api/stream/event", "The account's events: gameStart, gameFinish, "
           "challenge, challengeCanceled, challengeDeclined", {"type": "string"},
           stream=True, media="application/x-ndjson"),
        Op("get", "/api/challenge", "The account's open challenges, in and out"),
        Op("post", "/api/challenge/open", "An open challenge: the game and a link and a "
           "secret for each side", auth="optional", body=GAME_FIELDS),
        Op("post", "/api/challenge/ai", "A game against an engine (level 1-10, or a "
           "configured engine by name)", auth="optional",
           body={**GAME_FIELDS, "level": {"type": "integer", "minimum": 1, "maximum": 10},
                 "engine": {"type": "string"}}, status="201"),
        Op("post", "/api/challenge/{challengeId}/accept", "Accept a challenge", OK,
           path_params=challenge),
        Op("post", "/api/challenge/{challengeId}/decline", "Decline a challenge", OK,
           body={"reason": {"type": "string", "enum": list(DECLINE_REASONS)}},
           path_params=challenge),
        Op("post", "/api/challenge/{challengeId}/cancel", "Cancel one's challenge", OK,
           path_params=challenge),
        Op("get", "/api/challenge/{challengeId}/show", "A challenge, open or recently "
           "closed, to its challenger or opponent", path_params=challenge),
        Op("post", "/api/challenge/{gameId}/start-clocks", "With both players' tokens: the "
           "clocks run (no effect when they do; refused while they wait for the first moves)",
           OK, "none", query={"token1": {"type": "string"}, "token2": {"type": "string"}},
           path_params={"gameId": ID}),
        Op("post", "/api/round/{gameId}/add-time/{seconds}", "Give the opponent time "
           "(online profile; refused with the article under the Laws')", OK, "player",
           path_params={"gameId": ID, "seconds": {"type": "integer", "minimum": 5,
                                                  "maximum": 60}}),
        Op("get", "/api/users/status", "Each account's online and playing flags",
           {"type": "array"}, "none", query={"ids": {"type": "string"},
                                              "withGameIds": {"type": "boolean"}}),
        Op("get", "/api/stream/game/{id}", "A game for spectators: the game, a line per "
           "move, the game again at its end", {"type": "string"}, "none", stream=True,
           media="application/x-ndjson", path_params={"id": ID}),
        Op("post", "/api/challenge/{username}", "Challenge an account (acceptByToken: the "
           "opponent's token accepts it at once)",
           body={**GAME_FIELDS, "acceptByToken": {"type": "string"}},
           path_params={"username": name}),
        Op("post", "/api/board/seek", "Seek an opponent: open until paired, then the game",
           {"type": "string"}, "optional", body=SEEK_FIELDS, stream=True,
           media="application/x-ndjson"),
        *_board("/api/board/game"),
        *_board("/api/bot/game"),
        Op("get", "/api/game/{gameId}", "Extension: the game now (gameFull) with its legal "
           "moves", auth="optional", path_params={"gameId": ID}),
        Op("get", "/game/export/{gameId}", "The scoresheet as PGN", {"type": "string"},
           "none", media="application/x-chess-pgn", path_params={"gameId": ID}),
        Op("get", "/api/arbiter/games", "Arbiter: the live games",
           query={"all": {"type": "boolean"}}),
        Op("post", "/api/arbiter/game/{gameId}/{decision}", "Arbiter: a decision in a game "
           "(an event of its log)", body={
               "color": {"type": "string", "enum": ["white", "black"]},
               "seconds": {"type": "integer"}, "wtime": {"type": "integer"},
               "btime": {"type": "integer"}, "result": {"type": "string"},
               "reason": {"type": "string"}, "canMate": {"type": "boolean"},
               "ruling": {"type": "string", "enum": ["draw", "postpone", "reject"]},
               "bonusMs": {"type": "integer"}},
           path_params={"gameId": ID, "decision": {"type": "string",
                                                   "enum": sorted(DECISIONS)}}),
        Op("get", "/api/openapi.json", "This document", auth="none"),
    ]


def _operation(op: Op) -> dict[str, Any]:
    parameters = [{"name": k, "in": "path", "required": True, "schema": v}
                  for k, v in op.path_params.items()]
    parameters += [{"name": k, "in": "query", "required": False, "schema": v}
                   for k, v in op.query.items()]
    errors = {"400": "Bad request: the error names what is wrong; nothing changed",
              "401": "No token or no such token", "403": "Not allowed for this token",
              "404": "No such game, challenge or account",
              "413": "The body is too large (docs/server.md, Limits)",
              "429": "Too many creations or streams: retry after Retry-After seconds",
              "503": "Not stored (the database failed): retry"}
    responses: dict[str, Any] = {
        op.status: {"description": "OK", "content": {op.media: {"schema": op.ok}}},
        **{code: {"description": text, "content": {"application/json": {"schema": ERROR}}}
           for code, text in errors.items()},
    }
    data: dict[str, Any] = {"summary": op.summary, "operationId": _operation_id(op),
                            "parameters": parameters, "responses": responses}
    if op.body is not None:
        schema = {"type": "object", "properties": op.body}
        data["requestBody"] = {"required": False, "content": {
            "application/x-www-form-urlencoded": {"schema": schema},
            "application/json": {"schema": schema}}}
    if op.auth == "token":
        data["security"] = [{"bearer": []}, {"session": []}]
    elif op.auth == "player":
        data["security"] = [{"bearer": []}, {"gameCookie": []}, {"session": []}]
    elif op.auth == "optional":
        data["security"] = [{"bearer": []}, {}]
    else:
        data["security"] = [{}]
    if op.stream:
        data["x-stream"] = True
    return data


def _operation_id(op: Op) -> str:
    words = [w.strip("{}") for w in op.path.split("/") if w and w != "api"]
    return op.method + "".join(w[:1].upper() + w[1:] for w in words).replace(".", "_")


def document(more: Sequence[Op] = ()) -> dict[str, Any]:
    """The OpenAPI document of :func:`operations` and ``more``."""
    paths: dict[str, dict[str, Any]] = {}
    for op in (*operations(), *more):
        paths.setdefault(op.path, {})[op.method] = _operation(op)
    return {
        "openapi": "3.0.3",
        "info": {"title": "chessarbiter server", "version": "1",
                 "description": "The lichess Board API as chessarbiter serves it, with its "
                                "extensions and the arbiter's routes (docs/server.md)."},
        "paths": paths,
        "components": {
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer",
                           "description": "an account's API token, or a game secret"},
                "gameCookie": {"type": "apiKey", "in": "cookie",
                               "name": "chessarbiter-GAMEID",
                               "description": "the game secret, set by the browser pages"},
                "session": {"type": "apiKey", "in": "cookie", "name": "chessarbiter-session",
                            "description": "a browser session (POST /api/session); a "
                                           "request changing something must come from the "
                                           "server's pages (Origin)"},
            },
            "schemas": {
                "Error": {"type": "object", "required": ["error"],
                          "properties": {"error": {"type": "string"}}},
                "Ok": {"type": "object", "required": ["ok"],
                       "properties": {"ok": {"type": "boolean"},
                                      "notes": {"type": "array", "items": OBJECT}}},
            },
        },
    }
