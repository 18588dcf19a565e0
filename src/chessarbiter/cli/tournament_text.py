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


def column(values: Sequence[Fraction]) -> list[str]:
    """Numbers of one column in one format: decimals, as many places as the column needs,
    at least one (``27.5``/``26.0``, ``13.75``/``12.50``), so points and every tie-break
    read alike."""
    places = 1
    for value in values:
        while places < 4 and (value * 10 ** places).denominator != 1:
            places += 1
    return [f"{float(value):.{places}f}" for value in values]


def _width(numbers: Sequence[int], least: int = 2) -> int:
    """The width of a column of whole numbers (start numbers, places: 1,000 and more)."""
    return max([least, *(len(str(n)) for n in numbers)])


def _name(entrant: Entrant) -> str:
    return f"{entrant.title} {entrant.name}".strip()


def pairings(round_no: int, boards: Sequence[tuple[Entrant, Entrant, str]],
             bye: Entrant | None, others: Sequence[tuple[Entrant, Code]]) -> str:
    """Round ``round_no``: one line a board (with the result once entered), then the bye and
    the players not paired (requested byes, absences)."""
    width = max((len(_name(e)) for game in boards for e in game[:2]), default=10)
    everyone = [e for game in boards for e in game[:2]] + [e for e, _ in others]
    everyone += [] if bye is None else [bye]
    nw = _width([e.start for e in everyone], 3)
    bw = _width([len(boards)], 3)
    lines = [f"Round {round_no}"]
    for board, (white, black, result) in enumerate(boards, 1):
        lines.append(f"{board:{bw}d}. {white.start:{nw}d} {_name(white):<{width}}  "
                     f"{result or '-':^7}  {black.start:{nw}d} {_name(black)}")
    pad = " " * (bw + 2)
    if bye is not None:
        lines.append(f"{pad}{bye.start:{nw}d} {_name(bye)}: pairing-allocated bye")
    for entrant, code in others:
        what = {Code.HALF_BYE: "half-point bye", Code.FULL_BYE: "full-point bye",
                Code.ZERO_BYE: "not paired"}.get(code, "not paired")
        lines.append(f"{pad}{entrant.start:{nw}d} {_name(entrant)}: {what}")
    return "\n".join(lines)


def standings_table(rows: Sequence[Standing], tiebreaks: Sequence[str]) -> str:
    """Place, start number, name, rating, points and each tie-break."""
    width = max((len(_name(r.entrant)) for r in rows), default=4)
    pw = _width([r.place for r in rows], 3)
    nw = _width([r.entrant.start for r in rows], 3)
    columns = [column([r.points for r in rows])] + [
        column([r.values[k] for r in rows]) for k in range(len(tiebreaks))]
    widths = [max([len(h), *(len(v) for v in c)])
              for h, c in zip(["Pts", *tiebreaks], columns, strict=True)]
    head = (f"{'Pl':>{pw}} {'No':>{nw}}  {'Name':<{width}} {'Rtg':>4}"
            + "".join(f" {h:>{w}}" for h, w in zip(["Pts", *tiebreaks], widths, strict=True)))
    lines = [head]
    previous = 0
    for index, row in enumerate(rows):
        place = "" if row.place == previous else str(row.place)
        previous = row.place
        lines.append(f"{place:>{pw}} {row.entrant.start:>{nw}}  {_name(row.entrant):<{width}} "
                     f"{row.entrant.rating or '':>4}"
                     + "".join(f" {c[index]:>{w}}" for c, w in zip(columns, widths, strict=True)))
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
    totals = column([r.points for r in rows])
    for index, row in enumerate(rows, 1):
        marks = []
        for other in order:
            if other == row.entrant.start:
                marks.append("X" * per)
                continue
            met = "".join(_mark(c) for c in cells[row.entrant.start] if c.opponent == other)
            marks.append(f"{met:<{per}}")
        lines.append(f"{index:>3} {_name(row.entrant):<{width}} " + " ".join(marks)
                     + f" {totals[index - 1]:>5}")
    return "\n".join(lines)


def wall_chart(rows: Sequence[Standing], cells: Mapping[int, Sequence[Cell]]) -> str:
    """A Swiss crosstable: each round as opponent's start number, colour and result
    (``12w1``, ``5b½``, ``U`` for the pairing-allocated bye, ``H``/``F``/``Z`` byes)."""
    width = max((len(_name(r.entrant)) for r in rows), default=4)
    rounds = max((len(cs) for cs in cells.values()), default=0)
    pw = _width([r.place for r in rows], 3)
    nw = _width([r.entrant.start for r in rows], 3)
    ew = nw + 3
    head = (f"{'Pl':>{pw}} {'No':>{nw}}  {'Name':<{width}} "
            + " ".join(f"{'R' + str(r):>{ew}}" for r in range(1, rounds + 1)) + "   Pts")
    lines = [head]
    totals = column([r.points for r in rows])
    for row, total in zip(rows, totals, strict=True):
        entries = []
        for cell in cells[row.entrant.start]:
            if cell.opponent is None:
                entries.append(cell.code.value.strip() or ".")
            else:
                colour = "w" if cell.side is Side.WHITE else "b"
                entries.append(f"{cell.opponent}{colour}{_mark(cell)}")
        lines.append(f"{row.place:>{pw}} {row.entrant.start:>{nw}}  "
                     f"{_name(row.entrant):<{width}} "
                     + " ".join(f"{e:>{ew}}" for e in entries) + f" {total:>5}")
    return "\n".join(lines)
