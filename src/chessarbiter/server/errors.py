"""The API's error: an HTTP status and a message naming what is wrong (lichess' shape,
``{"error": "..."}``); nothing has changed when it is raised."""

from __future__ import annotations


class ApiError(Exception):
    """A request the server refuses: ``status`` (4xx, or 503 when the database failed) and
    ``message``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
