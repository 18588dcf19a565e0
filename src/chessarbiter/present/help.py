"""The commands a player can type (:mod:`chessarbiter.session.commands`), listed for people."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Final

HELP: Final = (
    ("MOVE", "play a move: Nf3, exd5, O-O, e8=Q, g1f3, Ng1-f3"),
    ("MOVE =", "play a move and offer a draw with it"),
    ("offer", "offer a draw (Art. 9.1)"),
    ("accept / decline", "answer the opponent's draw offer"),
    ("claim [repetition|50] [MOVE]", "claim a draw, on the board or on the move you intend "
                                     "to play (Art. 9.2, 9.3)"),
    ("resign", "resign the game (Art. 5.1.2)"),
    ("moves", "list the legal moves"),
    ("clock", "read both clocks"),
    ("board", "show (or read) the whole board"),
    ("rank N / file X", "read one rank (1-8) or file (a-h)"),
    ("pieces [white|black]", "where a side's pieces stand"),
    ("flip", "turn the board around"),
    ("help", "this list"),
    ("quit", "stop; the game is saved and can be resumed"),
)
COLUMN: Final = 17
"""The commands' column when the list is fitted to a width; a longer command has its line."""


def help_text(without: tuple[str, ...] = (), *, keys: Sequence[tuple[str, str]] = (),
              width: int | None = None) -> str:
    """The command list (and an interface's ``keys``), one command a line, leaving out the
    commands in ``without``. With ``width``, fitted to it: what a command does is wrapped
    under its own column, and a command longer than :data:`COLUMN` has a line to itself."""
    shown = [(cmd, what) for cmd, what in (*HELP, *keys) if cmd not in without]
    if width is None:
        column = max(len(cmd) for cmd, _ in shown)
        return "\n".join(f"{cmd.ljust(column)}  {what}" for cmd, what in shown)
    indent = " " * (COLUMN + 2)
    lines: list[str] = []
    for cmd, what in shown:
        wrapped = textwrap.wrap(what, max(width - len(indent), 20))
        if len(cmd) > COLUMN:
            lines.append(cmd)
        else:
            lines.append(f"{cmd.ljust(COLUMN)}  {wrapped.pop(0)}")
        lines += [indent + line for line in wrapped]
    return "\n".join(lines)
