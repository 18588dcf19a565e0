"""TRF-16 / TRF-2026 reading and writing, on the corpus files and on hand-made lines."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from chessarbiter.clock import Side
from chessarbiter.tournament.records import Cell, Code, Entrant, Scoring
from chessarbiter.tournament.trf import PlayerRecord, TrfError, build, dump, parse, validate
from tests.corpus import corpus_path


def _corpus_files() -> list[Path]:
    root = corpus_path("pairings")
    return sorted(root.glob("*/*.trf"))


def test_every_corpus_file_round_trips_byte_for_byte() -> None:
    files = _corpus_files()
    assert len(files) >= 16
    for path in files:
        raw = path.read_bytes().decode("latin-1")
        assert dump(parse(raw)) == raw, path.name


def test_player_line_fields_and_cells() -> None:
    trf = parse(corpus_path("pairings", "generated", "dutch_p15_r5_s101.trf")
                .read_text(encoding="latin-1"))
    first = trf.players[0]
    assert first.entrant == Entrant(start=1, name="Test0001 Player0001", rating=2474)
    assert first.points == Fraction(7, 2) and first.rank == 2
    assert first.cells[0] == Cell(8, Side.BLACK, Code.WIN)
    assert first.cells[1] == Cell(6, Side.WHITE, Code.DRAW)
    bye = trf.players[14].cells[0]
    assert bye == Cell(None, None, Code.PAIRING_BYE)
    assert trf.system == "FIDE_DUTCH_2025" and trf.total_rounds is None


def test_trf2026_records() -> None:
    trf = parse(corpus_path("pairings", "next_round", "p11_round1_trf2026_baku.trf")
                .read_text(encoding="latin-1"))
    assert trf.total_rounds == 9
    assert trf.initial_side is Side.WHITE
    assert trf.system == "FIDE_DUTCH_2025_BAKU"
    assert trf.byes == {1: {5: Code.HALF_BYE}}
    assert trf.players[0].entrant.name == "Player0001, Test"


def test_scoring_record_162() -> None:
    trf = parse(corpus_path("pairings", "generated", "dutch_p24_r7_s77_310scoring.trf")
                .read_text(encoding="latin-1"))
    scoring = trf.scoring
    assert (scoring.win, scoring.draw, scoring.loss) == (Fraction(3), Fraction(1), Fraction(0))
    assert scoring.points(Code.PAIRING_BYE) == 3
    assert scoring.points(Code.HALF_BYE) == 1


def test_xxr_xxc_and_xxa() -> None:
    text = "012 Club\rXXR 9\rXXC black1\rXXA    3  1.0  1.0  0.5\r"
    trf = parse(text)
    assert trf.total_rounds == 9 and trf.initial_side is Side.BLACK
    assert trf.acceleration == {3: (Fraction(1), Fraction(1), Fraction(1, 2))}
    assert dump(trf) == text


def test_line_endings_crlf_and_lf_are_read() -> None:
    line = ("001    1      Someone                           2000" + " " * 29
            + "1.0    1     2 w 1")
    for end in ("\r\n", "\n"):
        trf = parse(f"012 T{end}{line}{end}")
        assert trf.players[0].cells == (Cell(2, Side.WHITE, Code.WIN),)


def test_build_writes_what_parse_reads() -> None:
    players = [PlayerRecord(Entrant(1, "Anna", 2100, "FM", "NED", "123", "2000/01/01", "w"),
                            Fraction(3, 2), 1, (Cell(2, Side.WHITE, Code.WIN),
                                                Cell(None, None, Code.HALF_BYE))),
               PlayerRecord(Entrant(2, "Bob"), Fraction(0), 2,
                            (Cell(1, Side.BLACK, Code.LOSS),))]
    for trf2026 in (False, True):
        trf = build("Open", players, total_rounds=5, initial_side=Side.BLACK,
                    scoring=Scoring(win=Fraction(3), draw=Fraction(1)), trf2026=trf2026)
        again = parse(dump(trf))
        assert again.players == trf.players
        assert again.total_rounds == 5 and again.initial_side is Side.BLACK
        assert again.scoring.win == 3 and again.scoring.draw == 1
        assert dump(again) == dump(trf)


@pytest.mark.parametrize(("line", "column", "word"), [
    ("001    x", 5, "starting rank"),
    ("001    1      Name                              20x0", 49, "rating"),
    ("001    1      Name                              2000" + " " * 29 + "1.0    1     2 w Q",
     99, "result code"),
    ("001    1      Name                              2000" + " " * 29 + "1.0    1     2 x 1",
     97, "colour"),
    ("001    1      Name                              2000" + " " * 29 + "x.0", 81, "points"),
])
def test_errors_name_line_and_column(line: str, column: int, word: str) -> None:
    with pytest.raises(TrfError) as info:
        parse("012 T\r" + line + "\r")
    assert info.value.line == 2 and info.value.column == column
    assert word in str(info.value) and isinstance(info.value, ValueError)


def test_every_corpus_file_is_a_valid_tournament() -> None:
    """``validate``: cells agree with each other and with the points columns (3/1/0 scoring
    read from ``162``)."""
    for path in _corpus_files():
        validate(parse(path.read_bytes().decode("latin-1")))


def test_bbp_scoring_records_are_read() -> None:
    trf = parse("012 T\rBBW  3.0\rBBD  1.0\r### 240 H   2    1\r")
    assert trf.scoring == Scoring(win=Fraction(3), draw=Fraction(1))
    assert trf.byes == {}  # a record bbpPairings commented out is not read
    with pytest.raises(TrfError, match="line 1, column 1: not a TRF record"):
        parse("#EXTM3U\r")
