"""The API's error: an HTTP status and a message naming what is wrong (lichess' shape,
``{"error": "..."}``); nothing has changed when it is raised."""

from __future__ import annotations

from collections.abc import Mapping


class ApiError(Exception):
    """A request the server refuses: ``status`` (4xx, or 503 when the database failed),
    ``message`` and the answer's extra ``headers`` (e.g. ``Retry-After`` with a 429)."""

    def __init__(self, status: int, message: str,
                 headers: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = dict(headers or {})


class OwnedElsewhere(ApiError):
    """503: another process of the cluster owns the game (the request may be sent again: it
    is then forwarded there)."""

    def __init__(self, game_id: str, message: str = "another process owns it") -> None:
        super().__init__(503, f"game {game_id}: {message}; try again")
        self.game_id = game_id
