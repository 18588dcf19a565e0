"""The commands a player can type (:mod:`chessarbiter.session.commands`), listed for people."""

from __future__ import annotations

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


def help_text(without: tuple[str, ...] = ()) -> str:
    """The command list, one command a line, leaving out the commands in ``without``."""
    shown = [(cmd, what) for cmd, what in HELP if cmd not in without]
    width = max(len(cmd) for cmd, _ in shown)
    return "\n".join(f"{cmd.ljust(width)}  {what}" for cmd, what in shown)
