"""What players type, read into commands."""

from __future__ import annotations

import pytest

from chessarbiter.session.commands import Command, help_text, read_command


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("Nf3", Command("move", ("Nf3",))),
        ("  e8=Q  ", Command("move", ("e8=Q",))),
        ("Nf3 =", Command("move", ("Nf3",), offer_draw=True)),
        ("Nf3(=)", Command("move", ("Nf3",), offer_draw=True)),
        ("e4 offer", Command("move", ("e4",), offer_draw=True)),
        ("Ng1-f3", Command("move", ("Ng1-f3",))),
        ("DRAW", Command("offer")),
        ("accept", Command("accept")),
        ("claim", Command("claim", ("", ""))),
        ("claim Nf3", Command("claim", ("", "Nf3"))),
        ("claim 50 Kh1", Command("claim", ("fifty-moves", "Kh1"))),
        ("claim repetition", Command("claim", ("threefold", ""))),
        ("resign black", Command("resign", ("black",))),
        ("rank 4", Command("rank", ("4",))),
        ("?", Command("help")),
        ("exit", Command("quit")),
    ],
)
def test_read_command(line: str, command: Command) -> None:
    assert read_command(line) == command


def test_empty_lines_say_nothing() -> None:
    assert read_command("   ") is None
    assert read_command("=") is None


def test_help_lists_every_command() -> None:
    text = help_text()
    for word in ("offer", "accept", "claim", "resign", "moves", "clock", "rank", "flip", "quit"):
        assert word in text
