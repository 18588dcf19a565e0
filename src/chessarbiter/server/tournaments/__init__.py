"""Tournaments on the game server: the pages (registration, pairings per round, results
entry, standings and crosstable), the JSON routes (:func:`operations`, entries of the app's
route table), and the link between a tournament's rounds and the server's games
(:mod:`.desk`, :func:`attach`). The app adds :func:`page_routes` before the browser pages'
(whose game page answers any one-segment path)."""

from __future__ import annotations

from pathlib import Path

from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from chessarbiter.server.http.services import Services
from chessarbiter.server.tournaments import pages
from chessarbiter.server.tournaments.api import operations
from chessarbiter.server.tournaments.desk import DESKS, Desk
from chessarbiter.server.tournaments.keeping import Keeping


def attach(services: Services, keeping: Keeping) -> None:
    """The tournaments' desk over the server's ``services``, keeping the tournaments' logs in
    ``keeping``; the game room's ending games now enter their results in their
    tournaments."""
    desk = Desk(services.hub, services.config, services.members, keeping)
    desk.attach()
    DESKS[services.hub] = desk


def page_routes() -> list[BaseRoute]:
    """The tournaments' pages and their static files."""
    tid = "/tournament/{tournamentId:int}"
    return [
        Route("/tournaments", pages.listing),
        Route(tid, pages.overview),
        Route(tid + "/round/{round:int}", pages.pairings),
        Route(tid + "/standings", pages.standings),
        Mount("/tournaments/static", StaticFiles(directory=Path(__file__).parent / "static"),
              name="tournament-static"),
    ]


__all__ = ["attach", "operations", "page_routes"]
