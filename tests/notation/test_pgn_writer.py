"""The PGN writer: export format, and reading back gives the identical game."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chessarbiter.core import Move, Position
from chessarbiter.notation import (
    SEVEN_TAG_ROSTER,
    RecordedGame,
    RecordedMove,
    read_pgn_file,
    read_pgn_text,
    write_pgn,
    write_pgn_games,
)
from chessarbiter.notation.pgn_tokens import split_comment
from tests.corpus import corpus_path

ROSTER = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?",
          "Black": "?"}


def complete(game: RecordedGame) -> RecordedGame:
    """The game with the tags export format always writes."""
    game.tags = ROSTER | game.tags | {"Result": game.result}
    return game


def test_round_trip_over_corpus_files() -> None:
    paths = ["large/lichess_2017-05_sample_clk.pgn", "pgn-read/4ncl_96-97_06.pgn",
             "pgn-extract/barnes-horton.pgn", "python-chess/cutechess-fischerrandom.pgn",
             "tricky/scalachess_fixtures/commentsAndVariations.pgn",
             "tricky/scalachess_fixtures/allSortOfClocks.pgn", "pgn-read/calgames_05.pgn"]
    for path in paths:
        for game in read_pgn_file(corpus_path("pgn", path)):
            if game.error is not None:
                continue
            text = write_pgn(game)
            back, = read_pgn_text(text)
            assert back == complete(game), path
            assert back.error is None and not back.notes
            assert write_pgn(back) == text
            assert all(len(line) <= 79 for line in text.splitlines() if not line.startswith("["))


def test_export_layout() -> None:
    game, = read_pgn_text('[WhiteElo "2700"]\n[White "A, B"]\n\n1. e4 {ok} e5 2. Nf3 1-0')
    text = write_pgn(game)
    lines = text.splitlines()
    assert [line.split()[0][1:] for line in lines[:7]] == list(SEVEN_TAG_ROSTER)
    assert lines[:8] == ['[Event "?"]', '[Site "?"]', '[Date "????.??.??"]', '[Round "?"]',
                         '[White "A, B"]', '[Black "?"]', '[Result "1-0"]',
                         '[WhiteElo "2700"]']
    assert lines[8:] == ["", "1. e4 {ok} 1... e5 2. Nf3 1-0", ""]
    assert text.endswith("1-0\n\n")


def test_set_up_start_and_escapes() -> None:
    fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 3 40"
    game = RecordedGame({"Event": 'say "hi" \\ bye'}, start_fen=fen, result="1/2-1/2")
    pos = Position(fen)
    game.moves.append(RecordedMove(pos.parse_uci("e8d7")))
    text = write_pgn(game)
    assert '[Event "say \\"hi\\" \\\\ bye"]' in text and '[SetUp "1"]' in text
    assert f'[FEN "{fen}"]' in text and "40... Kd7 1/2-1/2" in text
    back, = read_pgn_text(text)
    assert back.tags["Event"] == 'say "hi" \\ bye' and back.start_fen == fen


def test_write_many_and_bad_values() -> None:
    out = io.StringIO()
    assert write_pgn_games([RecordedGame(), RecordedGame(result="1-0")], out) == 2
    assert len(read_pgn_text(out.getvalue())) == 2
    with pytest.raises(ValueError, match="result"):
        write_pgn(RecordedGame(result="2-0"))
    with pytest.raises(ValueError, match="NAG"):
        write_pgn(RecordedGame(moves=[RecordedMove(Position().parse_uci("e2e4"), [256])]))
    game = RecordedGame(moves=[RecordedMove(Position().parse_uci("e2e4"), comment="x (=)")])
    with pytest.raises(ValueError, match="draw_offer"):
        write_pgn(game)


# -- the round-trip property -------------------------------------------------------------

words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789.,!?-+=:;'\"%()[]{}é♘",
                min_size=1, max_size=12)
comments = st.lists(words, max_size=6).map(" ".join).filter(
    lambda text: split_comment(text) == (text, None, None, False)
)
times = st.none() | st.integers(0, 10 * 3600 * 1000)


@st.composite
def lines(draw: st.DrawFn, pos: Position, depth: int) -> list[RecordedMove]:
    moves: list[RecordedMove] = []
    for _ in range(draw(st.integers(0, 12 if depth == 0 else 4))):
        legal = pos.legal_moves()
        if not legal:
            break
        move = Move(draw(st.sampled_from(legal)))
        record = RecordedMove(
            move,
            nags=draw(st.lists(st.integers(0, 255), max_size=2)),
            comment=draw(comments),
            pre_comment=draw(comments) if moves == [] and depth > 0 else "",
            clock_ms=draw(times),
            emt_ms=draw(times),
            draw_offer=draw(st.booleans()),
        )
        if depth < 2 and draw(st.integers(0, 4)) == 0:
            record.variations.append(draw(lines(pos, depth + 1)))
        moves.append(record)
        pos.push(move)
    for _ in moves:
        pos.pop()
    return moves


@st.composite
def games(draw: st.DrawFn) -> RecordedGame:
    fen = draw(st.sampled_from([
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/pp1n1ppp/8/2pP4/8/8/PPP2PPP/R3K2R w KQkq c6 0 12",
        "8/2P3k1/8/8/8/8/5p2/K7 b - - 7 60",
    ]))
    chess960 = draw(st.booleans()) and fen.startswith("r3k2r")
    result = draw(st.sampled_from(["1-0", "0-1", "1/2-1/2", "*"]))
    tags = dict(ROSTER) | {"Result": result}
    tags |= draw(st.dictionaries(st.sampled_from(["WhiteElo", "Board", "TimeControl",
                                                  "Annotator"]), words, max_size=3))
    if fen != "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1":
        tags |= {"SetUp": "1", "FEN": fen}
    if chess960:
        tags["Variant"] = "Chess960"
    moves = draw(lines(Position(fen, chess960=chess960), 0))
    return RecordedGame(tags, moves, fen, chess960, result, draw(comments))


@settings(max_examples=150, deadline=None)
@given(games())
def test_written_games_read_back_identical(game: RecordedGame) -> None:
    text = write_pgn(game)
    back = read_pgn_text(text, strict=True)
    assert back == [game]
    assert back[0].error is None
