"""A tournament as an append-only log in the SQLite store: events checked and refused with
the reason, every state derived by replay, the log shared with the games' database."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from chessarbiter.clock import Side
from chessarbiter.store import SqliteStore, StoreError
from chessarbiter.store.tournaments import TournamentStore
from chessarbiter.tournament.director import pair_next, round_pgn, trf_text
from chessarbiter.tournament.events import (
    ByeRequested,
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
from chessarbiter.tournament.log import Tournament, TournamentState
from chessarbiter.tournament.records import Cell, Code, Scoring
from chessarbiter.tournament.trf import parse

W, B = Side.WHITE, Side.BLACK


def ticks() -> object:
    clock = iter(range(1_000, 10**9, 1_000))
    return lambda: next(clock)


def tournament(path: Path, settings: Settings, names: int) -> Tournament:
    store = TournamentStore(path, now=ticks())  # type: ignore[arg-type]
    t = Tournament.create(store, settings)
    for number in range(1, names + 1):
        t.apply(Registered(f"Player {number}", 2000 - 10 * number))
    return t


def play(t: Tournament, results: list[str]) -> None:
    for event in pair_next(t.state):
        t.apply(event)
    game_round = t.state.rounds[-1]
    for (white, _), result in zip(game_round.boards, results, strict=True):
        if white not in game_round.results:
            t.apply(ResultEntered(t.state.paired, white, result))


def test_round_robin_replayed_from_the_store(tmp_path: Path) -> None:
    """Five players: Berger rounds with a bye, results, a correction; reopening the database
    replays the same state, cells and standings."""
    path = tmp_path / "games.sqlite"
    t = tournament(path, Settings("Club RR", System.ROUND_ROBIN, tiebreaks=("SB",)), 5)
    assert t.state.total_rounds == 5
    play(t, ["1-0", "1/2-1/2"])
    assert t.state.rounds[0].boards == ((2, 5), (3, 4))  # 1 sits out (6 is the bye)
    t.apply(ResultEntered(1, 3, "0-1"))  # corrected
    play(t, ["0-1", "1-0"])
    cells = t.state.cells()
    assert cells[1][0] == Cell(None, None, Code.NONE)
    assert cells[3][0] == Cell(4, W, Code.LOSS) and cells[4][0] == Cell(3, B, Code.WIN)
    assert isinstance(t.store, TournamentStore)
    t.store.close()
    again = Tournament.load(TournamentStore(path), t.tournament_id)
    assert again.state.cells() == cells
    assert again.state.rounds[0].results == {2: "1-0", 3: "0-1"}


def test_the_log_shares_the_games_database(tmp_path: Path) -> None:
    """Either store may open the file first; each keeps its own tables and versions."""
    path = tmp_path / "games.sqlite"
    games = SqliteStore(path)
    t = tournament(path, Settings("Open", System.SWISS, rounds=5), 3)
    assert games.games() == []
    games.close()
    assert isinstance(t.store, TournamentStore)
    t.store.close()
    store = TournamentStore(path)
    assert [i.name for i in store.tournaments()] == ["Open"]
    assert store.tournaments()[0].events == 4
    SqliteStore(path).close()


def test_a_second_writer_is_refused(tmp_path: Path) -> None:
    """Two programs load the same log; the one that appends second is refused (nothing
    written), its state read back with the first's event; its retry is then recorded."""
    path = tmp_path / "t.sqlite"
    first = tournament(path, Settings("Open", System.SWISS, rounds=3), 2)
    second = Tournament.load(TournamentStore(path), first.tournament_id)
    first.apply(Registered("Late", 1500))
    with pytest.raises(StoreError, match="event 4: the log has 4 events"):
        second.apply(Registered("Other", 1400))
    assert [p.name for p in second.state.players.values()][-1] == "Late"
    second.apply(Registered("Other", 1400))
    reloaded = Tournament.load(TournamentStore(path), first.tournament_id)
    assert [p.name for p in reloaded.state.players.values()][-2:] == ["Late", "Other"]


def test_swiss_start_numbers_follow_rating_title_name(tmp_path: Path) -> None:
    """C.04.2: rating, then title, then name; a late entry takes its place."""
    t = tournament(tmp_path / "t.sqlite", Settings("Open", System.SWISS, rounds=3), 0)
    t.apply(Registered("Zed", 1800))
    t.apply(Registered("Amy", 1800))
    t.apply(Registered("Bob", 1800, title="FM"))
    t.apply(Registered("Cid", 2100))
    assert [e.name for e in t.state.entrants()] == ["Cid", "Bob", "Amy", "Zed"]
    assert t.state.find("2") == 3 and t.state.find("amy") == 2


def test_withdrawals_byes_and_late_entries(tmp_path: Path) -> None:
    """Round 2: 4 withdrawn (absent: Z), 1 asked for a half-point bye (H), a late entry
    joins (Z for round 1); round 1's pairing is written by hand."""
    t = tournament(tmp_path / "t.sqlite", Settings("Open", System.SWISS, rounds=3), 4)
    t.apply(Paired(1, ((1, 3), (4, 2))))
    t.apply(ResultEntered(1, 1, "1-0"))
    t.apply(ResultEntered(1, 4, "+-"))
    t.apply(Withdrawn(4, 2))
    t.apply(ByeRequested(1, 2, Code.HALF_BYE))
    t.apply(Registered("Late", 1990))
    assert [n for n in t.state.players if t.state.active(n, 2)] == [1, 2, 3, 5]
    t.apply(Paired(2, ((5, 3),), bye=2))
    starts = t.state.start_numbers()
    cells = {n: t.state.cells()[starts[n]] for n in t.state.players}
    assert cells[1][1] == Cell(None, None, Code.HALF_BYE)
    assert cells[4] == [Cell(starts[2], W, Code.FORFEIT_WIN), Cell(None, None, Code.ZERO_BYE)]
    assert cells[5][0] == Cell(None, None, Code.ZERO_BYE)
    assert cells[2][1] == Cell(None, None, Code.PAIRING_BYE)
    assert cells[5][1] == Cell(starts[3], W, Code.NONE)


@pytest.mark.parametrize(("event", "message"), [
    (Registered(""), "name: empty"),
    (Registered("Player 1"), "already registered"),
    (Registered("X", rating=-5), "rating -5"),
    (Withdrawn(9, 1), "player 9: not registered"),
    (Withdrawn(1, 3), "round 3: a withdrawal takes effect from the next round"),
    (ByeRequested(1, 1, Code.PAIRING_BYE), "a requested bye is H, Z or F"),
    (ByeRequested(1, 4, Code.HALF_BYE), "round 4: expected a round not yet paired"),
    (Paired(2, ((1, 2),)), "round 2: the next round is 1"),
    (Paired(1, ((1, 2), (2, 3))), "paired twice"),
    (Paired(1, ((1, 7),)), "player 7 not registered"),
    (ResultEntered(1, 1, "1-0"), "round 1: not paired"),
])
def test_refused_events_name_the_reason(tmp_path: Path, event: object, message: str) -> None:
    t = tournament(tmp_path / "t.sqlite", Settings("Open", System.SWISS, rounds=3), 3)
    before = t.state.cells()
    with pytest.raises(TournamentError, match=message):
        t.apply(event)  # type: ignore[arg-type]
    assert t.state.cells() == before
    assert TournamentStore(tmp_path / "t.sqlite").tournaments()[0].events == 4


def test_results_and_pairing_checks(tmp_path: Path) -> None:
    t = tournament(tmp_path / "t.sqlite", Settings("RR", System.ROUND_ROBIN), 4)
    play(t, ["1-0", "0-1"])
    with pytest.raises(TournamentError, match="result 'x'"):
        t.apply(ResultEntered(1, 1, "x"))
    with pytest.raises(TournamentError, match="player 3 has no game with White"):
        t.apply(ResultEntered(1, 3, "1-0"))
    for event in pair_next(t.state):
        t.apply(event)
    with pytest.raises(TournamentError, match="round 2 has results missing"):
        pair_next(t.state)
    with pytest.raises(TournamentError, match="late entries"):
        t.apply(Registered("Late"))


def test_round_robin_withdrawal_forfeits(tmp_path: Path) -> None:
    """A player withdrawn from a round robin keeps the table's games, lost by forfeit."""
    t = tournament(tmp_path / "t.sqlite", Settings("RR", System.ROUND_ROBIN), 4)
    play(t, ["1-0", "0-1"])
    t.apply(Withdrawn(2, 2))
    events = pair_next(t.state)
    assert events[0] == Paired(2, ((4, 3), (1, 2)))
    assert events[1:] == [ResultEntered(2, 1, "+-")]


def test_events_round_trip_through_json() -> None:
    settings = Settings("Open", System.SWISS, 7, Scoring(win=Fraction(3), draw=Fraction(1)),
                        ("BH-C1", "SB"), Side.BLACK, "baku", "2017")
    from chessarbiter.tournament.events import Created

    for event in (Created(settings), Registered("A", 2000, "GM", "NOR"), Withdrawn(1, 2),
                  ByeRequested(1, 2, Code.ZERO_BYE), Paired(1, ((1, 2),), 3),
                  ResultEntered(1, 1, "--")):
        assert event_from_dict(event.kind, event_to_dict(event)) == event
    with pytest.raises(TournamentError, match="event kind 'nope'"):
        event_from_dict("nope", {})
    with pytest.raises(TournamentError, match="paired: not a valid event"):
        event_from_dict("paired", {"round": 1})


def test_bad_settings(tmp_path: Path) -> None:
    store = TournamentStore(tmp_path / "t.sqlite")
    for settings, message in [
        (Settings("Open", System.SWISS), "rounds None"),
        (Settings("RR", System.ROUND_ROBIN, rounds=3), "rounds: a round robin"),
        (Settings("Open", System.SWISS, 5, tiebreaks=("XYZ",)), "tie-break 'XYZ'"),
        (Settings(" ", System.SWISS, 5), "name: empty"),
    ]:
        with pytest.raises(ValueError, match=message):
            Tournament.create(store, settings)
    assert store.tournaments() == []


def test_exports(tmp_path: Path) -> None:
    """The TRF file reads back with the same cells and points; the round's PGN has a game
    per board with its result."""
    t = tournament(tmp_path / "t.sqlite", Settings("RR", System.ROUND_ROBIN), 3)
    play(t, ["1/2-1/2"])
    play(t, ["+-"])
    trf = parse(trf_text(t.state))
    empty = Cell(None, None, Code.NONE)  # a round robin's bye: blank, and TRF drops it last
    assert [p.cells for p in trf.players] == [
        tuple(c[:-1] if c[-1] == empty else c) for c in t.state.cells().values()]
    assert [p.points for p in trf.players] == [Fraction(1), Fraction(1, 2), Fraction(1, 2)]
    assert trf.total_rounds == 3
    pgn = round_pgn(t.state, 2)
    assert '[Result "1-0"]' in pgn and '[Termination "forfeit"]' in pgn
    assert round_pgn(t.state, 1).count("[Event ") == 1
    with pytest.raises(TournamentError, match="round 3: not paired"):
        round_pgn(t.state, 3)


def test_trf2026_export_keeps_requested_byes(tmp_path: Path) -> None:
    """A bye asked for the next round is that round's cell (as bbpPairings reads a
    pre-set bye); byes for later rounds go to 240 records in bbpPairings's fixed columns."""
    t = tournament(tmp_path / "t.sqlite", Settings("Open", System.SWISS, rounds=5), 4)
    t.apply(ByeRequested(2, 1, Code.HALF_BYE))
    t.apply(ByeRequested(3, 4, Code.ZERO_BYE))
    starts = t.state.start_numbers()
    text = trf_text(t.state, trf2026=True)
    trf = parse(text)
    assert trf.byes == {4: {starts[3]: Code.ZERO_BYE}}
    assert f"\r240 Z   4 {starts[3]:4d}\r" in text
    assert trf.players[starts[2] - 1].cells == (Cell(None, None, Code.HALF_BYE),)
    assert trf.total_rounds == 5


def test_replay_needs_created_first() -> None:
    from chessarbiter.tournament.log import replay

    with pytest.raises(TournamentError, match="event 1: registered"):
        replay([Registered("A")])
    state = TournamentState(Settings("X", System.SWISS, 1))
    with pytest.raises(TournamentError, match="exists already"):
        from chessarbiter.tournament.events import Created

        state.apply(Created(state.settings))


def test_a_loaded_tournament_catches_up_with_another_writer(tmp_path: Path) -> None:
    """A state read once applies only the events written since (by another program): the
    same state as a replay; the log's event count is read without the events."""
    path = tmp_path / "t.sqlite"
    writer = tournament(path, Settings("Open", System.SWISS, rounds=3), 4)
    store = TournamentStore(path)
    reader = Tournament.load(store, writer.tournament_id)
    assert (reader.events, store.event_count(writer.tournament_id)) == (5, 5)
    play(writer, ["1-0", "0-1"])
    writer.apply(Withdrawn(4, 2))
    assert store.event_count(writer.tournament_id) == reader.events + 4
    assert reader.catch_up() == 4 and reader.catch_up() == 0
    fresh = Tournament.load(store, writer.tournament_id)
    assert reader.state == fresh.state and reader.events == fresh.events == 9
    assert [e.seq for e in store.events(writer.tournament_id, after=7)] == [8, 9]
    assert store.event_count(999) == 0
