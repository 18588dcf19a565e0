"""What a player types, read into typed commands (the same words in every interface).

A line is a move (SAN, long algebraic or UCI; a trailing ``=`` or ``offer`` also offers a
draw, as the scoresheet's "(=)" records, Art. 9.1.2.1) or a command word (:class:`Verb`).
Reading never fails: unknown words become a ``move`` the arbiter will reject with its own
clear message.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from chessarbiter.clock.records import Side


class Verb(StrEnum):
    """What a command does: an action on the game (:data:`ACTIONS`) or a request to see it."""

    MOVE = "move"
    OFFER = "offer"
    ACCEPT = "accept"
    DECLINE = "decline"
    CLAIM = "claim"
    RESIGN = "resign"
    MOVES = "moves"
    CLOCK = "clock"
    BOARD = "board"
    RANK = "rank"
    FILE = "file"
    PIECES = "pieces"
    FLIP = "flip"
    HELP = "help"
    QUIT = "quit"


ACTIONS: Final = frozenset({Verb.MOVE, Verb.OFFER, Verb.ACCEPT, Verb.DECLINE, Verb.CLAIM,
                            Verb.RESIGN})
"""The commands that act on the game (the others look at it or at the interface)."""

_WORDS: Final = {
    "offer": Verb.OFFER, "draw": Verb.OFFER, "accept": Verb.ACCEPT, "decline": Verb.DECLINE,
    "resign": Verb.RESIGN, "moves": Verb.MOVES, "legal": Verb.MOVES, "clock": Verb.CLOCK,
    "time": Verb.CLOCK, "clocks": Verb.CLOCK, "board": Verb.BOARD, "flip": Verb.FLIP,
    "help": Verb.HELP, "?": Verb.HELP, "quit": Verb.QUIT, "exit": Verb.QUIT, "rank": Verb.RANK,
    "file": Verb.FILE, "pieces": Verb.PIECES, "claim": Verb.CLAIM,
}
_CLAIM_KINDS: Final = {
    "repetition": "threefold", "threefold": "threefold", "3": "threefold",
    "50": "fifty-moves", "fifty": "fifty-moves", "50-move": "fifty-moves",
}


@dataclass(frozen=True, slots=True)
class Command:
    """``name`` says what to do; ``args`` the rest of the line (a ``claim`` has two: the
    :class:`~chessarbiter.arbiter.events.ClaimKind` value or ``""``, and the intended move or
    ``""``)."""

    name: Verb
    args: tuple[str, ...] = ()
    offer_draw: bool = False


def read_command(line: str) -> Command | None:
    """The command a line says; ``None`` for an empty line."""
    words = line.split()
    if not words:
        return None
    head = words[0].lower()
    name = _WORDS.get(head)
    if name is Verb.CLAIM:
        kind = _CLAIM_KINDS.get(words[1].lower()) if len(words) > 1 else None
        rest = words[2:] if kind else words[1:]
        return Command(Verb.CLAIM, (kind or "", " ".join(rest)))
    if name is not None:
        return Command(name, tuple(words[1:]))
    offer = False
    if words[-1].lower() in ("=", "(=)", "offer"):
        offer = True
        words = words[:-1]
    elif words[-1].endswith("(=)"):
        offer = True
        words[-1] = words[-1][:-3]
    return Command(Verb.MOVE, (" ".join(words),), offer_draw=offer) if words else None


def side_named(word: str) -> Side:
    """The side a word names (``white``/``w``, ``black``/``b``); ``ValueError`` otherwise."""
    lowered = word.lower()
    if lowered in ("white", "w"):
        return Side.WHITE
    if lowered in ("black", "b"):
        return Side.BLACK
    raise ValueError(f"{word!r} is not a side: say white or black")
