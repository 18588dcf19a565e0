"""The API's route table: every route written once, as an :class:`~.openapi.Op` (its method,
path, who may call it, its handler, its description). The app's Starlette routes, the fast
path (:mod:`.fastpath`: the routes whose handler is plain ASGI), the cluster's forwarding to
a game's owner (:class:`~chessarbiter.server.cluster.cluster.Forwarding`: the routes about
one game) and the OpenAPI document are all read from it. :data:`ROUTES` holds the routes
written here; the app reads the table they make with the tournaments' routes
(:meth:`Table.extended`: the tournaments' part is above this one and brings its own)."""

from __future__ import annotations

import re
from typing import Any, Final

from starlette.routing import BaseRoute, Route

from chessarbiter.server.accounts import NAME
from chessarbiter.server.games.shapes import DECLINE_REASONS
from chessarbiter.server.games.spectate import SPECTATORS
from chessarbiter.server.http import arbiter_api, board_api, bot_api, games_api, openapi
from chessarbiter.server.http.arbiter_api import DECISIONS
from chessarbiter.server.http.asgi import Raw
from chessarbiter.server.http.openapi import GAME_FIELDS, ID, OK, SEEK_FIELDS, UCI, Op

GAME_ID: Final = re.compile(ID["pattern"])
"""A game's id as a route about one game names it (other paths are not forwarded)."""


class Template:
    """A route's path, matched segment by segment as Starlette's router matches it (a
    parameter ``{name}`` is one segment, never empty)."""

    def __init__(self, path: str) -> None:
        self.parts = path.split("/")
        self.params = {i: part[1:-1] for i, part in enumerate(self.parts)
                       if part.startswith("{") and part.endswith("}")}

    def match(self, parts: list[str]) -> dict[str, Any] | None:
        """The path parameters of a path split at its slashes; ``None``: another path."""
        if len(parts) != len(self.parts):
            return None
        found = {}
        for i, part in enumerate(parts):
            name = self.params.get(i)
            if name is None:
                if part != self.parts[i]:
                    return None
            elif not part:
                return None
            else:
                found[name] = part
        return found


class Table:
    """The routes (:data:`ROUTES`), read for each use."""

    def __init__(self, ops: list[Op]) -> None:
        self.ops = ops
        self._hot: dict[tuple[str, int], list[tuple[Template, Raw]]] = {}
        for op in ops:
            if isinstance(op.handler, Raw):
                template = Template(op.path)
                self._hot.setdefault((op.method.upper(), len(template.parts)), []).append(
                    (template, op.handler))
        self._owned = [(Template(op.path), op) for op in ops if op.owned]

    def extended(self, ops: list[Op]) -> Table:
        """The table with ``ops`` after its own routes."""
        return Table([*self.ops, *ops])

    def routes(self) -> list[BaseRoute]:
        """The Starlette routes, in the table's order."""
        return [Route(op.path, op.handler, methods=[op.method.upper()]) for op in self.ops]

    def documented(self) -> list[Op]:
        return [op for op in self.ops if op.documented]

    def hot(self, method: str, path: str) -> tuple[Raw, dict[str, Any]] | None:
        """The plain-ASGI endpoint and path parameters of a hot route, as the router would
        find them (``None``: not a hot route)."""
        parts = path.split("/")
        for template, handler in self._hot.get((method, len(parts)), ()):
            params = template.match(parts)
            if params is not None:
                return handler, params
        return None

    def game_of(self, method: str, path: str) -> tuple[str, bool] | None:
        """The game a request is about (a route about one game, the one the router would
        take: the method's, else the path's), and whether it asks for the game's stream."""
        parts = path.split("/")
        found = None
        for template, op in self._owned:
            params = template.match(parts)
            if params is not None and (found is None or op.method.upper() == method):
                game_id = params["gameId"] if "gameId" in params else params["id"]
                found = (game_id, op.stream and op.method.upper() == method)
                if op.method.upper() == method:
                    break
        if found is None or not GAME_ID.fullmatch(found[0]):
            return None
        return found


def _game(prefix: str) -> list[Op]:
    """The routes of one game under ``prefix`` (the Board API's and the Bot API's)."""
    game = {"gameId": ID}
    return [
        Op("post", prefix + "/{gameId}/move/{move}", "Play a move (UCI), optionally offering "
           "a draw (or agreeing to the opponent's offer)", OK, "player",
           query={"offeringDraw": {"type": "boolean"}},
           path_params={**game, "move": UCI},
           handler=board_api.move, owned=True),
        Op("post", prefix + "/{gameId}/draw/{accept}", "Offer or accept a draw (yes), decline "
           "it (no)", OK, "player", path_params={**game, "accept": {
               "type": "string", "enum": ["yes", "no", "true", "false"]}},
           handler=board_api.draw, owned=True),
        Op("post", prefix + "/{gameId}/takeback/{accept}", "Propose or accept a takeback "
           "(yes), decline or withdraw it (no): under the online profile; refused with the "
           "article under the Laws' (F23 4.7)", OK, "player", path_params={**game, "accept": {
               "type": "string", "enum": ["yes", "no", "true", "false"]}},
           handler=board_api.takeback, owned=True),
        Op("post", prefix + "/{gameId}/claim-victory", "Claim the game, the opponent gone "
           "for the profile's time (online); refused under the Laws' profiles", OK, "player",
           path_params=game,
           handler=board_api.claim_victory, owned=True),
        Op("post", prefix + "/{gameId}/claim-victory/", "The same, with a trailing slash",
           OK, "player", path_params=game, handler=board_api.claim_victory, owned=True,
           documented=False),
        Op("post", prefix + "/{gameId}/claim-draw", "Claim a draw, the opponent gone as for "
           "claim-victory", OK, "player", path_params=game,
           handler=board_api.claim_draw, owned=True),
        Op("post", prefix + "/{gameId}/berserk", "lichess' arena berserk: always refused "
           "(no arena tournaments here)", OK, "player", path_params=game,
           handler=board_api.berserk, owned=True),
        Op("post", prefix + "/{gameId}/resign", "Resign (Art. 5.1.2)", OK, "player",
           path_params=game,
           handler=board_api.resign, owned=True),
        Op("post", prefix + "/{gameId}/abort", "Abort before both players have moved", OK,
           "player", path_params=game,
           handler=board_api.abort, owned=True),
        Op("post", prefix + "/{gameId}/claim/{kind}", "Extension: claim a draw by threefold "
           "repetition or the 50-move rule (on the intended move), a sudden-death draw, or the "
           "opponent's flag", OK, "player", query={"move": UCI},
           path_params={**game, "kind": {"type": "string", "enum": [
               "threefold", "fifty", "fifty-moves", "sudden-death", "flag"]}},
           handler=board_api.claim, owned=True),
        Op("get", prefix + "/stream/{gameId}", "The game: gameFull, then gameState and "
           "chatLine lines",
           {"type": "string"}, "none", stream=True, media="application/x-ndjson",
           path_params=game,
           handler=board_api.game_stream, owned=True),
        Op("post", prefix + "/{gameId}/chat", "Write in the game's chat: the player room "
           "(players) or the spectator room (any account)", OK, path_params=game,
           body={"room": {"type": "string", "enum": ["player", "spectator"]},
                 "text": {"type": "string", "maxLength": 140}},
           handler=bot_api.write_chat, owned=True),
        Op("get", prefix + "/{gameId}/chat", "The game's player room (for its players): one "
           "line, a JSON array", {"type": "string"}, "player", media="application/x-ndjson",
           path_params=game,
           handler=bot_api.read_chat, owned=True),
    ]


def _table() -> list[Op]:
    """The routes, the games' first (the hot path: the router matches them in order)."""
    name = {"type": "string", "pattern": f"^{NAME.pattern}$"}
    challenge = {"challengeId": ID}
    return [
        *_game("/api/board/game"),
        *_game("/api/bot/game"),
        Op("get", "/api/account", "The token's account",
           handler=board_api.get_account),
        Op("get", "/api/account/playing", "The account's games being played",
           query={"nb": {"type": "integer", "minimum": 1, "maximum": 50}},
           handler=board_api.get_playing),
        Op("post", "/api/register", "Create a named account (when registration is open)",
           auth="none", body={"username": name},
           handler=board_api.register),
        Op("post", "/api/session", "Sign a browser in with the token (sent once, in the "
           "Authorization header): an HttpOnly session cookie the pages act by",
           handler=board_api.open_session),
        Op("delete", "/api/session", "Sign the browser out (its session cookie cleared)", OK,
           auth="none",
           handler=board_api.close_session),
        Op("post", "/api/token/test", "Each token of the body (comma-separated): its account "
           "and scopes, or null", auth="none", media="application/json",
           handler=bot_api.token_test),
        Op("post", "/api/token/admin-challenge", "lichess administrators' tokens for other "
           "accounts: always refused (403)", OK, body={"users": {"type": "string"},
                                                       "description": {"type": "string"}},
           handler=bot_api.admin_tokens),
        Op("post", "/api/bot/account/upgrade", "Make the account a BOT account", OK,
           handler=bot_api.upgrade),
        Op("get", "/api/bot/online", "The BOT accounts online (NDJSON)", {"type": "string"},
           auth="none", media="application/x-ndjson",
           handler=bot_api.bots_online),
        Op("get", "/api/stream/event", "The account's events: gameStart, gameFinish, "
           "challenge, challengeCanceled, challengeDeclined", {"type": "string"},
           stream=True, media="application/x-ndjson",
           handler=board_api.event_stream),
        Op("get", "/api/challenge", "The account's open challenges, in and out",
           handler=board_api.list_challenges),
        Op("post", "/api/challenge/open", "An open challenge: the game and a link and a "
           "secret for each side", auth="optional", body=GAME_FIELDS,
           handler=board_api.open_challenge),
        Op("post", "/api/challenge/ai", "A game against an engine (level 1-10, or a "
           "configured engine by name)", auth="optional",
           body={**GAME_FIELDS, "level": {"type": "integer", "minimum": 1, "maximum": 10},
                 "engine": {"type": "string"}}, status="201",
           handler=board_api.challenge_ai),
        Op("post", "/api/challenge/{challengeId}/accept", "Accept a challenge", OK,
           path_params=challenge,
           handler=board_api.accept_challenge),
        Op("post", "/api/challenge/{challengeId}/decline", "Decline a challenge", OK,
           body={"reason": {"type": "string", "enum": list(DECLINE_REASONS)}},
           path_params=challenge,
           handler=board_api.decline_challenge),
        Op("post", "/api/challenge/{challengeId}/cancel", "Cancel one's challenge", OK,
           path_params=challenge,
           handler=board_api.cancel_challenge),
        Op("get", "/api/challenge/{challengeId}/show", "A challenge, open or recently "
           "closed, to its challenger or opponent", path_params=challenge,
           handler=games_api.show_challenge),
        Op("post", "/api/challenge/{gameId}/start-clocks", "With both players' tokens: the "
           "clocks run (no effect when they do; refused while they wait for the first moves)",
           OK, "none", query={"token1": {"type": "string"}, "token2": {"type": "string"}},
           path_params={"gameId": ID},
           handler=games_api.start_clocks),
        Op("post", "/api/round/{gameId}/add-time/{seconds}", "Give the opponent time "
           "(online profile; refused with the article under the Laws')", OK, "player",
           path_params={"gameId": ID, "seconds": {"type": "integer", "minimum": 5,
                                                  "maximum": 60}},
           handler=board_api.add_time),
        Op("get", "/api/users/status", "Each account's online and playing flags",
           {"type": "array"}, "none", query={"ids": {"type": "string"},
                                              "withGameIds": {"type": "boolean"}},
           handler=games_api.users_status),
        Op("get", SPECTATORS + "{id}", "A game for spectators: the game, a line per move "
           "(an ongoing game three moves behind), the game again at its end",
           {"type": "string"}, "none", stream=True, media="application/x-ndjson",
           path_params={"id": ID}, handler=games_api.stream_game, owned=True),
        Op("post", "/api/challenge/{username}", "Challenge an account (acceptByToken: the "
           "opponent's token accepts it at once)",
           body={**GAME_FIELDS, "acceptByToken": {"type": "string"}},
           path_params={"username": name},
           handler=board_api.create_challenge),
        Op("post", "/api/board/seek", "Seek an opponent: open until paired, then the game",
           {"type": "string"}, "optional", body=SEEK_FIELDS, stream=True,
           media="application/x-ndjson",
           handler=board_api.seek),
        Op("get", "/api/game/{gameId}", "Extension: the game now (gameFull) with its legal "
           "moves", auth="optional", path_params={"gameId": ID},
           handler=board_api.game_json, owned=True),
        Op("get", "/game/export/{gameId}", "The scoresheet as PGN", {"type": "string"},
           "none", media="application/x-chess-pgn", path_params={"gameId": ID},
           handler=board_api.export, owned=True),
        Op("get", "/api/arbiter/games", "Arbiter: the live games",
           query={"all": {"type": "boolean"}},
           handler=arbiter_api.list_games),
        Op("post", "/api/arbiter/game/{gameId}/{decision}", "Arbiter: a decision in a game "
           "(an event of its log)", body={
               "color": {"type": "string", "enum": ["white", "black"]},
               "seconds": {"type": "integer"}, "wtime": {"type": "integer"},
               "btime": {"type": "integer"}, "result": {"type": "string"},
               "reason": {"type": "string"}, "canMate": {"type": "boolean"},
               "ruling": {"type": "string", "enum": ["draw", "postpone", "reject"]},
               "bonusMs": {"type": "integer"}},
           path_params={"gameId": ID, "decision": {"type": "string",
                                                   "enum": sorted(DECISIONS)}},
           handler=arbiter_api.decide, owned=True),
        Op("get", "/api/openapi.json", "This document", auth="none",
           handler=openapi.serve),
    ]


ROUTES: Final = Table(_table())
"""The API's routes (the tournaments' and the pages' are theirs)."""
