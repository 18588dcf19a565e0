"""The browser board served by the game server: the home page (start a game), the game page
(cm-chessboard, clocks, the players' actions, an accessible mode), the arbiter's console, and
the small JSON routes that let the pages show the Laws without any chess logic in JavaScript.

The app adds :func:`routes` to its own; every game action goes through the server's Board API.
"""

from __future__ import annotations

from chessarbiter.server.web.pages import PLAYING, missing, routes, wants_page

__all__ = ["PLAYING", "missing", "routes", "wants_page"]
