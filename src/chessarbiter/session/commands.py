"""What a player types, read into commands (the same words in every interface).

A line is a move (SAN, long algebraic or UCI; a trailing ``=`` or ``offer`` also offers a
draw, as the scoresheet's "(=)" records, Art. 9.1.2.1) or one of the commands in
:data:`HELP`. Reading never fails: unknown words become a ``move`` the arbiter will reject
with its own clear message.
"""

from __future__ import annotations

from dataclasses import dataclass
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

_WORDS: Final = {
    "offer": "offer", "draw": "offer", "accept": "accept", "decline": "decline",
    "resign": "resign", "moves": "moves", "legal": "moves", "clock": "clock", "time": "clock",
    "clocks": "clock", "board": "board", "flip": "flip", "help": "help", "?": "help",
    "quit": "quit", "exit": "quit", "rank": "rank", "file": "file", "pieces": "pieces",
    "claim": "claim",
}
_CLAIM_KINDS: Final = {
    "repetition": "threefold", "threefold": "threefold", "3": "threefold",
    "50": "fifty-moves", "fifty": "fifty-moves", "50-move": "fifty-moves",
}


@dataclass(frozen=True, slots=True)
class Command:
    """``name`` is one of the command words (or ``move``); ``args`` the rest of the line."""

    name: str
    args: tuple[str, ...] = ()
    offer_draw: bool = False


def read_command(line: str) -> Command | None:
    """The command a line says; ``None`` for an empty line."""
    words = line.split()
    if not words:
        return None
    head = words[0].lower()
    name = _WORDS.get(head)
    if name == "claim":
        kind = _CLAIM_KINDS.get(words[1].lower()) if len(words) > 1 else None
        rest = words[2:] if kind else words[1:]
        return Command("claim", (kind or "", " ".join(rest)))
    if name is not None:
        return Command(name, tuple(words[1:]))
    offer = False
    if words[-1].lower() in ("=", "(=)", "offer"):
        offer = True
        words = words[:-1]
    elif words[-1].endswith("(=)"):
        offer = True
        words[-1] = words[-1][:-3]
    return Command("move", (" ".join(words),), offer_draw=offer) if words else None


def help_text(without: tuple[str, ...] = ()) -> str:
    """The command list, one command a line, leaving out the commands in ``without``."""
    shown = [(cmd, what) for cmd, what in HELP if cmd not in without]
    width = max(len(cmd) for cmd, _ in shown)
    return "\n".join(f"{cmd.ljust(width)}  {what}" for cmd, what in shown)
