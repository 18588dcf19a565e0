"""The tournament director's operations on a tournament's state: pair the next round (the
Berger tables for a round robin, the FIDE Dutch system for a Swiss), rank the players, and
write the tournament as a TRF file and a round as PGN."""

from __future__ import annotations

from fractions import Fraction

from chessarbiter.tournament.events import (
    RESULTS,
    Event,
    Paired,
    ResultEntered,
    System,
    TournamentError,
)
from chessarbiter.tournament.log import TournamentState, requested
from chessarbiter.tournament.records import Code
from chessarbiter.tournament.roundrobin import schedule
from chessarbiter.tournament.standings import Standing, standings
from chessarbiter.tournament.tiebreaks import parse_tiebreak
from chessarbiter.tournament.trf import PlayerRecord, Record, Trf, build, dump

FORFEITS = {(True, False): "-+", (False, True): "+-", (True, True): "--"}
"""The result entered for a round robin game of a withdrawn player (by White withdrawn,
Black withdrawn): the games are paired as the table says and lost by forfeit."""


def pair_next(state: TournamentState) -> list[Event]:
    """The events that pair the next round: :class:`Paired`, and in a round robin the
    forfeits of withdrawn players' games. ``TournamentError`` when it cannot be paired."""
    round_no = state.paired + 1
    if len(state.players) < 2:
        raise TournamentError("pair: at least 2 players are needed")
    if round_no > state.total_rounds:
        raise TournamentError(f"pair: all {state.total_rounds} rounds are paired")
    if state.rounds and not state.rounds[-1].complete:
        raise TournamentError(f"pair: round {state.paired} has results missing")
    if state.round_robin:
        table = schedule(len(state.players), cycles=state.cycles)[round_no - 1]
        events: list[Event] = [Paired(round_no, table.boards)]
        for white, black in table.boards:
            out = (white in state.withdrawn, black in state.withdrawn)
            if out in FORFEITS:
                events.append(ResultEntered(round_no, white, FORFEITS[out]))
        return events
    return [_swiss(state, round_no)]


def _swiss(state: TournamentState, round_no: int) -> Paired:
    from chessarbiter.tournament.swiss import pair_round

    starts = state.start_numbers()
    number = {start: n for n, start in starts.items()}
    absent = {starts[n] for n in state.players if not state.active(n, round_no)}
    pairing = pair_round(state.entrants(), state.cells(complete_only=True), round_no,
                         total_rounds=state.total_rounds, rules=state.settings.rules,
                         scoring=state.settings.scoring,
                         acceleration=state.settings.acceleration,
                         initial_side=state.settings.initial_side, absent=absent,
                         requested=requested(state, round_no))
    return Paired(round_no, tuple((number[w], number[b]) for w, b in pairing.boards),
                  None if pairing.bye is None else number[pairing.bye])


def ranking(state: TournamentState) -> list[Standing]:
    """The standings over the rounds whose results are all in."""
    return standings(state.entrants(), state.cells(complete_only=True),
                     state.settings.scoring,
                     [parse_tiebreak(name) for name in state.settings.tiebreaks],
                     state.settings.unplayed)


def trf_text(state: TournamentState, *, trf2026: bool = False) -> str:
    """The tournament as a TRF file: every paired round (results entered so far), points and
    places over the complete rounds, and the records pairing needs (with TRF-2026, the byes
    requested for later rounds)."""
    cells = state.cells()
    places = {row.entrant.start: row for row in ranking(state)}
    players = [PlayerRecord(e, places[e.start].points, places[e.start].place,
                            tuple(cells[e.start])) for e in state.entrants()]
    settings = state.settings
    baku = "_BAKU" if settings.acceleration == "baku" else ""
    system = {System.SWISS: f"FIDE_DUTCH_{settings.rules}{baku}",
              System.ROUND_ROBIN: "FIDE_ROUND_ROBIN",
              System.DOUBLE_ROUND_ROBIN: "FIDE_DOUBLE_ROUND_ROBIN"}[settings.system]
    trf = build(settings.name, players, total_rounds=state.total_rounds,
                initial_side=settings.initial_side, system=system, scoring=settings.scoring,
                trf2026=trf2026)
    if trf2026:  # the byes requested for rounds not yet paired (240 records)
        starts = state.start_numbers()
        byes = [Record("240", f" {code.value} {round_no} {starts[number]}")
                for (round_no, number), code in sorted(state.byes.items())
                if round_no > state.paired]
        trf = Trf(trf.records + tuple(byes))
    return dump(trf)


def round_pgn(state: TournamentState, round_no: int, date: str = "????.??.??") -> str:
    """Round ``round_no`` as PGN: one game per board with its tags and result (``*`` until
    entered; a forfeit as its score, ``*`` when both forfeit, with a ``Termination`` of
    ``forfeit``), no moves."""
    if not 1 <= round_no <= state.paired:
        raise TournamentError(f"round {round_no}: not paired (rounds 1-{state.paired})")
    game_round = state.rounds[round_no - 1]
    games = []
    for board, (white, black) in enumerate(game_round.boards, 1):
        entered = game_round.results.get(white)
        result, forfeit = _pgn_result(entered)
        tags = [("Event", state.settings.name), ("Site", "?"), ("Date", date),
                ("Round", f"{round_no}.{board}"), ("White", state.players[white].name),
                ("Black", state.players[black].name), ("Result", result)]
        for side, number in (("White", white), ("Black", black)):
            if state.players[number].rating:
                tags.append((f"{side}Elo", str(state.players[number].rating)))
        if forfeit:
            tags.append(("Termination", "forfeit"))
        text = "".join(f'[{name} "{_escape(value)}"]\n' for name, value in tags)
        games.append(f"{text}\n{result}\n")
    return "\n".join(games)


def _pgn_result(entered: str | None) -> tuple[str, bool]:
    if entered is None:
        return "*", False
    codes = RESULTS[entered]
    forfeit = codes[0] in (Code.FORFEIT_WIN, Code.FORFEIT_LOSS)
    if entered == "--":
        return "*", True  # PGN has no result for a game both lost
    white = Fraction(1) if codes[0] in (Code.WIN, Code.FORFEIT_WIN) else (
        Fraction(1, 2) if codes[0] is Code.DRAW else Fraction(0))
    return {Fraction(1): "1-0", Fraction(0): "0-1"}.get(white, "1/2-1/2"), forfeit


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')
