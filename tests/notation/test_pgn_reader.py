"""The PGN reader against the corpus, python-chess (a test-only oracle) and bad input."""

from __future__ import annotations

import csv
import io
import json
import tracemalloc
from functools import cache
from pathlib import Path
from typing import IO, Any, cast

import chess
import chess.pgn
import pytest

from chessarbiter.core import uci
from chessarbiter.notation import (
    GERMAN,
    Limits,
    RecordedGame,
    read_pgn,
    read_pgn_file,
    read_pgn_text,
)
from tests.corpus import corpus_path

PGN = corpus_path("pgn")


def manifest() -> list[dict[str, str]]:
    with (PGN / "MANIFEST.tsv").open() as stream:
        return list(csv.DictReader(stream, delimiter="\t"))


@cache
def read(path: str) -> tuple[RecordedGame, ...]:
    return tuple(read_pgn_file(PGN / path))


def final_fen(game: RecordedGame) -> str:
    return game.replay().fen(en_passant="legal")


# -- the 50 tricky cases -----------------------------------------------------------------

TRICKY = [json.loads(line) for line in (PGN / "tricky" / "tricky_cases.jsonl").read_text()
          .splitlines() if line.strip()]

POLICY = {
    "tricky-002": "empty input holds no game (python-chess agrees; chess.js makes one)",
    "tricky-017": "the text holds a literal backslash and 't', which is not PGN whitespace: "
                  "a clear error, not a guess",
    "tricky-031": "'e4!+': the PGN standard puts a check sign before suffix annotations, so "
                  "'!+' is malformed; rejected as chess.js does (python-chess accepts it)",
}


@pytest.mark.parametrize("case", TRICKY, ids=lambda c: c["id"])
def test_tricky_cases(case: dict[str, Any]) -> None:
    lenient = read_pgn_text(case["pgn"])
    strict = read_pgn_text(case["pgn"], strict=True)
    if case["id"] == "tricky-002":
        assert lenient == [] and strict == []
        return
    if case["id"] == "tricky-017":
        assert lenient[0].error is not None and "invalid SAN" in lenient[0].error.message
        return
    if "games" in case:
        assert len(lenient) == case["games"]
    for wanted, games in (("permissive_parser", lenient), ("strict_parser", strict)):
        if case.get(wanted) == "accept":
            assert len(games) == 1 and games[0].error is None, games[0].error
        elif case.get(wanted) == "reject":
            assert not games or games[0].error is not None
    accepted = [g for g in lenient if g.error is None]
    if "final_fen" in case and accepted:
        assert final_fen(accepted[0]) == case["final_fen"]
    if "game_final_fens" in case:
        assert [final_fen(g) for g in lenient] == case["game_final_fens"]
    if "mainline_uci" in case:
        assert [uci(m) for m in lenient[0].mainline()] == case["mainline_uci"]
    if "last_move_uci" in case:
        assert uci(lenient[0].mainline()[-1]) == case["last_move_uci"]
    if "start_fen" in case:
        assert lenient[0].start_fen == case["start_fen"]
    for name, value in case.get("headers", {}).items():
        # The Result of a game without a Result tag is its termination marker.
        found = lenient[0].tags.get(name) if name != "Result" else lenient[0].result
        assert found == value


def test_tricky_tokens_in_a_legal_position() -> None:
    """tricky-046/047 use moves illegal from the initial position; here they are legal."""
    fen = "r3k2r/3p4/8/8/8/8/3P4/R3K2R w KQkq - 0 1"
    game, = read_pgn_text(f'[FEN "{fen}"]\n\n1. O-O-O !! 0-0-0# ?? 1\u20140')
    assert game.error is None and game.result == "1-0"
    assert [m.nags for m in game.moves] == [[3], [4]]
    game, = read_pgn_text(f'[FEN "{fen}"]\n\n1. 0\u20130\u20130 O\u2014O \u00bd-\u00bd')
    assert game.error is None and game.result == "1/2-1/2" and len(game.moves) == 2


# -- every file of the corpus ------------------------------------------------------------

DIFFERENCES = {
    # path: (games, games with errors, plies) here, and why it differs from python-chess.
    "chess.js/tests_pgn_0.pgn": ((1, 1, 0), "HTML-mangled: tags and moves joined by <br />"),
    "chessops/headers-and-moves-on-the-same-line.pgn": ((3, 3, 0), "Antichess, not chess; "
                                                       "3 games: python-chess joins two"),
    "chessops/leading-whitespace.pgn": ((4, 0, 20), "python-chess ignores indented tags"),
    "pgn-extract/nested-comment.pgn": ((1, 1, 1), "PGN comments do not nest"),
    "pgn-extract/test-allownullmoves.pgn": ((2, 2, 2), "null moves: passing is not a move"),
    "pgn-extract/test-fuzzydepth.pgn": ((4, 0, 20), "four games, each ended by '*'"),
    "pgn-extract/test-nobadresults.pgn": ((9, 0, 9), "nine games, one per line"),
    "pgn-read/crafty06_01.pgn": ((3, 1, 223), "e-mail headers between games: one error"),
    "pgn-read/crafty06_02.pgn": ((1, 1, 0), "an HTML newsletter, no PGN"),
    "pgn-read/crafty06_03.pgn": ((1, 1, 0), "an HTML newsletter, no PGN"),
    "pgn-read/twic9nn_error.pgn": ((9, 4, 139), "'- -', '1-0 ff' twice, a missing promotion"),
    "python-chess/anastasian-lewis.pgn": ((1, 1, 81), "'Z0' null move in the main line"),
    "python-chess/antichess-programfox.pgn": ((2, 2, 0), "Antichess, not chess"),
    "python-chess/knightvuillaume-jannlee-zh-lichess.pgn": ((1, 1, 0), "Crazyhouse"),
    "python-chess/saturs-jannlee-zh-lichess.pgn": ((1, 1, 0), "Crazyhouse"),
    "scalachess/FWWRC.pgn": ((605, 0, 0), "605 tag-only records, as the README says"),
    "scalachess/uzchesscup.pgn": ((45, 0, 0), "45 tag-only records"),
    "tricky/scalachess_fixtures/atomicPromotion.pgn": ((1, 1, 0), "Atomic, not chess"),
    "tricky/scalachess_fixtures/atomicRegression.pgn": ((1, 1, 0), "Atomic, not chess"),
    "tricky/scalachess_fixtures/blackAbsentResult.pgn": ((1, 1, 0), "'+--' is no result"),
    "tricky/scalachess_fixtures/chessComCrazyhouse.pgn": ((1, 1, 0), "Crazyhouse"),
    "tricky/scalachess_fixtures/crazyhouse1.pgn": ((1, 1, 0), "Crazyhouse"),
    "tricky/scalachess_fixtures/crazyhouse2.pgn": ((1, 1, 0), "Crazyhouse"),
    "tricky/scalachess_fixtures/crazyhouseFromProd.pgn": ((1, 1, 0), "Crazyhouse"),
    "tricky/scalachess_fixtures/completeTagsWithSpaces.pgn": ((1, 0, 0), "' Standard ' is "
                                                             "standard chess"),
    "tricky/scalachess_fixtures/fromCrafty.pgn": ((1, 0, 68), "one Crafty game, read whole"),
    "tricky/scalachess_fixtures/fromPositionEmptyFen.pgn": ((1, 0, 164), "SetUp without FEN "
                                                            "starts from the initial position"),
    "tricky/scalachess_fixtures/gameWithComments.pgn": ((1, 0, 106), "'%' escape lines"),
    "tricky/scalachess_fixtures/invisibleChar.pgn": ((1, 0, 19), "a zero-width no-break space "
                                                     "is a blank, not a game"),
    "tricky/scalachess_fixtures/invalidVariant.pgn": ((1, 1, 0), "Variant 'starwars'"),
    "tricky/scalachess_fixtures/overflow.pgn": ((1, 0, 67), "read whole"),
    "tricky/scalachess_fixtures/stackOverflow.pgn": ((1, 0, 8), "read whole"),
    "tricky/scalachess_fixtures/weirdDashes.pgn": ((1, 0, 74), "'O-O' written with U+2011 dashes"),
    "tricky/scalachess_fixtures/withDelimiters.pgn": ((1, 0, 33), "forum [pgn] delimiters"),
}
"""Where this reader and python-chess disagree. The PGN standard and the Laws decide: a blank
line inside movetext does not end a game (python-chess splits barnes-horton and the other
pgn-extract files that have a comment and a blank line before the moves: BLANK_LINE_SPLITS);
variants and null moves are not chess; a tag section starts a game."""

BLANK_LINE_SPLITS = {
    "pgn-extract/" + name for name in (
        "barnes-horton.pgn", "test-C.pgn", "test-F-text.pgn", "test-F.pgn", "test-L2.pgn",
        "test-N.pgn", "test-R.pgn", "test-Ta.pgn", "test-V.pgn", "test-W.pgn",
        "test-addhashcode.pgn", "test-checkmate.pgn", "test-f1.pgn", "test-fencomments.pgn",
        "test-nochecks.pgn", "test-nomovenumbers.pgn", "test-noresults.pgn", "test-notags.pgn",
        "test-plycount.pgn", "test-plylimit.pgn", "test-stalemate.pgn",
        "test-totalplycount.pgn", "test-ucW.pgn", "test-w.pgn",
    )
}
HTML_MANGLED = {f"pgn-read/Little_{n:02}.pgn" for n in range(1, 18)}


def counts(games: tuple[RecordedGame, ...] | list[RecordedGame]) -> tuple[int, int, int]:
    return (len(games), sum(g.error is not None for g in games), sum(len(g.moves) for g in games))


def read_lines(path: str) -> list[RecordedGame]:
    """The ``*_movetext.txt`` fixtures hold one game per line without results."""
    return [game for line in (PGN / path).read_text().splitlines() if line.strip()
            for game in read_pgn_text(line)]


@pytest.mark.parametrize("row", manifest(), ids=lambda r: r["path"])
def test_corpus_file(row: dict[str, str]) -> None:
    path = row["path"]
    theirs = (int(row["games"]), int(row["games_with_errors"]), int(row["plies"]))
    if path.endswith("_movetext.txt"):
        ours = counts(read_lines(path))
        if "crazyhouse" in path:
            assert ours[1] == ours[0]  # drops (N@f3) are not chess moves
        elif "Castles" in path:
            assert ours == (3, 0, 36 if "long" in path else 24), "o-o and 0-0 are castling"
        else:
            assert ours == theirs
        return
    games = read(path)
    ours = counts(games)
    if path in DIFFERENCES:
        assert ours == DIFFERENCES[path][0], DIFFERENCES[path][1]
    elif path in BLANK_LINE_SPLITS:
        assert ours[0] == theirs[0] - 1 and ours[1:] == theirs[1:]
    elif path in HTML_MANGLED:
        assert ours[1] >= 1 and all(g.error is None or g.error.line > 0 for g in games)
    else:
        assert ours == theirs
        assert all(g.error is None for g in games) or theirs[1] > 0


def test_broken_games_name_their_line_and_move() -> None:
    games = read("pgn-read/twic9nn_error.pgn")
    broken = [g for g in games if g.error is not None]
    promotion = [g for g in broken if g.error is not None and g.error.kind == "illegal"]
    assert len(promotion) == 1
    error = promotion[0].error
    assert error is not None
    assert (error.line, error.move_number, error.black, error.text) == (127, 69, True, "b1")
    assert "must promote" in error.message and "line 127: move 69... b1" in str(error)
    assert len(promotion[0].moves) == error.ply - 1


# -- the same moves as python-chess ------------------------------------------------------

def valid_real_files() -> list[str]:
    return [r["path"] for r in manifest() if r["games_with_errors"] == "0"
            and int(r["plies"]) > 0 and r["path"] not in DIFFERENCES
            and r["path"] not in BLANK_LINE_SPLITS and not r["path"].endswith(".txt")]


def python_chess_games(path: Path, limit: int | None) -> list[list[str]]:
    out: list[list[str]] = []
    with path.open(encoding="utf-8-sig") as stream:
        while limit is None or len(out) < limit:
            game = chess.pgn.read_game(stream)
            if game is None:
                break
            out.append([m.uci() for m in game.mainline_moves()])
    return out


def ucis(game: RecordedGame) -> list[str]:
    return [uci(m) for m in game.mainline()]


def differential(path: str, limit: int | None) -> None:
    theirs = python_chess_games(PGN / path, limit)
    ours = [ucis(g) for g in read(path)[: len(theirs)]]
    chess960 = [g.chess960 for g in read(path)[: len(theirs)]]
    for mine, their, is960 in zip(ours, theirs, chess960, strict=True):
        if is960:
            # python-chess writes Chess960 castling as king-takes-rook, this test's uci()
            # as the king's destination: compare the rest.
            assert len(mine) == len(their)
        else:
            assert mine == their


def test_same_moves_as_python_chess() -> None:
    """Every valid real-game file (the two large ones: their first 300 games)."""
    for path in valid_real_files():
        differential(path, 300 if path.startswith("large/") else None)


@pytest.mark.long
@pytest.mark.parametrize("path", ["large/lichess_2016-05_sample.pgn",
                                  "large/lichess_2017-05_sample_clk.pgn"])
def test_same_moves_as_python_chess_large(path: str) -> None:
    differential(path, None)


def test_headers_only_finds_the_same_tags() -> None:
    for row in manifest():
        path = PGN / row["path"]
        full = [g.tags for g in read_pgn_file(path) if g.tags]
        headers = [g.tags for g in read_pgn_file(path, headers_only=True) if g.tags]
        assert headers == full, row["path"]
        assert all(not g.moves for g in read_pgn_file(path, headers_only=True))


# -- the scoresheet data -----------------------------------------------------------------

def test_clock_comments() -> None:
    games = read("large/lichess_2017-05_sample_clk.pgn")
    game = games[0]
    assert [m.clock_ms for m in game.moves][:4] == [900_000, 900_000, 919_000, 918_000]
    assert all(m.comment == "" for m in game.moves)
    assert sum(g.moves[0].clock_ms is not None for g in games if g.moves) == 292


def test_clock_and_move_time_of_every_move() -> None:
    game, = read_pgn_file(corpus_path("clock", "scalachess_allSortOfClocks.pgn"))
    assert game.error is None and len(game.moves) == 75
    assert all(m.clock_ms is not None and m.emt_ms is not None for m in game.moves)
    assert "[%ts" in game.moves[0].comment and "[%clk" not in game.moves[0].comment


def test_draw_offers_nags_comments_and_variations() -> None:
    text = ("{Opening} 1. e4 $1 {best [%clk 0:05:00] [%emt 0:00:03]} e5 (=) 2. Nf3 {(=)} "
            "(2. d4 {a gambit} (2. c3) exd4) 2... Nc6 ?! *")
    game, = read_pgn_text(text)
    assert game.error is None and game.comment == "Opening"
    e4, e5, nf3, nc6 = game.moves
    assert (e4.nags, e4.comment, e4.clock_ms, e4.emt_ms) == ([1], "best", 300_000, 3_000)
    assert e5.draw_offer and nf3.draw_offer and not e4.draw_offer
    assert nc6.nags == [6]
    assert [[uci(m.move) for m in line] for line in nf3.variations] == [["d2d4", "e5d4"]]
    d4 = nf3.variations[0][0]
    assert d4.comment == "a gambit"
    assert [[uci(m.move) for m in line] for line in d4.variations] == [["c2c3"]]


def test_broken_variation_is_dropped_not_the_game() -> None:
    game, = read_pgn_text("1. e4 e5 (1... Qxh8 2. d4) 2. Nf3 *")
    assert game.error is None and len(game.moves) == 3
    assert game.moves[1].variations == [[]]
    assert "variation dropped" in game.notes[0]
    strict, = read_pgn_text("1. e4 e5 (1... Qxh8 2. d4) 2. Nf3 *", strict=True)
    assert strict.error is not None and strict.error.kind == "illegal"


def test_chess960_games() -> None:
    games = read("python-chess/cutechess-fischerrandom.pgn")
    assert games and all(g.chess960 and g.error is None for g in games)


def test_national_letters_in_a_file() -> None:
    text = "1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. O-O Sf6 5. Te1 *"
    game, = read_pgn_text(text, letters=GERMAN)
    assert game.error is None and len(game.moves) == 9


def test_missing_blank_lines_keep_every_tag() -> None:
    text = ('[Event "A"]\n[White "a"]\n1. e4 e5 1-0\n[Event "B"]\n[White "b"]\n1. d4 *\n'
            '[Event "C"]\n1. c4\n[Event "D"]\n1. Nf3 *')
    games = read_pgn_text(text)
    assert [g.tags["Event"] for g in games] == ["A", "B", "C", "D"]
    assert [g.tags.get("White") for g in games] == ["a", "b", None, None]
    assert [len(g.moves) for g in games] == [2, 1, 1, 1]


def test_blank_line_inside_movetext_does_not_split() -> None:
    games = read_pgn_text('[Event "A"]\n\n{intro}\n\n1. e4\n\ne5 2. Nf3 *\n\n1. d4 1-0')
    assert [len(g.moves) for g in games] == [3, 1]


def test_bytes_bom_crlf_and_cr() -> None:
    raw = '\ufeff[Event "x"]\r\n\r\n1. e4 e5 *\r\n'.encode()
    game, = read_pgn(io.BytesIO(raw))
    assert game.tags == {"Event": "x"} and len(game.moves) == 2
    game, = read_pgn_text('[Event "x"]\r\r1. e4 e5 *\r')
    assert len(game.moves) == 2


# -- bad input ---------------------------------------------------------------------------

def test_binary_garbage_gives_errors_not_crashes() -> None:
    junk = bytes(range(256)) * 64 + b"\n" + bytes(reversed(range(256))) * 64
    games = list(read_pgn(io.BytesIO(junk)))
    assert games and all(g.error is not None for g in games)


@pytest.mark.parametrize("cut", [1, 50, 300, 700, 1000])
def test_truncated_file(cut: int) -> None:
    text = (PGN / "chess.js" / "benchmark.pgn").read_text()[:cut]
    games = read_pgn_text(text)
    assert all(g.error is None or g.error.line >= 1 for g in games)


def test_unclosed_comment_does_not_take_the_next_game() -> None:
    games = read_pgn_text('[Event "A"]\n\n1. e4 {oops\n\n[Event "B"]\n\n1. d4 *\n')
    assert [g.tags["Event"] for g in games] == ["A", "B"]
    assert games[0].error is not None and "not closed" in games[0].error.message
    assert games[1].error is None and len(games[1].moves) == 1


class _Endless(io.TextIOBase):
    """A stream of ``size`` characters of moves without a newline, made as it is read."""

    def __init__(self, size: int) -> None:
        self.left = size

    def readable(self) -> bool:
        return True

    def read(self, n: int | None = -1) -> str:
        n = self.left if n is None or n < 0 else min(n, self.left)
        self.left -= n
        return ("Nf3 Nf6 Ng1 Ng8 " * (n // 16 + 1))[:n]


def test_100_megabyte_line_in_bounded_memory() -> None:
    tracemalloc.start()
    games = list(read_pgn(cast(IO[str], _Endless(100_000_000))))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert len(games) == 1 and games[0].error is not None
    assert games[0].error.kind == "limit" and "longer than" in games[0].error.message
    assert peak < 20_000_000


def test_move_limit() -> None:
    game, = read_pgn_text("1. Nf3 Nf6 2. Ng1 Ng8 " * 30 + "*", limits=Limits(moves=100))
    assert game.error is not None and game.error.kind == "limit" and len(game.moves) == 100
