"""A tournament as the API and the pages show it (JSON): settings, players, each round's
boards with their results and game links, the standings with tie-breaks, and the
crosstable (each player's rounds: opponent, colour, result code). A rendering reads a
:class:`Shown` alone, so that it can run in another process (:func:`rendered`)."""

from __future__ import annotations

import json
import pickle
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, TypeVar

from chessarbiter.clock import Side
from chessarbiter.clock.controls import TimeControl
from chessarbiter.laws.profiles import RuleProfile
from chessarbiter.tournament.director import ranking
from chessarbiter.tournament.log import TournamentState

T = TypeVar("T")


@dataclass(frozen=True)
class Shown:
    """A tournament as its renderings read it: its log's state, the server's settings, the
    games of its rounds by (round, White's number), and the account id of each player
    whose name is an account's (by the player's name)."""

    tournament_id: int
    state: TournamentState
    organiser: str
    control_text: str
    control: TimeControl | None
    profile: RuleProfile
    games: dict[tuple[int, int], str]
    accounts: dict[str, str]


def rendered(render: Callable[[Shown], T], shown: bytes, accounts: dict[str, str]) -> T:
    """``render`` of the pickled :class:`Shown` ``shown`` with the players' ``accounts``
    (in the process that renders)."""
    found: Shown = pickle.loads(shown)
    return render(replace(found, accounts=accounts))


def number(value: Fraction) -> float:
    """A score or tie-break value for JSON (to 2 decimals: ARO and TPR are averages)."""
    return round(float(value), 2)


def player_json(state: TournamentState, registration: int, starts: dict[int, int]
                ) -> dict[str, Any]:
    player = state.players[registration]
    return {"start": starts[registration], "name": player.name, "rating": player.rating}


def tournament_bytes(shown: Shown) -> bytes:
    """:func:`tournament_json` as the API sends it (UTF-8 JSON)."""
    return json.dumps(tournament_json(shown), ensure_ascii=False, allow_nan=False,
                      separators=(",", ":")).encode()


def tournament_json(shown: Shown) -> dict[str, Any]:
    """The whole tournament (games by their ids: the game's page is ``/{id}``; a player
    whose name is an account's has its ``account`` id)."""
    state = shown.state
    settings = state.settings
    starts = state.start_numbers()
    players = [{**player_json(state, n, starts), "title": state.players[n].title,
                "account": shown.accounts.get(state.players[n].name),
                "withdrawnFrom": state.withdrawn.get(n)}
               for n in state.order()]
    rounds = []
    for round_no, game_round in enumerate(state.rounds, 1):
        boards = [{"board": board, "white": player_json(state, w, starts),
                   "black": player_json(state, b, starts),
                   "result": game_round.results.get(w),
                   "game": shown.games.get((round_no, w))}
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
        "id": shown.tournament_id,
        "name": settings.name,
        "system": settings.system.value,
        "rounds": state.total_rounds,
        "paired": state.paired,
        "finished": state.finished,
        "timeControl": shown.control_text,
        "profile": shown.profile.name,
        "clockStart": None if shown.control is None else shown.profile.clock_start.value,
        "organiser": shown.organiser,
        "tiebreaks": list(settings.tiebreaks),
        "players": players,
        "pairings": rounds,
        "standings": standings,
        "crosstable": crosstable,
    }

