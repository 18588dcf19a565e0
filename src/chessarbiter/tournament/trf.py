"""FIDE Tournament Report File (TRF-16 and TRF-2026): read and write.

A file is a sequence of records, one a line, each opened by a three-character tag. Lines end
with CR (TRF-16 section "general"); CR LF and LF are also read. Player records (``001``) are
parsed into typed fields and written back in their fixed columns; every other record is kept
as written, and the ones pairing needs are interpreted: ``XXR``/``142`` (rounds),
``XXC``/``152`` (initial colour), ``XXA`` (acceleration points), ``162``/``XXS`` (scoring),
``192``/``092`` (system), ``240`` (pre-set byes).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from chessarbiter.clock import Side
from chessarbiter.tournament.records import Cell, Code, Entrant, Scoring

FIRST_CELL = 92
"""The 1-based column where the first round cell starts (TRF-16, record 001)."""
CELL_STRIDE = 10

_CODES = {code.value: code for code in Code}
_SIDES = {"w": Side.WHITE, "b": Side.BLACK, "-": None, " ": None}


class TrfError(ValueError):
    """A TRF line that cannot be read, named by its 1-based line and column."""

    def __init__(self, line: int, column: int, reason: str) -> None:
        super().__init__(f"TRF line {line}, column {column}: {reason}")
        self.line = line
        self.column = column


@dataclass(frozen=True)
class PlayerRecord:
    """A ``001`` record: the entrant, the points and rank columns, and one cell a round."""

    entrant: Entrant
    points: Fraction
    rank: int
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Record:
    """Any other record, kept as written: its tag and the rest of its line (from column 4)."""

    tag: str
    text: str


@dataclass(frozen=True)
class Trf:
    """A parsed file: its records in order (``PlayerRecord`` or ``Record``)."""

    records: tuple[PlayerRecord | Record, ...]
    players: tuple[PlayerRecord, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(
            r for r in self.records if isinstance(r, PlayerRecord)))

    def first(self, *tags: str) -> Record | None:
        """The first record with one of ``tags``, in the order of ``tags``."""
        for tag in tags:
            for record in self.records:
                if isinstance(record, Record) and record.tag == tag:
                    return record
        return None

    @property
    def total_rounds(self) -> int | None:
        """``XXR`` (TRF-16 extension) or ``142`` (TRF-2026): the number of rounds."""
        record = self.first("XXR", "142")
        if record is None:
            return None
        try:
            return int(record.text.split()[0])
        except (ValueError, IndexError):
            raise TrfError(self._line_of(record), 5, "number of rounds is not a number") from None

    @property
    def initial_side(self) -> Side | None:
        """``XXC white1``/``black1`` or ``152 W``/``B``: the initial colour (C.04.3 E.5)."""
        record = self.first("XXC", "152")
        if record is None or not record.text.strip():
            return None
        word = record.text.split()[0].lower()
        if word.startswith("w"):
            return Side.WHITE
        if word.startswith("b"):
            return Side.BLACK
        return None

    @property
    def system(self) -> str:
        """The pairing system's code: ``192`` (TRF-2026), else ``092``; empty if neither."""
        record = self.first("192", "092")
        return "" if record is None else record.text.strip()

    @property
    def scoring(self) -> Scoring:
        """Points per result from ``162`` (TRF-2026: code, value pairs) or ``XXS``
        (``W=1 D=0.5`` ...); the FIDE default otherwise."""
        record = self.first("162", "XXS")
        if record is None:
            return self._bb_scoring()
        tokens = record.text.replace("=", " ").split()
        if len(tokens) % 2:
            raise TrfError(self._line_of(record), 5, "scoring needs code and value pairs")
        values: dict[str, Fraction] = {}
        for code, value in zip(tokens[::2], tokens[1::2], strict=True):
            try:
                values[code.upper()] = Fraction(value)
            except ValueError:
                raise TrfError(self._line_of(record), 5, f"bad points {value!r}") from None
        return _scoring(values)

    @property
    def acceleration(self) -> dict[int, tuple[Fraction, ...]]:
        """``XXA`` records: a player's virtual points for each round (C.04.5.1)."""
        found: dict[int, tuple[Fraction, ...]] = {}
        for record in self.records:
            if isinstance(record, Record) and record.tag == "XXA":
                tokens = record.text.split()
                try:
                    found[int(tokens[0])] = tuple(Fraction(t) for t in tokens[1:])
                except (ValueError, IndexError):
                    raise TrfError(self._line_of(record), 5, "bad XXA record") from None
        return found

    @property
    def byes(self) -> dict[int, dict[int, Code]]:
        """``240`` records (TRF-2026): round -> player -> requested bye code."""
        found: dict[int, dict[int, Code]] = {}
        for record in self.records:
            if isinstance(record, Record) and record.tag == "240":
                tokens = record.text.split()
                try:
                    code = _CODES[tokens[0]]
                    found.setdefault(int(tokens[1]), {}).update(
                        {int(t): code for t in tokens[2:]})
                except (KeyError, ValueError, IndexError):
                    raise TrfError(self._line_of(record), 5, "bad 240 record") from None
        return found

    def _bb_scoring(self) -> Scoring:
        """bbpPairings's scoring records (``BBW 3.0``, ``BBD``, ``BBL``, ``BBZ``, ``BBF``,
        ``BBU``: win, draw, loss, zero-point bye, forfeit loss, pairing-allocated bye)."""
        values: dict[str, Fraction] = {}
        for record in self.records:
            if isinstance(record, Record) and record.tag in _BB_KEYS:
                try:
                    values[_BB_KEYS[record.tag]] = Fraction(record.text.strip())
                except ValueError:
                    raise TrfError(self._line_of(record), 5, f"bad points "
                                                             f"{record.text.strip()!r}") from None
        return Scoring(**values)

    def _line_of(self, record: PlayerRecord | Record) -> int:
        return self.records.index(record) + 1


_SCORING_KEYS = {"W": "win", "D": "draw", "L": "loss", "+": "forfeit_win",
                 "-": "forfeit_loss", "F": "full_bye", "H": "half_bye", "U": "pairing_bye",
                 "Z": "zero_bye", "WW": "win", "BW": "win", "WD": "draw", "BD": "draw",
                 "WL": "loss", "BL": "loss", "FW": "forfeit_win", "FL": "forfeit_loss",
                 "FPB": "full_bye", "HPB": "half_bye", "PAB": "pairing_bye", "ZPB": "zero_bye"}


_BB_KEYS = {"BBW": "win", "BBD": "draw", "BBL": "loss", "BBZ": "zero_bye",
            "BBF": "forfeit_loss", "BBU": "pairing_bye"}


def _scoring(values: Mapping[str, Fraction]) -> Scoring:
    known = {_SCORING_KEYS[k]: v for k, v in values.items() if k in _SCORING_KEYS}
    return Scoring(**known)


def parse(text: str) -> Trf:
    """Read a TRF file's text; raise ``TrfError`` naming the line and column of a bad field."""
    lines = text.replace("\r\n", "\r").replace("\n", "\r").split("\r")
    if lines and lines[-1] == "":
        lines.pop()
    records: list[PlayerRecord | Record] = []
    for number, line in enumerate(lines, 1):
        if line[:3] == "001":
            records.append(_player(line, number))
        else:
            if line.strip() and not _is_tag(line):
                raise TrfError(number, 1, f"not a TRF record ({line[:12]!r}): a record "
                                          "opens with a three-character tag and a space")
            records.append(Record(line[:3], line[3:]))
    return Trf(tuple(records))


def _is_tag(line: str) -> bool:
    """A record's opening: three letters or digits and a space (or the line's end), or
    ``###``, which bbpPairings writes before the records it comments out."""
    tag = line[:3]
    return (tag == "###" or (tag.isascii() and tag.isalnum())) and line[3:4] in ("", " ")


def _field(line: str, first: int, last: int) -> str:
    return line[first - 1:last].strip()


def _int(line: str, first: int, last: int, number: int, what: str) -> int:
    text = _field(line, first, last)
    if not text:
        return 0
    if not text.isdigit():
        raise TrfError(number, first, f"{what} {text!r} is not a number")
    return int(text)


def _player(line: str, number: int) -> PlayerRecord:
    start = _int(line, 5, 8, number, "starting rank")
    if start == 0:
        raise TrfError(number, 5, "missing starting rank")
    entrant = Entrant(start=start, name=_field(line, 15, 47),
                      rating=_int(line, 49, 52, number, "rating"), title=_field(line, 11, 13),
                      federation=_field(line, 54, 56), fide_id=_field(line, 58, 68),
                      birth=_field(line, 70, 79), sex=_field(line, 10, 10))
    points_text = _field(line, 81, 84)
    try:
        points = Fraction(points_text) if points_text else Fraction(0)
    except ValueError:
        raise TrfError(number, 81, f"points {points_text!r} is not a number") from None
    rank = _int(line, 86, 89, number, "rank")
    cells = []
    column = FIRST_CELL
    while column <= len(line):
        cells.append(_cell(line[column - 1:column + 7].ljust(8), number, column))
        column += CELL_STRIDE
    while cells and cells[-1] == _EMPTY:
        cells.pop()
    return PlayerRecord(entrant, points, rank, tuple(cells))


_EMPTY = Cell(None, None, Code.NONE)


def _cell(text: str, number: int, column: int) -> Cell:
    opponent_text, side_text, code_text = text[0:4].strip(), text[5], text[7]
    if code_text not in _CODES:
        raise TrfError(number, column + 7, f"unknown result code {code_text!r}")
    if side_text not in _SIDES:
        raise TrfError(number, column + 5, f"unknown colour {side_text!r}")
    if opponent_text and not opponent_text.isdigit():
        raise TrfError(number, column, f"opponent {opponent_text!r} is not a number")
    opponent = int(opponent_text) if opponent_text else 0
    side = _SIDES[side_text]
    if (opponent == 0) != (side is None) and opponent_text:
        raise TrfError(number, column + 5, "a game needs an opponent and a colour")
    return Cell(opponent or None, side, _CODES[code_text])


_COMPLEMENT = {Code.WIN: {Code.LOSS}, Code.LOSS: {Code.WIN}, Code.DRAW: {Code.DRAW},
               Code.WIN_UNRATED: {Code.LOSS_UNRATED}, Code.LOSS_UNRATED: {Code.WIN_UNRATED},
               Code.DRAW_UNRATED: {Code.DRAW_UNRATED},
               Code.FORFEIT_WIN: {Code.FORFEIT_LOSS},
               Code.FORFEIT_LOSS: {Code.FORFEIT_WIN, Code.FORFEIT_LOSS},
               Code.NONE: {Code.NONE}}
"""The codes the opponent's cell may hold for each code of a game's cell (``-`` against
``-``: both forfeited; blank against blank: not yet played)."""


def validate(trf: Trf) -> None:
    """Raise ``TrfError`` unless the file is a tournament: at least one player, start
    numbers used once, every game's two cells naming each other with opposite colours and
    matching results, and each points column the sum of the player's results in the paired
    rounds (with the file's scoring; as JaVaFo and bbpPairings allow, acceleration points,
    ``XXA``, and the byes already entered for the next round may be included)."""
    lines = {id(r): n for n, r in enumerate(trf.records, 1)}
    if not trf.players:
        raise TrfError(len(trf.records) or 1, 1, "no player record (001): not a tournament "
                                                 "file")
    by_start: dict[int, PlayerRecord] = {}
    for player in trf.players:
        start = player.entrant.start
        if start in by_start:
            raise TrfError(lines[id(player)], 5, f"starting rank {start} is used twice")
        by_start[start] = player
    scoring = trf.scoring
    virtual = trf.acceleration
    paired = max((r + 1 for p in trf.players for r, c in enumerate(p.cells)
                  if c.opponent is not None or c.code is Code.PAIRING_BYE), default=0)
    for player in trf.players:
        line = lines[id(player)]
        for index, cell in enumerate(player.cells):
            if cell.opponent is not None:
                _check_game(player, index, cell, by_start, line)
        total = sum((scoring.points(cell.code) for cell in player.cells[:paired]),
                    Fraction(0))
        ahead = sum((scoring.points(cell.code) for cell in player.cells[paired:]),
                    Fraction(0))
        allowed = {total + extra + later for later in (Fraction(0), ahead)
                   for extra in (Fraction(0), *virtual.get(player.entrant.start, ()))}
        if player.points not in allowed:
            raise TrfError(line, 81, f"points {format_points(player.points)} of player "
                                     f"{player.entrant.start}: the results add up to "
                                     f"{format_points(total)}")


def _check_game(player: PlayerRecord, index: int, cell: Cell,
                by_start: Mapping[int, PlayerRecord], line: int) -> None:
    """One game's cell against the opponent's cell of the same round."""
    column = FIRST_CELL + CELL_STRIDE * index
    start = player.entrant.start
    where = f"round {index + 1}: player {start}"
    opponent = by_start.get(cell.opponent or 0)
    if opponent is None or cell.opponent == start:
        raise TrfError(line, column, f"{where}'s opponent {cell.opponent} is not a player")
    theirs = opponent.cells[index] if index < len(opponent.cells) else _EMPTY
    if theirs.opponent != start:
        raise TrfError(line, column, f"{where} meets {cell.opponent}, whose cell names "
                                     f"{theirs.opponent or 'no opponent'}")
    if cell.side is not None and theirs.side is cell.side:
        raise TrfError(line, column + 5, f"{where} and {cell.opponent} both have the same "
                                         "colour")
    if theirs.code not in _COMPLEMENT.get(cell.code, set()):
        raise TrfError(line, column + 7, f"{where} has {cell.code.value!r} against "
                                         f"{cell.opponent}, who has {theirs.code.value!r}")


def format_points(points: Fraction) -> str:
    """Points as TRF writes them, with one decimal (``4.5``, ``15.0``)."""
    if points.denominator not in (1, 2):
        return f"{float(points):.2f}"
    return f"{float(points):.1f}"


def format_cell(cell: Cell) -> str:
    """A round cell's eight columns (``  12 w 1``, `` 0000 - U`` for byes)."""
    if cell == _EMPTY:
        return "        "
    opponent = f"{cell.opponent:4d}" if cell.opponent else "0000"
    side = "-" if cell.side is None else ("w" if cell.side is Side.WHITE else "b")
    return f"{opponent} {side} {cell.code.value}"


def format_player(record: PlayerRecord) -> str:
    """A ``001`` line in TRF-16's columns, without trailing spaces."""
    e = record.entrant
    head = (f"001 {e.start:4d} {e.sex:1}{e.title:>3} {e.name:<33} "
            f"{e.rating if e.rating else '':>4} {e.federation:<3} {e.fide_id:>11} "
            f"{e.birth:<10} {format_points(record.points):>4} "
            f"{record.rank if record.rank else '':>4}")
    cells = "".join("  " + format_cell(cell) for cell in record.cells)
    return (head + cells).rstrip()


def dump(trf: Trf) -> str:
    """The file's text, lines ended by CR as TRF says."""
    lines = []
    for record in trf.records:
        if isinstance(record, PlayerRecord):
            lines.append(format_player(record))
        else:
            lines.append(record.tag + record.text)
    return "".join(line + "\r" for line in lines)


def build(name: str, players: Iterable[PlayerRecord], *, total_rounds: int | None = None,
          initial_side: Side | None = None, system: str = "FIDE_DUTCH_2025",
          scoring: Scoring | None = None, trf2026: bool = False) -> Trf:
    """A new file: the tournament name (``012``), the players, and the records pairing needs
    (TRF-2026 tags ``142``/``152``/``192``/``162`` or TRF-16's ``XXR``/``XXC``/``092``)."""
    records: list[PlayerRecord | Record] = [Record("012", " " + name)]
    if total_rounds is not None:
        records.append(Record("142" if trf2026 else "XXR", f" {total_rounds}"))
    if initial_side is not None:
        if trf2026:
            records.append(Record("152", " W" if initial_side is Side.WHITE else " B"))
        else:
            records.append(Record("XXC", " white1" if initial_side is Side.WHITE else " black1"))
    records.append(Record("192" if trf2026 else "092", " " + system))
    if scoring is not None and scoring != Scoring():
        records.append(Record("162", format_scoring(scoring)))
    records.extend(players)
    return Trf(tuple(records))


def bye_record(code: Code, round_no: int, starts: Iterable[int]) -> Record:
    """A TRF-2026 ``240`` record in its fixed columns (the code in column 5, the round in
    columns 7-9, each player in four columns from column 11, one apart), as bbpPairings
    reads it: ``240 H   3    6   12``."""
    return Record("240", f" {code.value} {round_no:3d}" + "".join(f" {s:4d}" for s in starts))


def acceleration_record(start: int, points: Iterable[Fraction]) -> Record:
    """An ``XXA`` record (JaVaFo's extension to TRF-16): the player in columns 5-8, then
    the virtual points of each round in four columns, one apart."""
    return Record("XXA", f" {start:4d}" + "".join(f" {format_points(p):>4}" for p in points))


def format_scoring(scoring: Scoring) -> str:
    """The text of a ``162`` record (after the tag): win and draw points, as bbpPairings
    writes them (``  W 3.0    D 1.0``)."""
    return f"  W {format_points(scoring.win):>3}    D {format_points(scoring.draw):>3}"
