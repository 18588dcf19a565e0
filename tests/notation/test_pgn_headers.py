"""Reading tags only: the movetext is skipped in big steps, comments and all."""

from __future__ import annotations

import io

import pytest

from chessarbiter.notation import read_pgn, read_pgn_text

CASES = [
    # a tag line inside a comment spanning lines is comment text
    '[Event "a"]\n\n1. e4 {a comment\n[Event "quoted"]\nstill the comment} e5 *\n\n'
    '[Event "b"]\n\n1. d4 *\n',
    # unless a blank line comes before it: the comment is left open, a new game starts
    '[Event "a"]\n\n1. e4 {never closed\n\n[Event "b"]\n\n1. d4 *\n',
    # braces in a ';' comment do not open a comment
    '[Event "a"]\n\n1. e4 ; not a { comment\ne5 *\n[Event "b"]\n\n1. d4 *\n',
    # a '}' closes the comment; the next tag section starts a game without a blank line
    '[Event "a"]\n\n1. e4 {one\ntwo} e5 {three}\n[Event "b"]\n[Site "s"]\n\n1. d4 *\n',
    # escapes, spaces and tags with movetext fall back to the careful reading
    '[Event "a \\"quoted\\""]\n  [Site "x"]\n\n1. e4 *\n\n[Event "b"] [Round "2"] 1. d4 *\n',
]


@pytest.mark.parametrize("text", CASES)
def test_tags_and_lines_as_the_full_reader(text: str) -> None:
    full = read_pgn_text(text)
    headers = read_pgn_text(text, headers_only=True)
    assert [(g.tags, g.line) for g in headers] == [(g.tags, g.line) for g in full]
    assert len(headers) == 2


def test_comment_spanning_chunks() -> None:
    """A comment longer than the reader's chunks still hides the tag lines inside it."""
    filler = "word " * 30_000
    text = (f'[Event "a"]\n\n1. e4 {{{filler}\n[Event "inside"]\n{filler}}} e5 *\n\n'
            '[Event "b"]\n\n1. d4 *\n')
    tags = [g.tags["Event"] for g in read_pgn(io.StringIO(text), headers_only=True)]
    assert tags == ["a", "b"]


def test_first_line_numbers_a_part() -> None:
    text = '[Event "a"]\n\n1. e4 *\n\n[Event "b"]\n\n1. d4 *\n'
    for headers_only in (False, True):
        games = list(read_pgn(io.StringIO(text), headers_only=headers_only, first_line=41))
        assert [g.line for g in games] == [41, 45]
