"""The core's boundary: FEN text reads into a plain Setup, not necessarily legal, and only
``Position.from_setup`` makes a position of one, checked as a FEN is."""

from __future__ import annotations

import random

import pytest

from chessarbiter.core import FenError, Position, Setup, parse_fen
from chessarbiter.core.fenfields import read_setup, write_setup
from chessarbiter.core.squares import BLACK, WHITE, parse_square

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def test_text_reads_into_a_setup_that_may_be_no_position() -> None:
    setup = read_setup("8/8/8/8/8/8/8/P6P b KQ e3 0 1")  # no kings, pawns on rank 1
    assert setup.board[parse_square("a1")] == setup.board[parse_square("h1")] == 1
    assert setup.turn is BLACK
    assert setup.castling_rights == 1 << parse_square("a1") | 1 << parse_square("h1")
    assert setup.ep_square == parse_square("e3")
    assert write_setup(setup) == "8/8/8/8/8/8/8/P6P b KQ e3 0 1"
    with pytest.raises(FenError, match="white must have exactly one king, has 0"):
        Position.from_setup(setup)


def test_a_position_is_its_setup_and_back() -> None:
    pos = parse_fen(KIWIPETE)
    assert pos.snapshot() == read_setup(KIWIPETE)
    assert Position.from_setup(pos.snapshot()) == pos == Position(KIWIPETE)
    rng = random.Random(7)
    for _ in range(60):
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(rng.choice(moves))
        again = Position.from_setup(read_setup(pos.fen()))
        assert again == pos and again.key() == pos.key()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"board": (0,) * 64}, "piece placement: white must have exactly one king, has 0"),
        ({"castling_rights": 1 << 7 | 1 << 6}, "castling: right 'G' does not match a king"),
        ({"ep_square": parse_square("e6")}, "en passant: e6 does not follow a double step"),
        ({"ep_square": parse_square("e3")}, "en passant: e3 must be on rank 6 when white"),
        ({"turn": BLACK}, "piece placement: white is in check but not to move"),
        ({"board": (0,) * 63}, "piece placement: expected a tuple of 64 squares"),
        ({"turn": 0}, "side to move: expected Side.WHITE or Side.BLACK, found 0"),
        ({"board": (7,) + (0,) * 63}, "piece placement: no piece has the code 7 (a1)"),
        ({"fullmove_number": 0}, "fullmove number: expected a number from 1 to 999999999"),
        ({"ep_square": 64}, "en passant: expected a number from -1 to 63, found 64"),
    ],
)
def test_a_setup_is_checked_as_a_fen_is(change: dict[str, object], message: str) -> None:
    """The same errors as for text, without the text to quote."""
    base = read_setup("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1")
    setup = base._replace(**change)  # type: ignore[arg-type]
    with pytest.raises(FenError) as info:
        Position.from_setup(setup)
    assert str(info.value).startswith(f"invalid FEN {message}")
    assert " in '" not in str(info.value)


def test_fen_errors_found_by_the_check_quote_the_text() -> None:
    fen = "4k3/8/8/8/8/8/8/4K3 w K - 0 1"
    with pytest.raises(FenError) as info:
        parse_fen(fen)
    assert str(info.value) == (
        f"invalid FEN castling: right 'K' does not match a king and rook in {fen!r}"
    )


def test_lenient_drops_what_cannot_be_and_keeps_the_rest() -> None:
    setup = read_setup("4k3/8/8/8/8/8/8/R3K3 w KQ e6 7 30")
    pos = Position.from_setup(setup, lenient=True)
    assert pos.fen() == "4k3/8/8/8/8/8/8/R3K3 w Q - 7 30"
    assert pos.key() == Position("4k3/8/8/8/8/8/8/R3K3 w Q - 7 30").key()
    assert setup.turn is WHITE and isinstance(setup, Setup)
