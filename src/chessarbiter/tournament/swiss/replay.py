"""Re-pair every round of a tournament file from the state before it (a pairings checker,
as FIDE's endorsement rules ask of every pairing program)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from chessarbiter.clock import Side
from chessarbiter.tournament.records import Cell, Code, Pairing
from chessarbiter.tournament.swiss import System, pair_round
from chessarbiter.tournament.trf import PlayerRecord, Record, Trf


@dataclass(frozen=True)
class Replayed:
    """One round: the pairing the file holds and the one the rules give."""

    round_no: int
    recorded: Pairing
    computed: Pairing

    @property
    def matches(self) -> bool:
        return (set(self.recorded.boards) == set(self.computed.boards)
                and self.recorded.bye == self.computed.bye)


def rounds_of(trf: Trf) -> int:
    """The number of rounds with at least one cell in the file."""
    return max((len(p.cells) for p in trf.players), default=0)


def recorded(trf: Trf, round_no: int) -> tuple[Pairing, set[int]]:
    """The pairing of ``round_no`` as recorded, and the players it did not pair (byes
    other than the PAB, absences)."""
    boards = []
    bye = None
    unpaired = set()
    for player in trf.players:
        start = player.entrant.start
        cell = player.cells[round_no - 1] if round_no <= len(player.cells) else None
        if cell is None or cell.opponent is None:
            if cell is not None and cell.code is Code.PAIRING_BYE:
                bye = start
            else:
                unpaired.add(start)
        elif cell.side is Side.WHITE:
            boards.append((start, cell.opponent))
    return Pairing(tuple(boards), bye), unpaired


def initial_side(trf: Trf) -> Side:
    """The initial colour: the file's ``XXC``/``152``, else read from the first round with a
    colour (C.04.3 E.5 / 5.2.5: the players who took part in the pairing so far, counted in
    start-number order, alternate the initial colour from the first on; the first of them
    with a colour in that round gives it, reversed when counted at an even place). A player
    not paired in round 1, with a requested bye, is not counted: when number 1 misses round 1,
    number 2's colour is the initial colour, as bbpPairings reads it."""
    side = trf.initial_side
    if side is not None:
        return side
    first = min((r for p in trf.players for r, c in enumerate(p.cells) if c.side is not None),
                default=None)
    if first is None:
        return Side.WHITE
    place = 0
    for player in sorted(trf.players, key=lambda p: p.entrant.start):
        cells = player.cells[:first + 1]
        if not any(c.opponent is not None or c.code is Code.PAIRING_BYE for c in cells):
            continue
        own = cells[first].side if first < len(cells) else None
        if own is not None:
            return own if place % 2 == 0 else own.opponent
        place += 1
    return Side.WHITE


def system_of(trf: Trf) -> System:
    """The pairing system the file names (``092``/``192``): Burstein, else Dutch."""
    return "burstein" if "BURSTEIN" in trf.system.upper() else "dutch"


def replay(trf: Trf, round_no: int, *, rules: Literal["2025", "2017"] = "2025",
           total_rounds: int | None = None, system: System | None = None) -> Replayed:
    """Re-pair ``round_no`` of the file (by ``system``, else the one the file names)."""
    expected, unpaired = recorded(trf, round_no)
    cells = {p.entrant.start: p.cells[:round_no - 1] for p in trf.players}
    total = total_rounds or trf.total_rounds or rounds_of(trf)
    baku = trf.system.upper().endswith("_BAKU")
    computed = pair_round([p.entrant for p in trf.players], cells, round_no,
                          total_rounds=max(total, round_no), rules=rules,
                          scoring=trf.scoring,
                          acceleration="baku" if baku else (trf.acceleration or None),
                          initial_side=initial_side(trf), absent=unpaired,
                          system=system or system_of(trf))
    return Replayed(round_no, expected, computed)


def first_unpaired_round(trf: Trf) -> int:
    """The first round in which nobody has a game or the PAB yet."""
    round_no = 1
    while any(round_no <= len(p.cells) and (p.cells[round_no - 1].opponent is not None
                                            or p.cells[round_no - 1].code is Code.PAIRING_BYE)
              for p in trf.players):
        round_no += 1
    return round_no


def pair_next(trf: Trf, *, rules: Literal["2025", "2017"] = "2025",
              system: System | None = None) -> Pairing:
    """Pair the file's next round (by ``system``, else the one the file names); byes
    already entered for it (cells or ``240``) are kept as requested."""
    round_no = first_unpaired_round(trf)
    unfinished = [p.entrant.start for p in trf.players if round_no > 1
                  and len(p.cells) >= round_no - 1 and p.cells[round_no - 2].opponent
                  is not None and p.cells[round_no - 2].code is Code.NONE]
    if unfinished:
        raise ValueError(f"round {round_no - 1}: results missing (player "
                         f"{unfinished[0]} and others): enter them before pairing")
    if round_no > (trf.total_rounds or round_no):
        raise ValueError(f"all {trf.total_rounds} rounds are paired")
    requested = {start: code for start, code in trf.byes.get(round_no, {}).items()}
    for p in trf.players:
        if round_no <= len(p.cells) and p.cells[round_no - 1].code is not Code.NONE:
            requested[p.entrant.start] = p.cells[round_no - 1].code
    cells = {p.entrant.start: p.cells[:round_no - 1] for p in trf.players}
    total = trf.total_rounds or round_no
    baku = trf.system.upper().endswith("_BAKU")
    return pair_round([p.entrant for p in trf.players], cells, round_no,
                      total_rounds=max(total, round_no), rules=rules, scoring=trf.scoring,
                      acceleration="baku" if baku else (trf.acceleration or None),
                      initial_side=initial_side(trf), requested=requested,
                      system=system or system_of(trf))


def format_pairs(pairing: Pairing) -> str:
    """The JaVaFo / bbpPairings ``-p`` output: the number of lines, then ``white black``
    per board and ``N 0`` for the PAB."""
    lines = [f"{w} {b}" for w, b in pairing.boards]
    if pairing.bye is not None:
        lines.append(f"{pairing.bye} 0")
    return "".join(line + "\n" for line in [str(len(lines)), *lines])


def with_round(trf: Trf, pairing: Pairing) -> Trf:
    """The file with ``pairing`` written in as its next round: each game's two cells with
    the result left blank (to be entered), the pairing-allocated bye (``U``, its point in the
    points column), the byes entered for the round kept, ``Z`` for anyone else; that round's
    ``240`` records, now cells, dropped."""
    round_no = first_unpaired_round(trf)
    cells: dict[int, Cell] = {}
    for white, black in pairing.boards:
        cells[white] = Cell(black, Side.WHITE, Code.NONE)
        cells[black] = Cell(white, Side.BLACK, Code.NONE)
    if pairing.bye is not None:
        cells[pairing.bye] = Cell(None, None, Code.PAIRING_BYE)
    requested = trf.byes.get(round_no, {})
    scoring = trf.scoring
    records: list[PlayerRecord | Record] = []
    for record in trf.records:
        if isinstance(record, Record):
            words = record.text.split()
            if record.tag != "240" or len(words) < 2 or int(words[1]) != round_no:
                records.append(record)
            continue
        start = record.entrant.start
        own = list(record.cells[:round_no - 1])
        own += [Cell(None, None, Code.NONE)] * (round_no - 1 - len(own))
        kept = record.cells[round_no - 1] if round_no <= len(record.cells) else None
        if start in cells:
            cell = cells[start]
        elif kept is not None and kept.code is not Code.NONE:
            cell = kept
        else:
            cell = Cell(None, None, requested.get(start, Code.ZERO_BYE))
        own += [cell, *record.cells[round_no:]]
        points = sum((scoring.points(c.code) for c in own), Fraction(0))
        records.append(PlayerRecord(record.entrant, points, record.rank, tuple(own)))
    return Trf(tuple(records))
