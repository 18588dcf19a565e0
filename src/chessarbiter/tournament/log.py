"""A tournament as an append-only log of events, its state derived by replaying them.

:class:`TournamentState` applies one event at a time, refusing (``TournamentError``, before
changing anything) what the tournament does not allow; everything else — start numbers,
each player's cells (``records.Cell``), who is to be paired — is computed from what it holds.
:class:`Tournament` keeps the log in a :class:`~chessarbiter.store.tournaments.TournamentLogs`.

Start numbers (C.04.2): in a Swiss, the players ranked by rating, then title, then name (a
late entry takes its place in that order, and the others' numbers move); in a round robin,
the registration order (the drawing of lots is the arbiter's, before registering).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from chessarbiter.clock import Side
from chessarbiter.store.base import StoreError
from chessarbiter.tournament.events import (
    REQUESTABLE,
    RESULTS,
    ByeRequested,
    Created,
    Event,
    Paired,
    Registered,
    ResultEntered,
    Settings,
    System,
    TournamentError,
    Withdrawn,
    event_from_dict,
    event_to_dict,
)
from chessarbiter.tournament.records import Cell, Code, Entrant
from chessarbiter.tournament.roundrobin import schedule
from chessarbiter.tournament.tiebreaks import parse_tiebreak

if TYPE_CHECKING:
    from chessarbiter.store.tournaments import StoredEvent, TournamentLogs

TITLES = ("GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM")
"""FIDE titles, highest first (C.04.2: the order after rating)."""
MAX_RATING = 4000


@dataclass
class RoundState:
    """A paired round: its boards, the pairing-allocated bye and the results so far (by
    White's registration number)."""

    boards: tuple[tuple[int, int], ...]
    bye: int | None
    results: dict[int, str] = field(default_factory=dict)
    entered: dict[int, list[tuple[str, int]]] = field(default_factory=dict)
    """Each game's results as entered, in order, with the number of rounds paired then."""

    @property
    def complete(self) -> bool:
        return len(self.results) == len(self.boards)


@dataclass
class TournamentState:
    """What the log says so far."""

    settings: Settings
    players: dict[int, Registered] = field(default_factory=dict)
    joined: dict[int, int] = field(default_factory=dict)
    """The first round each player can be paired in (late entries join later)."""
    withdrawn: dict[int, int] = field(default_factory=dict)
    """The first round a withdrawn player is not paired in."""
    byes: dict[tuple[int, int], Code] = field(default_factory=dict)
    """Requested byes by (round, player)."""
    rounds: list[RoundState] = field(default_factory=list)

    # -- derived ----------------------------------------------------------------------------

    @property
    def round_robin(self) -> bool:
        return self.settings.system is not System.SWISS

    @property
    def total_rounds(self) -> int:
        """The rounds the tournament has (a round robin's from its players)."""
        if not self.round_robin:
            assert self.settings.rounds is not None
            return self.settings.rounds
        count = len(self.players)
        if count < 2:
            return 0
        return len(schedule(count, cycles=self.cycles))

    @property
    def cycles(self) -> int:
        return 2 if self.settings.system is System.DOUBLE_ROUND_ROBIN else 1

    @property
    def paired(self) -> int:
        """The number of rounds paired."""
        return len(self.rounds)

    @property
    def finished(self) -> bool:
        return (self.paired == self.total_rounds and self.paired > 0
                and self.rounds[-1].complete)

    def order(self) -> list[int]:
        """Registration numbers in start-number order: start numbers kept from an imported
        file first, then the others (late entries of an imported tournament) by C.04.2."""
        if self.round_robin:
            return sorted(self.players)
        kept = sorted((p.start, n) for n, p in self.players.items() if p.start is not None)
        if kept:
            rest = [n for n, p in self.players.items() if p.start is None]
            return [n for _, n in kept] + sorted(rest, key=self._seed)
        return sorted(self.players, key=self._seed)

    def _seed(self, number: int) -> tuple[int, int, str, int]:
        player = self.players[number]
        title = TITLES.index(player.title) if player.title in TITLES else len(TITLES)
        return -player.rating, title, player.name.casefold(), number


    def start_numbers(self) -> dict[int, int]:
        """Start number by registration number."""
        return {number: start for start, number in enumerate(self.order(), 1)}

    def entrants(self) -> list[Entrant]:
        """The players as entrants, in start-number order."""
        return [Entrant(start, p.name, p.rating, p.title, p.federation, p.fide_id, p.birth,
                        p.sex)
                for start, p in enumerate((self.players[n] for n in self.order()), 1)]

    def active(self, number: int, round_no: int) -> bool:
        """Whether the player is paired in round ``round_no``: joined and not withdrawn (in
        a round robin a withdrawn player's games stay in the table, lost by forfeit)."""
        if self.round_robin:
            return True
        return (self.joined[number] <= round_no
                and self.withdrawn.get(number, round_no + 1) > round_no)

    def cells(self, *, complete_only: bool = False) -> dict[int, list[Cell]]:
        """Each player's cells (by start number) for every paired round (or the rounds whose
        results are all in): a game with its code (``NONE`` until the result is entered),
        the pairing-allocated bye, a requested bye, ``Z`` for a player absent from a Swiss
        round and ``NONE`` for a round robin's bye."""
        starts = self.start_numbers()
        table: dict[int, list[Cell]] = {starts[n]: [] for n in self.players}
        for round_no, game_round in enumerate(self.rounds, 1):
            if complete_only and not game_round.complete:
                break
            seen: set[int] = set()
            for white, black in game_round.boards:
                codes = RESULTS.get(game_round.results.get(white, ""), (Code.NONE, Code.NONE))
                table[starts[white]].append(Cell(starts[black], Side.WHITE, codes[0]))
                table[starts[black]].append(Cell(starts[white], Side.BLACK, codes[1]))
                seen.update((white, black))
            for number in self.players:
                if number in seen:
                    continue
                if number == game_round.bye:
                    code = Code.PAIRING_BYE
                elif (round_no, number) in self.byes:
                    code = self.byes[(round_no, number)]
                else:
                    code = Code.NONE if self.round_robin else Code.ZERO_BYE
                table[starts[number]].append(Cell(None, None, code))
        return table

    def find(self, name_or_start: str) -> int:
        """The registration number of the player with this start number, name, or the one
        name it begins (case aside): ``Greta`` for ``Greta Example``."""
        text = name_or_start.strip()
        if text.isascii() and text.isdigit():
            order = self.order()
            start = int(text)
            if not 1 <= start <= len(order):
                raise TournamentError(f"player {text}: no such start number "
                                      f"(1-{len(order)})")
            return order[start - 1]
        wanted = text.casefold()
        matches = [n for n, p in self.players.items() if p.name.casefold() == wanted]
        if not matches:
            matches = [n for n, p in self.players.items()
                       if p.name.casefold().startswith(wanted)]
        if len(matches) != 1:
            names = ", ".join(sorted(self.players[n].name for n in matches))
            raise TournamentError(f"player {text!r}: " + (
                "no such player" if not matches else f"more than one player ({names})"))
        return matches[0]

    def paired_with(self, round_no: int, white: int) -> dict[int, str | None]:
        """For each round paired after ``round_no``: the result of White ``white``'s game
        of round ``round_no`` as it stood when that round was paired (``None``: not yet
        entered) — what a correction of the game changes after the fact."""
        history = self.rounds[round_no - 1].entered.get(white, [])
        return {later: next((result for result, paired in reversed(history)
                             if paired < later), None)
                for later in range(round_no + 1, self.paired + 1)}

    # -- events ------------------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Apply one event, or raise ``TournamentError`` naming what is wrong (nothing
        changed)."""
        if isinstance(event, Created):
            raise TournamentError("created: the tournament exists already")
        if isinstance(event, Registered):
            self._register(event)
        elif isinstance(event, Withdrawn):
            self._withdraw(event)
        elif isinstance(event, ByeRequested):
            self._bye(event)
        elif isinstance(event, Paired):
            self._pair(event)
        elif isinstance(event, ResultEntered):
            self._result(event)
        else:
            raise TournamentError(f"event {event.kind!r}: not a tournament event")

    def _player(self, number: int) -> Registered:
        if number not in self.players:
            raise TournamentError(f"player {number}: not registered")
        return self.players[number]

    def _register(self, event: Registered) -> None:
        if not event.name.strip():
            raise TournamentError("name: empty")
        if not 0 <= event.rating <= MAX_RATING:
            raise TournamentError(f"rating {event.rating}: expected 0-{MAX_RATING}")
        if any(p.name.casefold() == event.name.casefold() for p in self.players.values()):
            raise TournamentError(f"name {event.name!r}: already registered")
        if event.start is not None and (event.start < 1 or any(
                p.start == event.start for p in self.players.values())):
            raise TournamentError(f"start number {event.start}: taken or not positive")
        if self.rounds:
            if self.round_robin:
                raise TournamentError(f"{event.name}: a round robin takes no late entries")
            if self.paired >= self.total_rounds:
                raise TournamentError(f"{event.name}: every round is paired")
        number = len(self.players) + 1
        self.players[number] = event
        self.joined[number] = self.paired + 1

    def _withdraw(self, event: Withdrawn) -> None:
        self._player(event.player)
        if event.player in self.withdrawn:
            raise TournamentError(f"player {event.player}: withdrawn already")
        if event.round != self.paired + 1:
            raise TournamentError(f"round {event.round}: a withdrawal takes effect from the "
                                  f"next round to pair, {self.paired + 1}")
        self.withdrawn[event.player] = event.round

    def _bye(self, event: ByeRequested) -> None:
        self._player(event.player)
        if self.round_robin:
            raise TournamentError("bye: a round robin has no requested byes")
        if event.code not in REQUESTABLE:
            raise TournamentError(f"code {event.code.value!r}: a requested bye is H, Z or F")
        if not self.paired < event.round <= self.total_rounds:
            raise TournamentError(f"round {event.round}: expected a round not yet paired, "
                                  f"{self.paired + 1}-{self.total_rounds}")
        if not self.active(event.player, event.round):
            raise TournamentError(f"player {event.player}: not in round {event.round}")
        if (event.round, event.player) in self.byes:
            raise TournamentError(f"player {event.player}: has a bye in round {event.round}")
        self.byes[(event.round, event.player)] = event.code

    def _pair(self, event: Paired) -> None:
        expected = self.paired + 1
        if event.round != expected:
            raise TournamentError(f"round {event.round}: the next round is {expected}")
        if expected > self.total_rounds:
            raise TournamentError(f"round {event.round}: the tournament has "
                                  f"{self.total_rounds} rounds")
        if self.rounds and not self.rounds[-1].complete:
            raise TournamentError(f"round {event.round}: round {self.paired} has results "
                                  "missing")
        listed = [p for board in event.boards for p in board]
        listed += [] if event.bye is None else [event.bye]
        for number in listed:
            if number not in self.players:
                raise TournamentError(f"round {event.round}: player {number} not registered")
            if (event.round, number) in self.byes:
                raise TournamentError(f"round {event.round}: player {number} has asked "
                                      "for a bye")
            if not self.active(number, event.round):
                raise TournamentError(f"round {event.round}: player {number} is not in "
                                      "this round")
        if len(set(listed)) != len(listed):
            raise TournamentError(f"round {event.round}: a player is paired twice")
        self.rounds.append(RoundState(event.boards, event.bye))

    def _result(self, event: ResultEntered) -> None:
        if not 1 <= event.round <= self.paired:
            raise TournamentError(f"round {event.round}: not paired (rounds 1-{self.paired})")
        game_round = self.rounds[event.round - 1]
        if not any(white == event.white for white, _ in game_round.boards):
            raise TournamentError(f"round {event.round}: player {event.white} has no game "
                                  "with White")
        if event.result not in RESULTS:
            raise TournamentError(f"result {event.result!r}: expected one of "
                                  + ", ".join(RESULTS))
        game_round.results[event.white] = event.result
        game_round.entered.setdefault(event.white, []).append((event.result, self.paired))


def replay(events: Iterable[Event]) -> TournamentState:
    """The state after ``events`` (the first being :class:`Created`)."""
    state: TournamentState | None = None
    for index, event in enumerate(events, 1):
        if state is None:
            if not isinstance(event, Created):
                raise TournamentError(f"event 1: {event.kind}: a log starts with 'created'")
            state = TournamentState(event.settings)
            continue
        try:
            state.apply(event)
        except TournamentError as exc:
            raise TournamentError(f"event {index}: {exc}") from None
    if state is None:
        raise TournamentError("the log is empty")
    return state


def check_settings(settings: Settings) -> None:
    """``TournamentError`` naming a bad setting."""
    if not settings.name.strip():
        raise TournamentError("name: empty")
    if settings.system is System.SWISS:
        if settings.rounds is None or settings.rounds < 1:
            raise TournamentError(f"rounds {settings.rounds}: a Swiss needs at least 1")
    elif settings.rounds is not None:
        raise TournamentError("rounds: a round robin's rounds follow from its players")
    if settings.acceleration not in (None, "baku"):
        raise TournamentError(f"acceleration {settings.acceleration!r}: expected baku")
    if settings.rules not in ("2025", "2017"):
        raise TournamentError(f"rules {settings.rules!r}: expected 2025 or 2017")
    if settings.pairing not in ("dutch", "burstein"):
        raise TournamentError(f"pairing {settings.pairing!r}: expected dutch or burstein")
    if settings.pairing != "dutch" and settings.system is not System.SWISS:
        raise TournamentError(f"pairing {settings.pairing}: only a Swiss is paired by it")
    for name in settings.tiebreaks:
        parse_tiebreak(name)


class Tournament:
    """A tournament kept in a store: its id, its state, and :meth:`apply` to add an event
    (checked against the state, then on disk when it returns)."""

    def __init__(self, store: TournamentLogs, tournament_id: int, state: TournamentState,
                 events: int) -> None:
        self.store = store
        self.tournament_id = tournament_id
        self.state = state
        self._events = events

    @classmethod
    def create(cls, store: TournamentLogs, settings: Settings) -> Tournament:
        check_settings(settings)
        created = Created(settings)
        number = store.create(settings.name, created.kind, event_to_dict(created))
        return cls(store, number, TournamentState(settings), 1)

    @classmethod
    def load(cls, store: TournamentLogs, tournament_id: int) -> Tournament:
        """The tournament replayed from its stored log (``StoreError``/``TournamentError``
        naming the event that cannot be read or applied)."""
        stored = store.events(tournament_id)
        events = _decoded(tournament_id, stored)
        try:
            state = replay(events)
        except TournamentError as exc:
            raise TournamentError(f"tournament {tournament_id}: {exc}") from None
        return cls(store, tournament_id, state, len(stored))

    @property
    def events(self) -> int:
        """The number of events of the log the state has applied."""
        return self._events

    def catch_up(self) -> int:
        """Apply the events recorded since the state was read (by another program, or
        through another :class:`Tournament`), read alone from the store: the state is then
        the log's replay, without replaying it. How many there were (a ``TournamentError``
        naming an event that cannot be applied leaves the state part-way: load it again)."""
        stored = self.store.events(self.tournament_id, self._events)
        for item, event in zip(stored, _decoded(self.tournament_id, stored), strict=True):
            try:
                self.state.apply(event)
            except TournamentError as exc:
                raise TournamentError(f"tournament {self.tournament_id}: event {item.seq}: "
                                      f"{exc}") from None
            self._events += 1
        return len(stored)

    def apply(self, event: Event) -> None:
        """Apply ``event`` to the state (refused before anything changes), then record it;
        if it cannot be recorded, the state is read back from the store and the error
        raised."""
        self.state.apply(event)
        try:
            self.store.append(self.tournament_id, self._events + 1, event.kind,
                              event_to_dict(event))
        except StoreError:
            fresh = Tournament.load(self.store, self.tournament_id)
            self.state, self._events = fresh.state, fresh._events
            raise
        self._events += 1


def requested(state: TournamentState, round_no: int) -> Mapping[int, Code]:
    """The byes requested for ``round_no``, by start number."""
    starts = state.start_numbers()
    return {starts[n]: code for (r, n), code in state.byes.items() if r == round_no}


def _decoded(tournament_id: int, stored: list[StoredEvent]) -> list[Event]:
    """The stored events as events (``TournamentError`` naming one that cannot be read)."""
    events = []
    for item in stored:
        try:
            events.append(event_from_dict(item.kind, item.data))
        except TournamentError as exc:
            raise TournamentError(f"tournament {tournament_id}, event {item.seq}: "
                                  f"{exc}") from None
    return events
