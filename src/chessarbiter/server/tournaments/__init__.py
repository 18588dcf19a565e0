"""Tournaments on the game server: the pages (registration, pairings per round, results
entry, standings and crosstable), the JSON routes, and the link between a tournament's
rounds and the server's games (:mod:`.desk`). The app adds :func:`routes` before the
browser pages' (whose game page answers any one-segment path)."""

from __future__ import annotations

from pathlib import Path

from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from chessarbiter.server.games.hub import Hub
from chessarbiter.server.tournaments import api, pages
from chessarbiter.server.tournaments.desk import DESKS, Desk


def routes(hub: Hub) -> list[BaseRoute]:
    """The tournament routes of the app over ``hub`` (whose ending games now enter their
    results in their tournaments)."""
    desk = Desk(hub)
    desk.attach()
    DESKS[hub] = desk
    tid = "/tournament/{tournamentId:int}"
    return [
        *api.routes(),
        Route("/tournaments", pages.listing),
        Route(tid, pages.overview),
        Route(tid + "/round/{round:int}", pages.pairings),
        Route(tid + "/standings", pages.standings),
        Mount("/tournaments/static", StaticFiles(directory=Path(__file__).parent / "static"),
              name="tournament-static"),
    ]


__all__ = ["routes"]
