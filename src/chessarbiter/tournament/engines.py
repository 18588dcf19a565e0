"""Engine tournaments: a round robin (single or double), a Swiss (FIDE Dutch) or a gauntlet
between several engines, each game played under the Laws by :func:`match.play_game`.

Round robins and Swisses are run as tournaments (``tournament.log``): paired by the
director, results entered as games end, kept in a tournament store when one is given, and
ranked with their tie-breaks. A gauntlet plays the first engine against each other one.
Every engine's Elo difference against its opponents comes from its tally (``elo.Tally``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING

from chessarbiter.clock.controls import TimeControl
from chessarbiter.laws.endings import Result
from chessarbiter.laws.profiles import RuleProfile
from chessarbiter.store import EventStore
from chessarbiter.tournament.director import pair_next
from chessarbiter.tournament.elo import Tally
from chessarbiter.tournament.events import (
    RESULTS,
    Event,
    Registered,
    ResultEntered,
    Settings,
    System,
    TournamentError,
)
from chessarbiter.tournament.log import Tournament, TournamentState
from chessarbiter.tournament.match import (
    Adjudication,
    GameReport,
    MatchConfig,
    in_workers,
    keep,
    play_game,
)
from chessarbiter.tournament.openings import START, Opening
from chessarbiter.tournament.tiebreaks import GAME_POINTS

if TYPE_CHECKING:
    from chessarbiter.store.tournaments import TournamentStore

FORMATS = ("roundrobin", "double", "swiss", "gauntlet")
SYSTEMS = {"roundrobin": System.ROUND_ROBIN, "double": System.DOUBLE_ROUND_ROBIN,
           "swiss": System.SWISS}
TIEBREAKS = {System.SWISS: ("BH-C1", "BH", "SB"), System.ROUND_ROBIN: ("SB", "DE", "WIN"),
             System.DOUBLE_ROUND_ROBIN: ("SB", "DE", "WIN")}
RESULT_TEXT = {Result.WHITE_WINS: "1-0", Result.BLACK_WINS: "0-1", Result.DRAW: "1/2-1/2",
               Result.BOTH_LOSE: "--"}
"""A finished game's result as the tournament enters it (both losing scores 0-0)."""


@dataclass(frozen=True)
class EngineTournament:
    """Engines (specs as for ``match``) and how they meet: ``rounds`` is a Swiss's number
    of rounds, or a gauntlet's games against each opponent (colours alternating)."""

    players: tuple[str, ...]
    format: str
    control: TimeControl | None
    profile: RuleProfile
    rounds: int = 2
    openings: tuple[Opening, ...] = START
    chess960: bool = False
    adjudication: Adjudication = field(default_factory=Adjudication)
    seed: int | None = None
    name: str = "chessarbiter engine tournament"
    shown: tuple[str, ...] = ()
    """The players' names as they play (``match.check_engines``), by index; the specs when
    not given."""

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise TournamentError(f"format {self.format!r}: expected one of "
                                  + ", ".join(FORMATS))
        if len(self.players) < 2:
            raise TournamentError("players: a tournament needs at least 2 engines")
        if self.shown and len(self.shown) != len(self.players):
            raise TournamentError(f"shown: {len(self.shown)} names for {len(self.players)} "
                                  "players")
        if self.rounds < 1:
            raise TournamentError(f"rounds {self.rounds}: at least 1")


def player_names(names: Sequence[str]) -> list[str]:
    """A name for each player (its spec, or the name it plays under), numbered when the
    same name plays more than once."""
    unique = []
    for index, name in enumerate(names):
        if names.count(name) == 1:
            unique.append(name)
        else:
            unique.append(f"{name} #{names[:index + 1].count(name)}")
    return unique


@dataclass(frozen=True)
class Pairing:
    """A game to play: round, board, and the players (indexes into ``players``)."""

    round: int
    board: int
    white: int
    black: int


@dataclass(frozen=True)
class Played:
    """A game played: its pairing and report."""

    pairing: Pairing
    report: GameReport


@dataclass
class Outcome:
    """What the tournament gave: each player's tally (by name), the games played, and the
    tournament's final state (``None`` for a gauntlet)."""

    names: list[str]
    tallies: dict[str, Tally]
    games: int = 0
    state: TournamentState | None = None


class _Unsaved:
    """A tournament kept in memory only (no store given)."""

    def __init__(self, settings: Settings) -> None:
        self.state = TournamentState(settings)

    def apply(self, event: Event) -> None:
        self.state.apply(event)


def _config(event: EngineTournament, pairing: Pairing, opening: Opening) -> tuple[
        MatchConfig, int]:
    """The one-game match that plays ``pairing`` with :func:`play_game`: ``index`` is the
    round less one (the PGN's Round), its parity deciding which of the pair is "first"."""
    index = pairing.round - 1
    white, black = event.players[pairing.white], event.players[pairing.black]
    first, second = (white, black) if index % 2 == 0 else (black, white)
    seed = None if event.seed is None else event.seed * 1000 + pairing.board
    return MatchConfig(first, second, 1, event.control, event.profile, (opening,),
                       event.chess960, event.adjudication, seed, event.name), index


def _play(event: EngineTournament, pairing: Pairing, opening: Opening) -> Played:
    config, index = _config(event, pairing, opening)
    return Played(pairing, play_game(config, index))


def _games(event: EngineTournament, round_games: Sequence[Pairing],
           concurrency: int) -> Iterator[Played]:
    openings = event.openings
    jobs = [(p, openings[(p.round - 1 + p.board - 1) % len(openings)]) for p in round_games]
    if concurrency <= 1 or len(jobs) <= 1:
        for pairing, opening in jobs:
            yield _play(event, pairing, opening)
        return
    yield from in_workers(_play, [(event, pairing, opening) for pairing, opening in jobs],
                          concurrency)


def _score(tally: Tally, points: float) -> Tally:
    return Tally(tally.wins + (points == 1), tally.losses + (points == 0),
                 tally.draws + (points == 0.5))


def run_engine_tournament(
    event: EngineTournament,
    *,
    concurrency: int = 1,
    pgn: IO[str] | None = None,
    games_store: EventStore | None = None,
    store: TournamentStore | None = None,
    progress: Callable[[Played, Outcome], None] | None = None,
) -> Outcome:
    """Play the tournament, ``concurrency`` games of a round at a time, writing each game's
    PGN to ``pgn`` and its events to ``games_store``; a round robin or Swiss is kept in
    ``store`` when given. Returns every player's tally and the final state."""
    names = player_names(event.shown or event.players)
    outcome = Outcome(names, {name: Tally() for name in names})

    def record(played: Played) -> None:
        report, pairing = played.report, played.pairing
        white, black = names[pairing.white], names[pairing.black]
        codes = RESULTS[RESULT_TEXT[report.result]]
        white_points, black_points = (float(GAME_POINTS.get(code, 0)) for code in codes)
        outcome.tallies[white] = _score(outcome.tallies[white], white_points)
        outcome.tallies[black] = _score(outcome.tallies[black], black_points)
        outcome.games += 1
        keep(report, pgn, games_store)
        if progress is not None:
            progress(played, outcome)

    if event.format == "gauntlet":
        games = [Pairing(g + 1, j, *((0, j) if g % 2 == 0 else (j, 0)))
                 for j in range(1, len(names)) for g in range(event.rounds)]
        for round_no in range(1, event.rounds + 1):
            for played in _games(event, [g for g in games if g.round == round_no],
                                 concurrency):
                record(played)
        return outcome
    system = SYSTEMS[event.format]
    settings = Settings(event.name, system, event.rounds if system is System.SWISS else None,
                        tiebreaks=TIEBREAKS[system])
    log: Tournament | _Unsaved = (_Unsaved(settings) if store is None
                                  else Tournament.create(store, settings))
    for name in names:
        log.apply(Registered(name))
    index = {number: names.index(player.name) for number, player in log.state.players.items()}
    number_of = {i: number for number, i in index.items()}
    while log.state.paired < log.state.total_rounds:
        for paired in pair_next(log.state):
            log.apply(paired)
        round_no = log.state.paired
        boards = log.state.rounds[-1].boards
        round_games = [Pairing(round_no, board, index[w], index[b])
                       for board, (w, b) in enumerate(boards, 1)]
        for played in _games(event, round_games, concurrency):
            log.apply(ResultEntered(round_no, number_of[played.pairing.white],
                                    RESULT_TEXT[played.report.result]))
            record(played)
    outcome.state = log.state
    return outcome
