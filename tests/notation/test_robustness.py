"""Notation on input people and programs really write, and on hostile input."""

from __future__ import annotations

from typing import Any

import pytest

from chessarbiter.core import parse_fen
from chessarbiter.core.errors import InvalidMoveError
from chessarbiter.notation import RecordedGame, read_pgn_text, write_pgn
from chessarbiter.notation.san import parse_san, write_san

PROMOTE_OR_EP = "8/1P6/8/3pP3/8/8/8/k6K w - d6 0 1"


@pytest.mark.parametrize(("text", "uci"), [
    ("exd6 e.p.", "e5d6"), ("exd6e.p.", "e5d6"), ("exd6 ep", "e5d6"), ("exd6 (ep)", "e5d6"),
    ("b8(Q)", "b7b8q"), ("b8=(N)", "b7b8n"), ("b7b8Q", "b7b8q"), ("b7b8r", "b7b8r"),
])
def test_lenient_forms(text: str, uci: str) -> None:
    pos = parse_fen(PROMOTE_OR_EP)
    assert pos.uci(parse_san(pos, text)) == uci
    with pytest.raises(InvalidMoveError):
        parse_san(pos, text, strict=True)


def test_lenient_forms_in_movetext() -> None:
    game, = read_pgn_text(f'[FEN "{PROMOTE_OR_EP}"]\n\n1. exd6 e.p. Ka2 2. b8(Q) Ka3 '
                          "3. d7 (3. Qb7) *")
    assert game.error is None and not game.notes
    pos = game.start_position()
    sans = []
    for record in game.moves:
        sans.append(write_san(pos, record.move))
        pos.push(record.move)
    assert sans == ["exd6", "Ka2", "b8=Q", "Ka3", "d7"]
    assert len(game.moves[4].variations) == 1


@pytest.mark.parametrize("value", [5, b"e4", None, ["e4"], 4.0])
def test_san_that_is_not_text(value: Any) -> None:
    pos = parse_fen(PROMOTE_OR_EP)
    for strict in (False, True):
        with pytest.raises(InvalidMoveError, match="expected text"):
            parse_san(pos, value, strict=strict)
    assert issubclass(InvalidMoveError, ValueError)


def test_nag_beyond_the_int_conversion_limit() -> None:
    huge = "$" + "7" * 5000
    lenient, = read_pgn_text(f"1. e4 {huge} e5 $0003 *")
    assert lenient.error is None
    assert [m.nags for m in lenient.moves] == [[], [3]]
    assert "5000 digits" in lenient.notes[0] and "dropped" in lenient.notes[0]
    strict, = read_pgn_text(f"1. e4 {huge} e5 *", strict=True)
    assert strict.error is not None and strict.error.kind == "syntax"
    assert "out of the range $0-$255" in strict.error.message
    assert len(strict.error.message) < 200


def nested(depth: int) -> str:
    return "1. e4 " + "(1. d4 " * depth + ")" * depth + " e5 *"


def test_variations_nested_a_thousand_deep() -> None:
    game, = read_pgn_text(nested(1000))
    assert game.error is None and len(game.moves) == 2
    text = write_pgn(game)
    again, = read_pgn_text(text)
    assert write_pgn(again) == text
    depth, line = 0, again.moves
    while line[0].variations:
        line = line[0].variations[0]
        depth += 1
    assert depth == 1000


def test_comment_holding_a_closing_brace() -> None:
    """A ';' comment may hold '}': it is written as a ';' comment again, and reads back."""
    game, = read_pgn_text("; before } it\n1. e4 ; a } b {c\ne5 {x} *")
    assert game.comment == "before } it"
    assert [m.comment for m in game.moves] == ["a } b {c", "x"]
    text = write_pgn(game)
    assert "; a } b {c\n" in text
    again, = read_pgn_text(text)
    assert again.moves == game.moves and again.comment == game.comment
    made = RecordedGame(comment="{ and } both", result="1-0")
    assert read_pgn_text(write_pgn(made))[0].comment == "{ and } both"
