"""What players type, read into typed commands."""

from __future__ import annotations

import pytest

from chessarbiter.clock import Side
from chessarbiter.session.commands import ACTIONS, Command, Verb, read_command, side_named


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("Nf3", Command(Verb.MOVE, ("Nf3",))),
        ("  e8=Q  ", Command(Verb.MOVE, ("e8=Q",))),
        ("Nf3 =", Command(Verb.MOVE, ("Nf3",), offer_draw=True)),
        ("Nf3(=)", Command(Verb.MOVE, ("Nf3",), offer_draw=True)),
        ("e4 offer", Command(Verb.MOVE, ("e4",), offer_draw=True)),
        ("Ng1-f3", Command(Verb.MOVE, ("Ng1-f3",))),
        ("DRAW", Command(Verb.OFFER)),
        ("accept", Command(Verb.ACCEPT)),
        ("claim", Command(Verb.CLAIM, ("", ""))),
        ("claim Nf3", Command(Verb.CLAIM, ("", "Nf3"))),
        ("claim 50 Kh1", Command(Verb.CLAIM, ("fifty-moves", "Kh1"))),
        ("claim repetition", Command(Verb.CLAIM, ("threefold", ""))),
        ("resign black", Command(Verb.RESIGN, ("black",))),
        ("rank 4", Command(Verb.RANK, ("4",))),
        ("?", Command(Verb.HELP)),
        ("exit", Command(Verb.QUIT)),
    ],
)
def test_read_command(line: str, command: Command) -> None:
    assert read_command(line) == command


def test_empty_lines_say_nothing() -> None:
    assert read_command("   ") is None
    assert read_command("=") is None


def test_commands_are_typed_and_actions_are_told_apart_from_views() -> None:
    command = read_command("claim 50 Kh1")
    assert command is not None and command.name is Verb.CLAIM
    assert {Verb.MOVE, Verb.RESIGN, Verb.CLAIM} <= ACTIONS
    assert not {Verb.BOARD, Verb.CLOCK, Verb.HELP, Verb.QUIT} & ACTIONS


def test_sides_are_named_in_words_or_letters() -> None:
    assert side_named("White") is Side.WHITE and side_named("b") is Side.BLACK
    with pytest.raises(ValueError, match="'purple' is not a side: say white or black"):
        side_named("purple")
