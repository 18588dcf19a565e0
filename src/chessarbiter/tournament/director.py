"""The tournament director's operations on a tournament's state: pair the next round (the
Berger tables for a round robin, the FIDE Dutch system for a Swiss), rank the players, and
write the tournament as a TRF file and a round as PGN."""

from __future__ import annotations

from fractions import Fraction

from chessarbiter.clock import Side
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
)
from chessarbiter.tournament.log import TournamentState, requested
from chessarbiter.tournament.records import Cell, Code
from chessarbiter.tournament.roundrobin import schedule
from chessarbiter.tournament.standings import Standing, standings
from chessarbiter.tournament.swiss import baku_points
from chessarbiter.tournament.tiebreaks import parse_tiebreak
from chessarbiter.tournament.trf import (
    PlayerRecord,
    Record,
    Trf,
    acceleration_record,
    build,
    bye_record,
    dump,
    validate,
)

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
                         requested=requested(state, round_no),
                         system=state.settings.pairing)
    return Paired(round_no, tuple((number[w], number[b]) for w, b in pairing.boards),
                  None if pairing.bye is None else number[pairing.bye])


def ranking(state: TournamentState) -> list[Standing]:
    """The standings over the rounds whose results are all in."""
    return standings(state.entrants(), state.cells(complete_only=True),
                     state.settings.scoring,
                     [parse_tiebreak(name) for name in state.settings.tiebreaks],
                     state.settings.unplayed)


def trf_text(state: TournamentState, *, trf2026: bool = False) -> str:
    """The tournament as a TRF file bbpPairings and JaVaFo read: the rounds whose results are
    all in (a round still being played is left out, so no cell lacks its result and every
    points column adds up), places over them, and everything the next pairing needs: the
    next round's requested byes and absences (withdrawn, not yet joined) as that round's
    cells, the initial colour, the rounds, the scoring, the system (with ``_BAKU``) and,
    in TRF-16, the Baku virtual points as ``XXA`` records; TRF-2026 adds ``240`` records
    for the byes requested for later rounds."""
    cells = state.cells(complete_only=True)
    done = max((len(c) for c in cells.values()), default=0)
    upcoming = done + 1 if done < state.total_rounds else None
    starts = state.start_numbers()
    number = {start: n for n, start in starts.items()}
    places = {row.entrant.start: row for row in ranking(state)}
    players = []
    for e in state.entrants():
        own = list(cells[e.start])
        if upcoming is not None and not state.round_robin:
            code = _absence(state, number[e.start], upcoming)
            if code is not None:
                own.append(Cell(None, None, code))
        players.append(PlayerRecord(e, places[e.start].points, places[e.start].place,
                                    tuple(own)))
    settings = state.settings
    baku = "_BAKU" if settings.acceleration == "baku" else ""
    swiss = "BURSTEIN" if settings.pairing == "burstein" else f"DUTCH_{settings.rules}"
    system = {System.SWISS: f"FIDE_{swiss}{baku}",
              System.ROUND_ROBIN: "FIDE_ROUND_ROBIN",
              System.DOUBLE_ROUND_ROBIN: "FIDE_DOUBLE_ROUND_ROBIN"}[settings.system]
    trf = build(settings.name, players, total_rounds=state.total_rounds,
                initial_side=settings.initial_side, system=system, scoring=settings.scoring,
                trf2026=trf2026)
    extra: list[Record] = []
    if baku and not trf2026:
        virtual = baku_points(sorted(number), state.total_rounds, settings.scoring)
        extra += [acceleration_record(start, points) for start, points in virtual.items()]
    if trf2026:
        later: dict[tuple[int, Code], list[int]] = {}
        for (round_no, player), code in sorted(state.byes.items()):
            if upcoming is not None and round_no > upcoming:
                later.setdefault((round_no, code), []).append(starts[player])
        extra += [bye_record(code, round_no, sorted(found))
                  for (round_no, code), found in sorted(later.items(),
                                                        key=lambda kv: (kv[0][0], kv[0][1].value))]
    return dump(Trf(trf.records + tuple(extra)))


def _absence(state: TournamentState, player: int, round_no: int) -> Code | None:
    """The cell of a player not to be paired in ``round_no``: the bye asked for, or ``Z``
    (withdrawn, not yet joined); ``None`` for a player to pair."""
    if (round_no, player) in state.byes:
        return state.byes[(round_no, player)]
    return None if state.active(player, round_no) else Code.ZERO_BYE


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


_RESULT_OF = {codes: text for text, codes in RESULTS.items()}


def import_events(trf: Trf, *, name: str | None = None,
                  tiebreaks: tuple[str, ...] = ("BH-C1", "BH", "SB")) -> list[Event]:
    """The log of a Swiss (Dutch) tournament read from a TRF file, to continue, correct and
    rank it here: its settings (rounds, scoring, initial colour, Baku acceleration, the
    Dutch rules' edition), the players with the file's start numbers, and for each paired
    round the requested byes, the pairing (boards ordered as C.04.2 orders them: the
    higher score, the sum of scores, the higher ranked player) and the results entered;
    then the byes already entered for the next rounds. ``TournamentError`` names what the
    log cannot hold (``TrfError`` what the file cannot be)."""
    from chessarbiter.tournament.swiss.replay import first_unpaired_round, initial_side

    validate(trf)
    system = trf.system.upper()
    if system and not system.startswith(("FIDE_DUTCH", "FIDE_BURSTEIN")):
        raise TournamentError(f"import: system {trf.system!r}: only the FIDE Dutch and "
                              "Burstein systems are imported")
    baku = system.endswith("_BAKU")
    if trf.acceleration and not baku:
        raise TournamentError("import: XXA acceleration other than Baku is not supported")
    starts = sorted(p.entrant.start for p in trf.players)
    if starts != list(range(1, len(starts) + 1)):
        raise TournamentError("import: start numbers must run from 1 without a gap")
    paired = first_unpaired_round(trf) - 1
    longest = max(len(p.cells) for p in trf.players)
    total = max(trf.total_rounds or longest, longest, 1)
    named = trf.first("012")
    title = name or (named.text.strip() if named is not None else "") or "Imported"
    settings = Settings(title, System.SWISS, total, trf.scoring, tiebreaks, initial_side(trf),
                        "baku" if baku else None, "2017" if "2017" in system else "2025",
                        pairing="burstein" if "BURSTEIN" in system else "dutch")
    events: list[Event] = [Created(settings)]
    players = sorted(trf.players, key=lambda p: p.entrant.start)
    events += [Registered(e.name, e.rating, e.title, e.federation, e.fide_id, e.birth, e.sex,
                          start=e.start) for e in (p.entrant for p in players)]
    scores = {p.entrant.start: Fraction(0) for p in players}
    for round_no in range(1, total + 1):
        cells = {p.entrant.start: p.cells[round_no - 1] if round_no <= len(p.cells)
                 else Cell(None, None, Code.NONE) for p in players}
        events += [ByeRequested(start, round_no, cell.code) for start, cell in cells.items()
                   if cell.opponent is None and cell.code in REQUESTABLE]
        events += [ByeRequested(start, round_no, code)
                   for start, code in sorted(trf.byes.get(round_no, {}).items())
                   if cells[start].code is Code.NONE]
        if round_no > paired:
            continue
        events += _imported_round(round_no, cells, scores)
        for start, cell in cells.items():
            scores[start] += settings.scoring.points(cell.code)
    return events


def _imported_round(round_no: int, cells: dict[int, Cell], scores: dict[int, Fraction]
                    ) -> list[Event]:
    """One paired round of an imported file: :class:`Paired` and its results."""
    boards = []
    for start, cell in cells.items():
        if cell.opponent is None or (start > cell.opponent and cell.side is None):
            continue
        if cell.side is Side.BLACK:
            continue
        boards.append((start, cell.opponent))
    boards.sort(key=lambda wb: (-max(scores[wb[0]], scores[wb[1]]),
                                -(scores[wb[0]] + scores[wb[1]]), min(wb)))
    bye = next((s for s, c in cells.items() if c.code is Code.PAIRING_BYE), None)
    events: list[Event] = [Paired(round_no, tuple(boards), bye)]
    for white, black in boards:
        codes = (cells[white].code, cells[black].code)
        if codes == (Code.NONE, Code.NONE):
            continue
        if codes not in _RESULT_OF:
            raise TournamentError(f"import: round {round_no}: result {codes[0].value!r} "
                                  f"against {codes[1].value!r} (players {white}, {black}) "
                                  "cannot be entered here (unrated games: W, D, L)")
        events.append(ResultEntered(round_no, white, _RESULT_OF[codes]))
    return events
