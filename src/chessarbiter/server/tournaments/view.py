"""A tournament as the API and the pages show it (JSON): settings, players, each round's
boards with their results and game links, the standings with tie-breaks, and the
crosstable (each player's rounds: opponent, colour, result code)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from chessarbiter.clock import Side
from chessarbiter.server.accounts import Accounts
from chessarbiter.server.tournaments.desk import Loaded
from chessarbiter.tournament.director import ranking
from chessarbiter.tournament.log import TournamentState


def number(value: Fraction) -> float:
    """A score or tie-break value for JSON (to 2 decimals: ARO and TPR are averages)."""
    return round(float(value), 2)


def player_json(state: TournamentState, registration: int, starts: dict[int, int]
                ) -> dict[str, Any]:
    player = state.players[registration]
    return {"start": starts[registration], "name": player.name, "rating": player.rating}


def tournament_json(loaded: Loaded, accounts: Accounts) -> dict[str, Any]:
    """The whole tournament (games by their ids: the game's page is ``/{id}``; a player
    whose name is an account's has its ``account`` id)."""
    tournament = loaded.tournament
    state = tournament.state
    settings = state.settings
    starts = state.start_numbers()
    players = [{**player_json(state, n, starts), "title": state.players[n].title,
                "account": _account(accounts, state.players[n].name),
                "withdrawnFrom": state.withdrawn.get(n)}
               for n in state.order()]
    rounds = []
    for round_no, game_round in enumerate(state.rounds, 1):
        boards = [{"board": board, "white": player_json(state, w, starts),
                   "black": player_json(state, b, starts),
                   "result": game_round.results.get(w),
                   "game": loaded.games.get((round_no, w))}
                  for board, (w, b) in enumerate(game_round.boards, 1)]
        bye = None if game_round.bye is None else player_json(state, game_round.bye, starts)
        rounds.append({"round": round_no, "boards": boards, "bye": bye,
                       "complete": game_round.complete})
    ranked = ranking(state)
    standings = [{"place": row.place, "start": row.entrant.start, "name": row.entrant.name,
                  "rating": row.entrant.rating, "points": number(row.points),
                  "tiebreaks": [number(v) for v in row.values]} for row in ranked]
    cells = state.cells()
    crosstable = [{"start": row.entrant.start, "name": row.entrant.name,
                   "points": number(row.points),
                   "rounds": [{"opponent": cell.opponent,
                               "color": None if cell.side is None
                               else ("white" if cell.side is Side.WHITE else "black"),
                               "code": cell.code.value.strip()}
                              for cell in cells[row.entrant.start]]}
                  for row in ranked]
    return {
        "id": tournament.tournament_id,
        "name": settings.name,
        "system": settings.system.value,
        "rounds": state.total_rounds,
        "paired": state.paired,
        "finished": state.finished,
        "timeControl": loaded.control_text,
        "profile": loaded.profile.name,
        "clockStart": None if loaded.control is None else loaded.profile.clock_start.value,
        "organiser": loaded.organiser,
        "tiebreaks": list(settings.tiebreaks),
        "players": players,
        "pairings": rounds,
        "standings": standings,
        "crosstable": crosstable,
    }


def _account(accounts: Accounts, name: str) -> str | None:
    found = accounts.by_name(name)
    return None if found is None else found.id
