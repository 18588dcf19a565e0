"""Tournament tables as text: pairings, standings with tie-breaks, and the crosstable (a
grid of results for a round robin, a wall chart of rounds for a Swiss)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from chessarbiter.clock import Side
from chessarbiter.tournament.records import Cell, Code, Entrant
from chessarbiter.tournament.standings import Standing
from chessarbiter.tournament.tiebreaks import GAME_POINTS


def points(value: Fraction) -> str:
    """``2½``, ``3``, ``0``, ``12.25``."""
    whole, rest = divmod(value, 1)
    if rest == 0:
        return str(int(whole))
    if rest == Fraction(1, 2):
        return f"{int(whole) if whole else ''}½"
    return f"{float(value):g}"


def _name(entrant: Entrant) -> str:
    return f"{entrant.title} {entrant.name}".strip()


def pairings(round_no: int, boards: Sequence[tuple[Entrant, Entrant, str]],
             bye: Entrant | None, others: Sequence[tuple[Entrant, Code]]) -> str:
    """Round ``round_no``: one line a board (with the result once entered), then the bye and
    the players not paired (requested byes, absences)."""
    width = max((len(_name(e)) for game in boards for e in game[:2]), default=10)
    lines = [f"Round {round_no}"]
    for board, (white, black, result) in enumerate(boards, 1):
        lines.append(f"{board:3d}. {white.start:3d} {_name(white):<{width}}  "
                     f"{result or '-':^7}  {black.start:3d} {_name(black)}")
    if bye is not None:
        lines.append(f"     {bye.start:3d} {_name(bye)}: pairing-allocated bye")
    for entrant, code in others:
        what = {Code.HALF_BYE: "half-point bye", Code.FULL_BYE: "full-point bye",
                Code.ZERO_BYE: "not paired"}.get(code, "not paired")
        lines.append(f"     {entrant.start:3d} {_name(entrant)}: {what}")
    return "\n".join(lines)


def standings_table(rows: Sequence[Standing], tiebreaks: Sequence[str]) -> str:
    """Place, start number, name, rating, points and each tie-break."""
    width = max((len(_name(r.entrant)) for r in rows), default=4)
    head = (f"{'Pl':>3} {'No':>3}  {'Name':<{width}} {'Rtg':>4} {'Pts':>5}"
            + "".join(f" {name:>7}" for name in tiebreaks))
    lines = [head]
    previous = 0
    for row in rows:
        place = "" if row.place == previous else str(row.place)
        previous = row.place
        lines.append(f"{place:>3} {row.entrant.start:>3}  {_name(row.entrant):<{width}} "
                     f"{row.entrant.rating or '':>4} {points(row.points):>5}"
                     + "".join(f" {points(v):>7}" for v in row.values))
    return "\n".join(lines)


def _mark(cell: Cell) -> str:
    """One result as a crosstable shows it: 1 ½ 0, + - for forfeits."""
    if cell.code is Code.FORFEIT_WIN:
        return "+"
    if cell.code is Code.FORFEIT_LOSS:
        return "-"
    if cell.code is Code.NONE:
        return "."
    return points(GAME_POINTS.get(cell.code, Fraction(0)))


def grid(rows: Sequence[Standing], cells: Mapping[int, Sequence[Cell]]) -> str:
    """A round robin's crosstable: each player's results against each other, in standings
    order (two marks for a double round robin)."""
    order = [r.entrant.start for r in rows]
    width = max((len(_name(r.entrant)) for r in rows), default=4)
    per = max((sum(1 for c in cs if c.opponent == other) for cs in cells.values()
               for other in order), default=1) or 1
    head = f"{'':>3} {'':<{width}} " + " ".join(f"{n:>{per}}" for n in range(1, len(order) + 1))
    lines = [head + "   Pts"]
    for index, row in enumerate(rows, 1):
        marks = []
        for other in order:
            if other == row.entrant.start:
                marks.append("X" * per)
                continue
            met = "".join(_mark(c) for c in cells[row.entrant.start] if c.opponent == other)
            marks.append(f"{met:<{per}}")
        lines.append(f"{index:>3} {_name(row.entrant):<{width}} " + " ".join(marks)
                     + f" {points(row.points):>5}")
    return "\n".join(lines)


def wall_chart(rows: Sequence[Standing], cells: Mapping[int, Sequence[Cell]]) -> str:
    """A Swiss crosstable: each round as opponent's start number, colour and result
    (``12w1``, ``5b½``, ``U`` for the pairing-allocated bye, ``H``/``F``/``Z`` byes)."""
    width = max((len(_name(r.entrant)) for r in rows), default=4)
    rounds = max((len(cs) for cs in cells.values()), default=0)
    head = (f"{'Pl':>3} {'No':>3}  {'Name':<{width}} "
            + " ".join(f"{'R' + str(r):>6}" for r in range(1, rounds + 1)) + "   Pts")
    lines = [head]
    for row in rows:
        entries = []
        for cell in cells[row.entrant.start]:
            if cell.opponent is None:
                entries.append(cell.code.value.strip() or ".")
            else:
                colour = "w" if cell.side is Side.WHITE else "b"
                entries.append(f"{cell.opponent}{colour}{_mark(cell)}")
        lines.append(f"{row.place:>3} {row.entrant.start:>3}  {_name(row.entrant):<{width}} "
                     + " ".join(f"{e:>6}" for e in entries) + f" {points(row.points):>5}")
    return "\n".join(lines)
